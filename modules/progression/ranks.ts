// The rank table (docs/product.md), the Japan-time months it counts in, and a member's rank.
import { sql } from 'drizzle-orm';
import { TZDate } from '@date-fns/tz';
import { addMonths, startOfMonth, subMonths } from 'date-fns';
import { queryRows, type Database } from '#db/client';
import { membersWhoBoughtAtLeast, paidCoinsBought } from '#modules/wallet';

/** docs/product.md: ranks by paid coins bought last month (JST), lowest first. */
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

/** The first instants (UTC) of the previous, this and the next calendar month in Asia/Tokyo. */
export function jstMonths(now: Date) {
  const thisMonth = startOfMonth(new TZDate(now, 'Asia/Tokyo'));
  return {
    lastMonth: new Date(subMonths(thisMonth, 1).getTime()),
    thisMonth: new Date(thisMonth.getTime()),
    nextMonth: new Date(addMonths(thisMonth, 1).getTime()),
  };
}

/**
 * The member's rank now, the one rank every perk uses (the shop's purchase bonus, rank-only packs,
 * 特典コード conditions, /myrank): the month's recorded rank once the monthly job has finished the month
 * (absent row: レギュラー); until then the same rule computed from last month's purchases (JST).
 * @example (await currentRank(db, member.id)).bonusPercent // 3
 */
export async function currentRank(db: Database, memberId: string, now = new Date()): Promise<Rank> {
  const { lastMonth, thisMonth } = jstMonths(now);
  const [recorded] = await queryRows<{ done: boolean; rank: number | null }>(
    db,
    sql`select m.done_at is not null as done, r.rank from rank_months m
          left join member_monthly_ranks r on r.month = m.month and r.member_id = ${memberId}
         where m.month = ${monthKey(now)}::date`,
  );
  if (recorded?.done) return rankByNumber(Number(recorded.rank ?? 0));
  return rankForPurchases(await paidCoinsBought(db, memberId, lastMonth, thisMonth));
}

/**
 * The members whose rank at `at` is `minRank` or above, by currentRank's rule over the whole shop: the
 * month's recorded ranks once the monthly job has finished it, else last month's paid purchases (JST).
 * For the lowest rank (everyone) the caller counts all members instead (mailbox segments, decision 052).
 * @example await membersAtRankOrAbove(db, 3, new Date()) // ['u1', …]
 */
export async function membersAtRankOrAbove(db: Database, minRank: number, at = new Date()): Promise<string[]> {
  const [month] = await queryRows<{ done: boolean }>(
    db,
    sql`select done_at is not null as done from rank_months where month = ${monthKey(at)}::date`,
  );
  if (month?.done) {
    const rows = await queryRows<{ member_id: string }>(
      db,
      sql`select member_id from member_monthly_ranks where month = ${monthKey(at)}::date and rank >= ${minRank}`,
    );
    return rows.map((r) => r.member_id);
  }
  const { lastMonth, thisMonth } = jstMonths(at);
  const threshold = RANKS.find((r) => r.rank >= minRank)?.threshold;
  return threshold === undefined ? [] : membersWhoBoughtAtLeast(db, threshold, lastMonth, thisMonth);
}

/** @example rankByNumber(3).name === 'ゴールド' */
export const rankByNumber = (rank: number): Rank => RANKS.find((r) => r.rank === rank) ?? RANKS[0];

/** The Japan-time month of `now` as its first day, 'YYYY-MM-01' (a `date` column's value). @example monthKey(new Date('2026-11-30T15:00:00Z')) === '2026-12-01' */
export function monthKey(now: Date): string {
  const local = new TZDate(now, 'Asia/Tokyo');
  return `${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, '0')}-01`;
}

export type Rank = (typeof RANKS)[number];
