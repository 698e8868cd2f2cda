// The route a request is counted and traced under (decision 072): a pattern, never the raw path, so a
// metric has one series per route however many packs, members and results there are. Hono's routes
// give their own pattern; a page gives React Router's (noted by a route instrumentation while it
// renders, or the page cache's pattern for a stored copy); what no route answered gets a class.
import type { Context } from 'hono';
import type { ServerBuild, ServerInstrumentation } from 'react-router';
import { shopRequestContext } from '../context';

/** The Hono context key a page's route pattern is kept under. */
const PAGE_ROUTE = 'pageRoute';

/** Hono's path for a middleware that matched every request (it names no route). */
const ANY_PATH = new Set(['*', '/*']);

/**
 * The label of a request's route once it has been answered.
 * @example routeLabel(c) // '/api/v1/gachas/:gachaId/draws', '/gacha/:genreId/:gachaId', '(static)'
 */
export function routeLabel(c: Context): string {
  const page = (c.get as (key: string) => unknown)(PAGE_ROUTE);
  if (typeof page === 'string') return page;
  const route = c.req.routePath;
  if (route && !ANY_PATH.has(route)) return route;
  // Answered by a middleware before any route: the built files, or a refusal (a body too large, a
  // cross-site post, a control character in the path).
  if (c.res.status === 404) return '(unmatched)';
  return c.res.status < 400 ? '(static)' : '(refused)';
}

/**
 * Keeps a page's route pattern for routeLabel; a data request (`….data`, React Router's single fetch)
 * is its own series, since it renders no document.
 * @example notePageRoute(c, '/gacha/:genreId/:gachaId')
 */
export function notePageRoute(c: Context, pattern: string | undefined): void {
  if (!pattern) return;
  // React Router joins its route paths without the leading slash ('gacha/:genreId'); Hono's have one.
  const route = pattern.startsWith('/') ? pattern : `/${pattern}`;
  (c.set as (key: string, value: unknown) => void)(PAGE_ROUTE, c.req.path.endsWith('.data') ? `${route}.data` : route);
}

/**
 * Notes the matched route's pattern in the request's ShopRequest (`observed.route`) as the root route's
 * middleware starts, which every page request passes through.
 */
const routePatterns: ServerInstrumentation = {
  route(route) {
    if (route.id !== 'root') return;
    route.instrument({
      async middleware(handler, info) {
        const observed = info.context.get(shopRequestContext)?.observed;
        if (observed) observed.route = info.pattern;
        await handler();
      },
    });
  },
};

/**
 * The React Router build with the route-pattern instrumentation added to its own (the server's, so
 * the app's entry stays as it is).
 * @example createRequestHandler(withRoutePatterns(build), mode)
 */
export function withRoutePatterns(build: ServerBuild | (() => Promise<ServerBuild>)) {
  const noted = (original: ServerBuild): ServerBuild => ({
    ...original,
    entry: {
      ...original.entry,
      module: {
        ...original.entry.module,
        instrumentations: [...(original.entry.module.instrumentations ?? []), routePatterns],
      },
    },
  });
  return typeof build === 'function' ? async () => noted(await build()) : noted(build);
}
