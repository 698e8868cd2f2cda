// What /myrank and /mylevel show, and a member's experience.
import { eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { memberProgress } from './schema';
import { paidCoinsBought } from '#modules/wallet';
import { type Rank, jstMonths, currentRank, rankForPurchases, RANKS } from './ranks';

/** What /myrank and /mylevel show: experience, this month's rank and the way to next month's. */
export interface MemberProgress {
  exp: number;
  /** The rank in force this month (from last month's purchases). */
  rank: Rank;
  /** Paid coins bought this month (JST) so far: they decide next month's rank. */
  boughtThisMonth: number;
  /** The rank next month will have if nothing more is bought. */
  nextMonthRank: Rank;
  /** The rank just above nextMonthRank and the paid coins still missing for it; null at the top. */
  nextTarget: { rank: Rank; missing: number } | null;
  /** When this month ends (JST), i.e. when nextMonthRank takes effect. */
  monthEndsAt: Date;
}

/**
 * Experience, rank and this month's progress towards next month's rank, in three indexed reads.
 * @example const p = await getMemberProgress(db, member.id); p.nextTarget?.missing // 4_500
 */
export async function getMemberProgress(db: Database, memberId: string, now = new Date()): Promise<MemberProgress> {
  const { thisMonth, nextMonth } = jstMonths(now);
  const [exp, rank, boughtThisMonth] = await Promise.all([
    getExp(db, memberId),
    currentRank(db, memberId, now),
    paidCoinsBought(db, memberId, thisMonth, nextMonth),
  ]);
  const nextMonthRank = rankForPurchases(boughtThisMonth);
  const above = RANKS.find((r) => r.rank === nextMonthRank.rank + 1);
  return {
    exp,
    rank,
    boughtThisMonth,
    nextMonthRank,
    nextTarget: above ? { rank: above, missing: above.threshold - boughtThisMonth } : null,
    monthEndsAt: nextMonth,
  };
}

/** @example await getExp(db, member.id) // 12_000 */
export async function getExp(db: Database, memberId: string): Promise<number> {
  const [row] = await db
    .select({ exp: memberProgress.exp })
    .from(memberProgress)
    .where(eq(memberProgress.memberId, memberId));
  return Number(row?.exp ?? 0);
}
