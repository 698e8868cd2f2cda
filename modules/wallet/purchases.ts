// Paid coins bought: figures other modules read (ranks, campaigns, segments).
import { and, eq, gt, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { coinLedger } from './schema';

/**
 * Paid coins the member bought in [from, to) (purchases only, not bonuses): what a rank is made of.
 * @example await paidCoinsBought(db, member.id, lastMonth, thisMonth) // → 45_000
 */
export async function paidCoinsBought(db: Database, memberId: string, from: Date, to: Date): Promise<number> {
  const [row] = await db
    .select({ bought: sql<string>`coalesce(sum(${coinLedger.amount}), 0)` })
    .from(coinLedger)
    .where(
      and(
        eq(coinLedger.memberId, memberId),
        eq(coinLedger.reason, 'purchase'),
        eq(coinLedger.kind, 'paid'),
        gte(coinLedger.createdAt, from),
        lt(coinLedger.createdAt, to),
      ),
    );
  return Number(row?.bought ?? 0);
}
/**
 * Paid coins bought in [from, to) per member, for members after `after` in id order (a keyset page of
 * `limit`), or for the listed members only: what the monthly rank job records, a batch at a time.
 * Members without purchases in the range are absent.
 * @example await paidPurchaseTotals(db, { from, to, after: '', limit: 1000 }) // [{ memberId, paidCoins }, …]
 */
export async function paidPurchaseTotals(
  db: Database,
  query: { from: Date; to: Date } & ({ after: string; limit: number } | { memberIds: string[] }),
): Promise<{ memberId: string; paidCoins: number }[]> {
  if ('memberIds' in query && query.memberIds.length === 0) return [];
  const rows = await db
    .select({ memberId: coinLedger.memberId, bought: sql<string>`sum(${coinLedger.amount})` })
    .from(coinLedger)
    .where(
      and(
        eq(coinLedger.reason, 'purchase'),
        eq(coinLedger.kind, 'paid'),
        gte(coinLedger.createdAt, query.from),
        lt(coinLedger.createdAt, query.to),
        'memberIds' in query ? inArray(coinLedger.memberId, query.memberIds) : gt(coinLedger.memberId, query.after),
      ),
    )
    .groupBy(coinLedger.memberId)
    .orderBy(coinLedger.memberId)
    .limit('memberIds' in query ? query.memberIds.length : query.limit);
  return rows.map((r) => ({ memberId: r.memberId, paidCoins: Number(r.bought) }));
}

/**
 * The members who bought at least `paidCoins` paid coins in [from, to): a rank's members over the whole
 * shop (paidCoinsBought is the same sum per member), for the count an operator confirms (decision 052).
 * @example await membersWhoBoughtAtLeast(db, 10_000, lastMonth, thisMonth) // ['u1', …]
 */
export async function membersWhoBoughtAtLeast(
  db: Database,
  paidCoins: number,
  from: Date,
  to: Date,
): Promise<string[]> {
  const rows = await db
    .select({ memberId: coinLedger.memberId })
    .from(coinLedger)
    .where(
      and(
        eq(coinLedger.reason, 'purchase'),
        eq(coinLedger.kind, 'paid'),
        gte(coinLedger.createdAt, from),
        lt(coinLedger.createdAt, to),
      ),
    )
    .groupBy(coinLedger.memberId)
    .having(sql`sum(${coinLedger.amount}) >= ${paidCoins}`);
  return rows.map((r) => r.memberId);
}
