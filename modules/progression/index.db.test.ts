// Experience and rank against a real database: this month's rank from last month's paid purchases (JST),
// this month's purchases towards next month's rank, and the exp the draws add.
import { describe, it, expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { grantCoins } from '#modules/wallet';
import { drawLots } from '#modules/draw';
import { getMemberProgress, currentRank } from './index';

const handle = useTestDatabase('progression');

const buy = (memberId: string, amount: number, now: Date, kind: 'paid' | 'free' = 'paid') =>
  grantCoins(handle.db, {
    lifetimeDays: TEST_RULES.coinLifetimes,
    memberId,
    kind,
    amount,
    reason: kind === 'paid' ? 'purchase' : 'operator_grant',
    counterAccount: kind === 'paid' ? 'purchase' : 'promotion',
    idempotencyKey: randomUUID(),
    now,
  });

describe('getMemberProgress', () => {
  it('takes the rank from last month in Japan time and counts this month towards the next', async () => {
    const member = await createMember(handle.db);
    // "Now" is 1 December 2026, 00:30 in Japan (still 30 November in UTC).
    const now = new Date('2026-11-30T15:30:00Z');
    await buy(member, 35_000, new Date('2026-11-30T14:59:59Z')); // 30 Nov 23:59:59 JST: last month → シルバー
    await buy(member, 500_000, new Date('2026-10-31T14:59:59Z')); // October in Japan: counts for nothing now
    await buy(member, 6_000, new Date('2026-11-30T15:00:00Z')); // 1 Dec 00:00 JST: this month
    await buy(member, 50_000, new Date('2026-11-30T15:10:00Z'), 'free'); // free coins never count
    const progress = await getMemberProgress(handle.db, member, now);
    expect(progress.rank.name).toBe('シルバー');
    expect((await currentRank(handle.db, member, now)).name).toBe('シルバー');
    expect(progress.boughtThisMonth).toBe(6_000);
    expect(progress.nextMonthRank.name).toBe('レギュラー');
    expect(progress.nextTarget).toEqual({
      rank: expect.objectContaining({ name: 'ブロンズ', threshold: 10_000, bonusPercent: 1 }),
      missing: 4_000,
    });
    expect(progress.monthEndsAt).toEqual(new Date('2026-12-31T15:00:00Z'));
  });

  it('has no next target at the top rank, and shows the exp the draws added', async () => {
    const member = await createMember(handle.db);
    const now = new Date();
    await buy(member, 1_200_000, now);
    const pack = await createPublishedPack(handle.db, { lots: 50, price: 300 });
    const outcome = await drawLots(handle.db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId: pack,
      count: 10,
      idempotencyKey: randomUUID(),
    });
    expect(outcome.ok).toBe(true);
    const progress = await getMemberProgress(handle.db, member, now);
    expect(progress.exp).toBe(3_000);
    expect(progress.nextMonthRank.name).toBe('ダイヤモンド');
    expect(progress.nextTarget).toBeNull();
  });
});
