// Coin packs and orders as operators see them. These belong in modules/payments (its index.ts offers
// no operator listing or pack upsert yet, and another change owns that module now): they are the only
// table queries left in the scripts, kept in this one file with the signatures payments should adopt.
import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { coinPacks, paymentOrders, type OrderStatus } from '#modules/payments';

export type CoinPackRow = typeof coinPacks.$inferSelect;

/** Every coin pack, active or not, in display order. */
export async function listAllCoinPacks(db: Database): Promise<CoinPackRow[]> {
  return db.select().from(coinPacks).orderBy(coinPacks.sortOrder);
}

/** Creates or replaces a coin pack by id (orders copy a pack's numbers, so this never changes a purchase). */
export async function saveCoinPack(db: Database, pack: typeof coinPacks.$inferInsert): Promise<void> {
  await db.insert(coinPacks).values(pack).onConflictDoUpdate({ target: coinPacks.id, set: pack });
}

/** Orders newest first, by status and member when given. */
export async function listOrdersForOperator(db: Database, filter: { status?: OrderStatus; memberId?: string; limit: number }) {
  const conditions = [
    ...(filter.status ? [eq(paymentOrders.status, filter.status)] : []),
    ...(filter.memberId ? [eq(paymentOrders.memberId, filter.memberId)] : []),
  ];
  return db.select().from(paymentOrders).where(conditions.length ? and(...conditions) : undefined).orderBy(desc(paymentOrders.createdAt)).limit(filter.limit);
}
