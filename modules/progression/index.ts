// Experience and rank. Exp accrues at 1 per coin spent on draws (inside the draw's transaction);
// the rank comes from paid coins bought in the previous calendar month in Japan time.
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { TZDate } from '@date-fns/tz';
import { startOfMonth, subMonths } from 'date-fns';
import type { Database } from '../../db/client';
import { memberProgress } from './schema';
import { coinLedger } from '../wallet/schema';

export { memberProgress } from './schema';

/** product.md: ranks by paid coins bought last month (JST), lowest first. */
/** bonusPercent: free coins added to every coin purchase, as a percent of the paid coins (0–5 %). */
export const RANKS = [
  { rank: 0, name: 'レギュラー', threshold: 0, bonusPercent: 0 },
  { rank: 1, name: 'ブロンズ', threshold: 10_000, bonusPercent: 1 },
  { rank: 2, name: 'シルバー', threshold: 30_000, bonusPercent: 2 },
  { rank: 3, name: 'ゴールド', threshold: 100_000, bonusPercent: 3 },
  { rank: 4, name: 'プラチナ', threshold: 300_000, bonusPercent: 4 },
  { rank: 5, name: 'ダイヤモンド', threshold: 1_000_000, bonusPercent: 5 },
] as const;

/** Free coins a rank adds to a purchase of `paidCoins` (rounded down: coins are whole). @example rankBonusCoins(3, 10_000) === 300 */
export const rankBonusCoins = (bonusPercent: number, paidCoins: number) => Math.floor((paidCoins * bonusPercent) / 100);

/** @example rankForPurchases(45_000).name === 'シルバー' */
export function rankForPurchases(paidCoins: number) {
  return [...RANKS].reverse().find((r) => paidCoins >= r.threshold) ?? RANKS[0];
}

/** @example rankName(3) === 'ゴールド' */
export const rankName = (rank: number) => RANKS.find((r) => r.rank === rank)?.name ?? RANKS[0].name;

/** The member's rank now: purchases of the previous calendar month in Asia/Tokyo. */
export async function currentRank(db: Database, memberId: string, now = new Date()) {
  const thisMonth = startOfMonth(new TZDate(now, 'Asia/Tokyo'));
  const lastMonth = subMonths(thisMonth, 1);
  const [row] = await db
    .select({ bought: sql<string>`coalesce(sum(${coinLedger.amount}), 0)` })
    .from(coinLedger)
    .where(and(eq(coinLedger.memberId, memberId), eq(coinLedger.reason, 'purchase'), eq(coinLedger.kind, 'paid'),
      gte(coinLedger.createdAt, new Date(lastMonth.getTime())), lt(coinLedger.createdAt, new Date(thisMonth.getTime()))));
  return rankForPurchases(Number(row?.bought ?? 0));
}

/** @example await getExp(db, member.id) // 12_000 */
export async function getExp(db: Database, memberId: string): Promise<number> {
  const [row] = await db.select({ exp: memberProgress.exp }).from(memberProgress).where(eq(memberProgress.memberId, memberId));
  return Number(row?.exp ?? 0);
}
