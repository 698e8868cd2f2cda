// The monthly rank job against a real database, with the server in UTC: the Japan month edges (month end,
// year end), one rank-up mail per member and month whatever the re-runs, a late job catching up every
// missed month, batches, concurrent runs (PostgreSQL), and currentRank answering the recorded rank.
import { describe, it, expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, like } from 'drizzle-orm';
import { skipUnlessPostgres, useTestDatabase } from '#tests/use-test-database';
import { createMember, TEST_RULES } from '#tests/fixtures';
import { grantCoins } from '#modules/wallet';
import { mails, memberMonthlyRanks } from '#db/schema';
import { currentRank, getMemberProgress, monthKey, rankHistory, recordMonthlyRanks } from './index';

const handle = useTestDatabase('monthly-ranks', { poolSize: 4 });

const RULES = { rankUpRewards: [0, 100, 300, 1000, 3000, 10000], claimDays: 30 };

const buy = (memberId: string, amount: number, now: Date) =>
  grantCoins(handle.db, {
    lifetimeDays: TEST_RULES.coinLifetimes,
    memberId,
    kind: 'paid',
    amount,
    reason: 'purchase',
    counterAccount: 'purchase',
    idempotencyKey: randomUUID(),
    now,
  });

const rankMails = (memberIds: string[]) =>
  handle.db
    .select({
      memberId: mails.memberId,
      key: mails.dedupeKey,
      coins: mails.attachmentCoins,
      reason: mails.attachmentReason,
    })
    .from(mails)
    .where(and(inArray(mails.memberId, memberIds), like(mails.dedupeKey, 'rank-up:%')))
    .orderBy(mails.id);

describe('monthKey', () => {
  it('names the Japan month, with the server in UTC', () => {
    expect(monthKey(new Date('2026-11-30T14:59:59.999Z'))).toBe('2026-11-01');
    expect(monthKey(new Date('2026-11-30T15:00:00Z'))).toBe('2026-12-01');
    expect(monthKey(new Date('2026-12-31T15:00:00Z'))).toBe('2027-01-01');
  });
});

describe('recordMonthlyRanks', () => {
  const members: Record<string, string> = {};

  it('records the month from the last purchases before midnight in Japan, and mails the rank-up once', async () => {
    const db = handle.db;
    for (const name of ['silver', 'afterMidnight', 'late']) members[name] = await createMember(db);
    await buy(members.silver!, 35_000, new Date('2026-11-30T14:59:59Z')); // 30 Nov 23:59:59 JST → December: シルバー
    await buy(members.afterMidnight!, 35_000, new Date('2026-11-30T15:00:00Z')); // 1 Dec 00:00 JST → January
    const dec1 = new Date('2026-11-30T15:05:00Z'); // 1 December 00:05 in Japan
    // Before the job, the same rule computed live.
    expect((await currentRank(db, members.silver!, dec1)).name).toBe('シルバー');

    const first = await recordMonthlyRanks(db, RULES, dec1);
    expect(first.months).toEqual(['2026-12-01']);
    const again = await recordMonthlyRanks(db, RULES, new Date('2026-11-30T16:05:00Z'));
    expect(again).toEqual({ months: [], members: 0, rankUps: 0 });

    const sent = await rankMails(Object.values(members));
    expect(sent).toEqual([{ memberId: members.silver, key: 'rank-up:2026-12', coins: 300, reason: 'rank_reward' }]);
    expect(await rankHistory(db, members.silver!)).toEqual([
      { month: '2026-12-01', rank: 2, paidCoins: 35_000, name: 'シルバー' },
    ]);
    expect((await currentRank(db, members.afterMidnight!, dec1)).name).toBe('レギュラー');

    // A purchase dated last month but credited after the month was recorded changes nothing: the shop's
    // purchase bonus, rank-only packs and /myrank all read the recorded rank.
    await buy(members.late!, 500_000, new Date('2026-11-30T14:00:00Z'));
    expect((await currentRank(db, members.late!, dec1)).name).toBe('レギュラー');
    expect((await getMemberProgress(db, members.silver!, dec1)).rank.name).toBe('シルバー');
  });

  it('catches up every month a late job missed, across the year end', async () => {
    const db = handle.db;
    members.newYear = await createMember(db);
    await buy(members.silver!, 150_000, new Date('2026-12-31T14:59:59Z')); // 31 Dec 23:59:59 JST → January: ゴールド
    await buy(members.newYear!, 12_000, new Date('2026-12-31T15:00:00Z')); // 1 Jan 00:00 JST → February: ブロンズ
    // The job did not run in January; it first runs again on 1 February, 00:30 in Japan.
    const feb1 = new Date('2027-01-31T15:30:00Z');
    const run = await recordMonthlyRanks(db, RULES, feb1);
    expect(run.months).toEqual(['2027-01-01', '2027-02-01']);
    const sent = await rankMails(Object.values(members));
    const byKey = (rows: unknown[][]) => rows.map((r) => r.join(' ')).sort();
    expect(byKey(sent.map((m) => [m.memberId, m.key, m.coins]))).toEqual(
      byKey([
        [members.silver, 'rank-up:2026-12', 300],
        [members.silver, 'rank-up:2027-01', 1000], // シルバー → ゴールド
        [members.afterMidnight, 'rank-up:2027-01', 300], // レギュラー → シルバー
        [members.newYear, 'rank-up:2027-02', 100], // レギュラー → ブロンズ
      ]),
    );
    expect((await currentRank(db, members.silver!, new Date('2027-01-15T00:00:00Z'))).name).toBe('ゴールド');
    expect((await currentRank(db, members.silver!, feb1)).name).toBe('レギュラー');
    expect((await currentRank(db, members.newYear!, feb1)).name).toBe('ブロンズ');
  });

  it('records each member once and mails once when runs overlap, batch by batch (needs PostgreSQL)', async (ctx) => {
    skipUnlessPostgres(ctx, handle, 'several connections');
    const db = handle.db;
    const buyers = await Promise.all(Array.from({ length: 7 }, () => createMember(db)));
    for (const [i, member] of buyers.entries()) await buy(member, 10_000 * (i + 1), new Date('2027-02-10T03:00:00Z'));
    const mar1 = new Date('2027-02-28T15:01:00Z'); // 1 March 00:01 in Japan
    await Promise.all([1, 2, 3].map(() => recordMonthlyRanks(db, RULES, mar1, 2)));
    const sent = await rankMails(buyers);
    expect(sent).toHaveLength(7);
    expect(new Set(sent.map((m) => m.memberId)).size).toBe(7);
    expect(sent.every((m) => m.key === 'rank-up:2027-03')).toBe(true);
    const rows = await db
      .select()
      .from(memberMonthlyRanks)
      .where(and(eq(memberMonthlyRanks.month, '2027-03-01'), inArray(memberMonthlyRanks.memberId, buyers)));
    expect(rows.map((r) => r.rank).sort()).toEqual([1, 1, 2, 2, 2, 2, 2]);
  });
});
