// The monthly rank job's work (docs/decisions/037): records every ranked member's rank for a Japan-time
// month (history kept in member_monthly_ranks) and mails the rank-up reward once (key rank-up:YYYY-MM).
// Idempotent, restartable and batch-wise: each batch is one short transaction that locks the month's
// progress row, records up to `batchSize` members after its cursor and moves the cursor; a second run
// at once waits for the lock and continues after it. A late run catches up every month it missed.
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { TZDate } from '@date-fns/tz';
import { addMonths } from 'date-fns';
import type { Database } from '#db/client';
import { paidPurchaseTotals } from '#modules/wallet';
import { notifyMember } from '#modules/mailbox';
import { memberMonthlyRanks, rankMonths } from './schema';
import { RANKS, monthKey, rankByNumber, rankForPurchases } from './ranks';

/** The settings' rank rules. */
export interface RankRules {
  /** Free coins attached to the rank-up mail, by rank (index 0 = レギュラー … 5 = ダイヤモンド). */
  rankUpRewards: number[];
  /** Days a rank-up attachment may be claimed. */
  claimDays: number;
}

/** The first instant (UTC) of a 'YYYY-MM-01' month in Japan, moved by `months`. */
function monthStart(month: string, months = 0): Date {
  const [y, m] = month.split('-').map(Number);
  return new Date(addMonths(new TZDate(y!, m! - 1, 1, 'Asia/Tokyo'), months).getTime());
}

/** What a run did. */
export interface MonthlyRankRun {
  /** The months finished by this run, oldest first. */
  months: string[];
  members: number;
  rankUps: number;
}

/**
 * Records the ranks of the current Japan-time month and of any month a late job missed since the last
 * finished one, then answers. Safe to run again, twice at once, or after a crash half-way.
 * @example await recordMonthlyRanks(db, { rankUpRewards: [0, 100, 300, 1000, 3000, 10000], claimDays: 30 }, new Date())
 */
export async function recordMonthlyRanks(
  db: Database,
  rules: RankRules,
  now = new Date(),
  batchSize = 1_000,
): Promise<MonthlyRankRun> {
  const current = monthKey(now);
  const [lastDone] = await db
    .select({ month: rankMonths.month })
    .from(rankMonths)
    .where(isNotNull(rankMonths.doneAt))
    .orderBy(desc(rankMonths.month))
    .limit(1);
  // The first run ever records only the current month; afterwards every month after the last done one.
  const months: string[] = [];
  for (let m = lastDone ? monthKey(monthStart(lastDone.month, 1)) : current; m <= current;) {
    months.push(m);
    m = monthKey(monthStart(m, 1));
  }
  const run: MonthlyRankRun = { months: [], members: 0, rankUps: 0 };
  for (const month of months) {
    for (;;) {
      const step = await recordRankBatch(db, rules, month, now, batchSize);
      run.members += step.members;
      run.rankUps += step.rankUps;
      if (step.done) break;
    }
    run.months.push(month);
  }
  return run;
}

/** One batch of one month, in one transaction under the month's progress row lock. */
async function recordRankBatch(db: Database, rules: RankRules, month: string, now: Date, batchSize: number) {
  return db.transaction(async (tx) => {
    await tx.insert(rankMonths).values({ month, startedAt: now }).onConflictDoNothing();
    const [progress] = await tx.select().from(rankMonths).where(eq(rankMonths.month, month)).for('update');
    if (!progress || progress.doneAt) return { done: true, members: 0, rankUps: 0 };
    // The month's rank comes from the month before's purchases.
    const bought = await paidPurchaseTotals(tx, {
      from: monthStart(month, -1),
      to: monthStart(month),
      after: progress.cursor,
      limit: batchSize,
    });
    const ranked = bought.map((b) => ({ ...b, rank: rankForPurchases(b.paidCoins).rank })).filter((b) => b.rank > 0);
    const before = await previousRanks(
      tx,
      month,
      ranked.map((r) => r.memberId),
    );
    if (ranked.length > 0)
      await tx
        .insert(memberMonthlyRanks)
        .values(
          ranked.map((r) => ({ memberId: r.memberId, month, rank: r.rank, paidCoins: r.paidCoins, recordedAt: now })),
        )
        .onConflictDoNothing();
    let rankUps = 0;
    for (const r of ranked) {
      if (r.rank <= (before.get(r.memberId) ?? 0)) continue;
      const { created } = await notifyMember(tx, rankUpNotice(r.memberId, r.rank, month, rules, now));
      if (created) rankUps += 1;
    }
    const done = bought.length < batchSize;
    await tx
      .update(rankMonths)
      .set({
        cursor: bought.at(-1)?.memberId ?? progress.cursor,
        members: sql`${rankMonths.members} + ${ranked.length}`,
        rankUps: sql`${rankMonths.rankUps} + ${rankUps}`,
        doneAt: done ? now : null,
      })
      .where(eq(rankMonths.month, month));
    return { done, members: ranked.length, rankUps };
  });
}

/** The members' ranks of the month before: recorded when that month was done, else from its purchases. */
async function previousRanks(db: Database, month: string, memberIds: string[]): Promise<Map<string, number>> {
  if (memberIds.length === 0) return new Map();
  const previous = monthKey(monthStart(month, -1));
  const [done] = await db
    .select({ month: rankMonths.month })
    .from(rankMonths)
    .where(and(eq(rankMonths.month, previous), isNotNull(rankMonths.doneAt)));
  if (done) {
    const rows = await db
      .select({ memberId: memberMonthlyRanks.memberId, rank: memberMonthlyRanks.rank })
      .from(memberMonthlyRanks)
      .where(and(eq(memberMonthlyRanks.month, previous), inArray(memberMonthlyRanks.memberId, memberIds)));
    return new Map(rows.map((r) => [r.memberId, r.rank]));
  }
  const bought = await paidPurchaseTotals(db, { from: monthStart(month, -2), to: monthStart(month, -1), memberIds });
  return new Map(bought.map((b) => [b.memberId, rankForPurchases(b.paidCoins).rank]));
}

function rankUpNotice(memberId: string, rank: number, month: string, rules: RankRules, now: Date) {
  const { name, bonusPercent } = rankByNumber(rank);
  const coins = rules.rankUpRewards[rank] ?? 0;
  const monthLabel = `${Number(month.slice(5, 7))}月`;
  return {
    memberId,
    category: 'rank_up' as const,
    dedupeKey: `rank-up:${month.slice(0, 7)}`,
    subject: `ランクアップ！${monthLabel}のランクは${name}です`,
    body: [
      `おめでとうございます！${monthLabel}のランクが${name}になりました。`,
      `${monthLabel}中はコイン購入のたびに有償コインの${bonusPercent}%を無償コインでお付けします。`,
      coins > 0
        ? `ランクアップ報酬として無償コイン${coins.toLocaleString('ja-JP')}枚をお贈りします。受け取り期限までに「受け取る」を押してください。`
        : '',
    ].join('\n'),
    attachment:
      coins > 0
        ? { coins, claimUntil: new Date(now.getTime() + rules.claimDays * 86_400_000), reason: 'rank_reward' }
        : null,
    sendAt: now,
  };
}

/** A member's recorded ranks, newest first (the months the job recorded; absent months were レギュラー). */
export async function rankHistory(db: Database, memberId: string, limit = 12) {
  const rows = await db
    .select({ month: memberMonthlyRanks.month, rank: memberMonthlyRanks.rank, paidCoins: memberMonthlyRanks.paidCoins })
    .from(memberMonthlyRanks)
    .where(eq(memberMonthlyRanks.memberId, memberId))
    .orderBy(desc(memberMonthlyRanks.month))
    .limit(limit);
  return rows.map((r) => ({ ...r, name: rankByNumber(r.rank).name }));
}

/** The rank-up reward table for the pages. @example rankUpRewardsTable(rules)[5] // { rank: 5, name: 'ダイヤモンド', coins: 10000 } */
export const rankUpRewardsTable = (rules: RankRules) =>
  RANKS.map((r) => ({ rank: r.rank, name: r.name, coins: rules.rankUpRewards[r.rank] ?? 0 }));
