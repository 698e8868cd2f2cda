// Page titles from route handles: the tagline on '/', elsewhere '<page title> | <site name>'.
import type { UIMatch } from 'react-router';

export type TitleSource = string | ((loaderData: never) => string | null | undefined);
export interface RouteHandle {
  title?: TitleSource;
}

/** @example composeTitle({ pathname: '/shop', pageTitle: 'コインショップ', site }) // 'コインショップ | オリパ ステラ' */
export function composeTitle(options: { pathname: string; pageTitle: string | null; siteName: string; tagline: string }): string {
  if (options.pathname === '/') return options.tagline;
  return options.pageTitle ? `${options.pageTitle} | ${options.siteName}` : options.siteName;
}

/** The deepest route's title, from its handle; a title function gets that route's loader data. */
export function pageTitleFromMatches(matches: UIMatch[]): string | null {
  for (let i = matches.length - 1; i >= 0; i--) {
    const match = matches[i]!;
    const title = (match.handle as RouteHandle | undefined)?.title;
    if (!title) continue;
    if (typeof title === 'string') return title;
    const data = (match as UIMatch & { loaderData?: unknown }).loaderData ?? match.data;
    if (data === undefined) continue;
    const computed = title(data as never);
    if (computed) return computed;
  }
  return null;
}

/** Canonical link: the public origin plus the full current path (path and query). */
export const canonicalUrl = (origin: string, pathname: string, search: string) => `${origin}${pathname}${search}`;
