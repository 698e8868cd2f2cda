// Reads that several loaders of one request need (the root's header and the page itself): each is made
// once per request and shared, so a member's pack page does not read the genres and the wallet twice
// (issue 17: statements per page render, bench/budgets/page-statements.json).
import { listGenres } from '#modules/gacha';
import { getBalance } from '#modules/wallet';
import { catalogueDb, type ShopRequest } from '#server/context';

const reads = new WeakMap<ShopRequest, Map<string, Promise<unknown>>>();

function once<T>(shop: ShopRequest, key: string, read: () => Promise<T>): Promise<T> {
  let mine = reads.get(shop);
  if (!mine) reads.set(shop, (mine = new Map()));
  let pending = mine.get(key) as Promise<T> | undefined;
  if (!pending) {
    pending = read();
    mine.set(key, pending);
  }
  return pending;
}

/** The shown genres, read once per request. @example const genres = await genresOf(shop) */
export const genresOf = (shop: ShopRequest) => once(shop, 'genres', () => listGenres(catalogueDb(shop)));

/** The signed-in member's balance, read once per request; null for a visitor. @example await balanceOf(shop) */
export const balanceOf = (shop: ShopRequest) =>
  shop.member ? once(shop, 'balance', () => getBalance(shop.services.db, shop.member!.id)) : Promise.resolve(null);
