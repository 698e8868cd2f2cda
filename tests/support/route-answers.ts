// Reading what a page's loader or action answered, and rendering the page's own component with it,
// for db tests that drive the pages' server functions without a built shop.
import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Outlet, createRoutesStub } from 'react-router';

/**
 * What a loader or action answered: data(…) (body and status) or a redirect Response.
 * @example const { status, location, body } = answerOf(await securityPageAction(shop, request))
 */
export function answerOf(result: unknown) {
  if (result instanceof Response)
    return {
      status: result.status,
      location: result.headers.get('location'),
      setCookies: result.headers.getSetCookie(),
      body: null,
    };
  const { data, init } = result as { data: Record<string, unknown>; init?: { status?: number; headers?: HeadersInit } };
  return {
    status: init?.status ?? 200,
    location: null,
    setCookies: new Headers(init?.headers).getSetCookie(),
    body: data,
  };
}

/**
 * The HTML the server renders for a route's component at `url` with this loader and action answer,
 * under a root route whose loader answers `root` (what useRootData reads).
 * @example const html = renderRoute(SignIn, '/auth/sign_in?step=code', { loaderData, actionData: answer.body })
 */
export function renderRoute(
  page: ComponentType<any>,
  url: string,
  answers: { loaderData?: unknown; actionData?: unknown; root?: unknown },
): string {
  const Stub = createRoutesStub([
    {
      id: 'root',
      path: '/',
      loader: () => null,
      Component: Outlet,
      children: [
        {
          id: 'page',
          path: new URL(url, 'http://route.test').pathname.slice(1),
          loader: () => null,
          action: () => null,
          Component: page,
        },
      ],
    },
  ]);
  return renderToStaticMarkup(
    createElement(Stub, {
      initialEntries: [url],
      hydrationData: {
        loaderData: { root: answers.root ?? null, page: answers.loaderData ?? null },
        ...(answers.actionData === undefined ? {} : { actionData: { page: answers.actionData } }),
      },
    }),
  );
}
