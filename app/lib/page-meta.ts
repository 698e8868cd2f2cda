// Page titles and meta descriptions from route handles: the tagline on '/', elsewhere
// '<page title> | <site name>'; a page's own description, else the site's.
import type { UIMatch } from 'react-router';

export type TitleSource = string | ((loaderData: never) => string | null | undefined);
export interface RouteHandle {
  title?: TitleSource;
  /** The page's meta description (a string, or computed from the route's loader data). */
  description?: TitleSource;
}

/** @example composeTitle({ pathname: '/shop', pageTitle: 'コインショップ', site }) // 'コインショップ | オリパ ステラ' */
export function composeTitle(options: {
  pathname: string;
  pageTitle: string | null;
  siteName: string;
  tagline: string;
}): string {
  if (options.pathname === '/') return options.tagline;
  return options.pageTitle ? `${options.pageTitle} | ${options.siteName}` : options.siteName;
}

/** The deepest route's title, from its handle; a title function gets that route's loader data. */
export function pageTitleFromMatches(matches: UIMatch[]): string | null {
  return fromHandles(matches, 'title');
}

/** The deepest route's own description, from its handle (null when no route has one). */
export function pageDescriptionFromMatches(matches: UIMatch[]): string | null {
  return fromHandles(matches, 'description');
}

/** Longest meta description kept: search results show about this much of it. */
export const MAX_DESCRIPTION_LENGTH = 160;

/**
 * The meta description: the page's own (white space collapsed, cut at 160 characters with '…'),
 * else the site's default.
 * @example composeDescription('  全100口、\nハズレなし。', 'サイトの説明') // '全100口、 ハズレなし。'
 */
export function composeDescription(pageDescription: string | null | undefined, siteDescription: string): string {
  const text = (pageDescription ?? '').replace(/\s+/g, ' ').trim();
  if (!text) return siteDescription;
  const chars = [...text];
  return chars.length > MAX_DESCRIPTION_LENGTH ? `${chars.slice(0, MAX_DESCRIPTION_LENGTH - 1).join('')}…` : text;
}

function fromHandles(matches: UIMatch[], key: keyof RouteHandle): string | null {
  for (let i = matches.length - 1; i >= 0; i--) {
    const match = matches[i]!;
    const title = (match.handle as RouteHandle | undefined)?.[key];
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
