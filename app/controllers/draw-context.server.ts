// Checks a draw carried through the coin shop: the pack must exist, be on sale and offer the
// count. Anything else is dropped without a word: the carried draw only ever builds a path to one
// of our own pack pages, never an address taken from the request.
import type { Database } from '#db/client';
import { getGachaDetail, isCatalogueId } from '#modules/gacha';
import { DRAW_CONTEXT_PARAMS, type CarriedDraw } from '~/lib/draw-context';

const COUNT = /^[1-9]\d{0,3}$/;

/**
 * The draw named by `gachaId` and `count` when the pack exists and offers that count, else null.
 * @example await resolveCarriedDraw(db, 'stellar-pokemon-001', '10') // { gachaId, genreId: 'pokemon', title, count: 10, cost: 5000 }
 */
export async function resolveCarriedDraw(db: Database, gachaId: unknown, count: unknown): Promise<CarriedDraw | null> {
  const countText = typeof count === 'number' ? String(count) : count;
  if (typeof gachaId !== 'string' || typeof countText !== 'string' || !isCatalogueId(gachaId) || !COUNT.test(countText))
    return null;
  const pack = await getGachaDetail(db, gachaId);
  const n = Number(countText);
  // A sold-out, ended or not yet open pack cannot be drawn: offering 「続けて…を引く」 for it would mislead.
  if (!pack || pack.status !== 'on_sale' || !pack.drawOptions.includes(n)) return null;
  return { gachaId: pack.id, genreId: pack.genreId, title: pack.title, count: n, cost: pack.pricePerDraw * n };
}

/** The carried draw of a request's query (`?gacha=…&count=…`), checked; null when absent or wrong. */
export function carriedDrawOf(db: Database, params: URLSearchParams): Promise<CarriedDraw | null> {
  return resolveCarriedDraw(db, params.get(DRAW_CONTEXT_PARAMS.gacha), params.get(DRAW_CONTEXT_PARAMS.count));
}
