// The draw a member was short of coins for, carried from the pack through the coin shop, the
// checkout and the payment's return page (`?gacha=<id>&count=<n>`), and the links built from it.
// Pure and browser-safe: the server checks the pack and the count (draw-context.server.ts).
import { drawOptionLabel } from '~/components/gacha/labels';

/** A carried draw, checked on the server: the pack exists and offers this count. */
export interface CarriedDraw {
  gachaId: string;
  genreId: string;
  /** The pack's title, for 「続けて10連を引く（…）」. */
  title: string;
  count: number;
  /** Coins the draw costs (price per draw × count). */
  cost: number;
}

/** The query names the shop's pages carry a draw under. */
export const DRAW_CONTEXT_PARAMS = { gacha: 'gacha', count: 'count' } as const;

/**
 * The query string (without '?') that carries a draw to the next page, or '' without one.
 * @example drawContextQuery({ gachaId: 'p1', count: 10 }) === 'gacha=p1&count=10'
 */
export function drawContextQuery(draw: { gachaId: string; count: number } | null | undefined): string {
  if (!draw) return '';
  return new URLSearchParams({
    [DRAW_CONTEXT_PARAMS.gacha]: draw.gachaId,
    [DRAW_CONTEXT_PARAMS.count]: String(draw.count),
  }).toString();
}

/**
 * `path` with the carried draw added to its query.
 * @example withDrawContext('/shop', { gachaId: 'p1', count: 10 }) === '/shop?gacha=p1&count=10'
 */
export function withDrawContext(path: string, draw: { gachaId: string; count: number } | null | undefined): string {
  const query = drawContextQuery(draw);
  if (!query) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

/**
 * The pack page with the confirmation of `count` open (the detail page opens it from `?confirm=`).
 * @example packDrawPath({ genreId: 'pokemon', gachaId: 'p1', count: 10 }) === '/gacha/pokemon/p1?confirm=10'
 */
export const packDrawPath = (draw: { genreId: string; gachaId: string; count: number }) =>
  `/gacha/${encodeURIComponent(draw.genreId)}/${encodeURIComponent(draw.gachaId)}?confirm=${draw.count}`;

/** @example continueDrawLabel({ count: 10, title: '星降る夜' }) === '続けて10連を引く（星降る夜）' */
export const continueDrawLabel = (draw: { count: number; title: string }) =>
  `続けて${drawOptionLabel(draw.count)}を引く（${draw.title}）`;
