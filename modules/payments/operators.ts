// Operators (npm run shop): the coin packs as stored, and orders across members.
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { coinPacks, paymentOrders, type OrderStatus } from './schema';

/** A coin pack as stored (read model for operators; the shop's pages use listCoinPacks). */
export type CoinPackRecord = typeof coinPacks.$inferSelect;
/** What an operator sets on a coin pack (coinpacks:set). */
export type CoinPackDefinition = typeof coinPacks.$inferInsert;
/** An order as stored (read model for operators: ids, amounts, status, credit and reversal records). */
export type PaymentOrderRecord = typeof paymentOrders.$inferSelect;

/** Every coin pack, active or not, in the shop's order. @example for (const pack of await listAllCoinPacks(db)) … */
export async function listAllCoinPacks(db: Database): Promise<CoinPackRecord[]> {
  return db.select().from(coinPacks).orderBy(asc(coinPacks.sortOrder));
}

/**
 * Creates or replaces a coin pack. Orders copy the pack's numbers when they are made, so editing a pack
 * never changes a purchase.
 * @example await saveCoinPack(db, { id: 'coin-500', name: '500コイン', priceJpy: 500, paidCoins: 500, bonusCoins: 0 })
 */
export async function saveCoinPack(db: Database, pack: CoinPackDefinition): Promise<void> {
  await db.insert(coinPacks).values(pack).onConflictDoUpdate({ target: coinPacks.id, set: pack });
}

/**
 * Orders newest first, optionally of one status and/or one member (operators: orders:list).
 * @example const waiting = await listOrdersForOperator(db, { status: 'review', limit: 50 })
 */
export async function listOrdersForOperator(
  db: Database,
  filter: { status?: OrderStatus; memberId?: string; limit: number },
): Promise<PaymentOrderRecord[]> {
  const conditions = [
    ...(filter.status ? [eq(paymentOrders.status, filter.status)] : []),
    ...(filter.memberId ? [eq(paymentOrders.memberId, filter.memberId)] : []),
  ];
  return db
    .select()
    .from(paymentOrders)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(paymentOrders.createdAt))
    .limit(filter.limit);
}

/** Demo and first-run coin packs: ¥500 to ¥100,000. */
export const DEFAULT_COIN_PACKS: (typeof coinPacks.$inferInsert)[] = [
  {
    id: 'first-500',
    name: '初回限定 500コイン',
    priceJpy: 500,
    paidCoins: 500,
    bonusCoins: 500,
    firstPurchaseOnly: true,
    badge: '初回限定',
    sortOrder: 0,
  },
  { id: 'coin-500', name: '500コイン', priceJpy: 500, paidCoins: 500, bonusCoins: 0, sortOrder: 10 },
  { id: 'coin-1000', name: '1,000コイン', priceJpy: 1_000, paidCoins: 1_000, bonusCoins: 10, sortOrder: 20 },
  { id: 'coin-3000', name: '3,000コイン', priceJpy: 3_000, paidCoins: 3_000, bonusCoins: 60, sortOrder: 30 },
  {
    id: 'coin-5000',
    name: '5,000コイン',
    priceJpy: 5_000,
    paidCoins: 5_000,
    bonusCoins: 150,
    badge: '人気',
    sortOrder: 40,
  },
  {
    id: 'coin-10000',
    name: '10,000コイン',
    priceJpy: 10_000,
    paidCoins: 10_000,
    bonusCoins: 400,
    badge: 'おすすめ',
    sortOrder: 50,
  },
  { id: 'coin-30000', name: '30,000コイン', priceJpy: 30_000, paidCoins: 30_000, bonusCoins: 1_500, sortOrder: 60 },
  { id: 'coin-50000', name: '50,000コイン', priceJpy: 50_000, paidCoins: 50_000, bonusCoins: 3_000, sortOrder: 70 },
  {
    id: 'coin-100000',
    name: '100,000コイン',
    priceJpy: 100_000,
    paidCoins: 100_000,
    bonusCoins: 8_000,
    badge: 'お得',
    sortOrder: 80,
  },
];

/** Puts the default coin packs in place when the shop has none (first start); operators edit them later. */
export async function ensureDefaultCoinPacks(db: Database): Promise<number> {
  const [existing] = await db.select({ n: sql<number>`count(*)::int` }).from(coinPacks);
  if ((existing?.n ?? 0) > 0) return 0;
  const rows = await db
    .insert(coinPacks)
    .values(DEFAULT_COIN_PACKS)
    .onConflictDoNothing()
    .returning({ id: coinPacks.id });
  return rows.length;
}
