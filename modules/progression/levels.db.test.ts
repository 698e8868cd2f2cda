// Levels against a real database: the threshold table, a draw that crosses several levels sends one mail
// naming them all (with the sum of their rewards attached, decision 060) in the draw's own transaction, a
// level is mailed once whatever the retries and concurrent draws, and a draw that crosses none sends nothing.
import { describe, it, expect, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { skipUnlessPostgres, useTestDatabase } from '#tests/use-test-database';
import { createMemberWithCoins, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { drawLots } from '#modules/draw';
import { mails } from '#db/schema';
import {
  defaultLevelRewards,
  defaultLevelThresholds,
  getMemberLevel,
  levelOf,
  levelStepsOf,
  levelTable,
  syncLevelTable,
} from './index';

const handle = useTestDatabase('levels', { poolSize: 4 });

const RULES = { thresholds: [1_000, 3_000, 6_000, 10_000], rewards: [100, 200], claimDays: 30 };

async function draw(memberId: string, gachaId: string, count: number, idempotencyKey = randomUUID()) {
  const outcome = await drawLots(handle.db, {
    decisionDays: TEST_RULES.prizeDecisionDays,
    memberId,
    gachaId,
    count,
    idempotencyKey,
  });
  if (!outcome.ok) throw new Error(`draw refused: ${outcome.code}`);
  return outcome.result;
}

const levelMails = (memberId: string) =>
  handle.db
    .select({
      key: mails.dedupeKey,
      subject: mails.subject,
      coins: mails.attachmentCoins,
      reason: mails.attachmentReason,
      claimUntil: mails.claimUntil,
      sendAt: mails.sendAt,
      category: mails.category,
    })
    .from(mails)
    .where(and(eq(mails.memberId, memberId), like(mails.dedupeKey, 'level-up:%')))
    .orderBy(mails.id);

afterAll(() => syncLevelTable(handle.db, { thresholds: [], rewards: [], claimDays: 30 }));

describe('the level table', () => {
  it('places an exp total between thresholds; the default curve rises', () => {
    const table = levelStepsOf(RULES);
    expect(table.map((s) => [s.level, s.expRequired, s.rewardCoins])).toEqual([
      [2, 1_000, 100],
      [3, 3_000, 200],
      [4, 6_000, 200], // the last reward repeats
      [5, 10_000, 200],
    ]);
    expect(levelOf(table, 0)).toEqual({ level: 1, levelExp: 0, next: { level: 2, expRequired: 1_000 } });
    expect(levelOf(table, 2_999).level).toBe(2);
    expect(levelOf(table, 3_000)).toEqual({ level: 3, levelExp: 3_000, next: { level: 4, expRequired: 6_000 } });
    expect(levelOf(table, 50_000)).toEqual({ level: 5, levelExp: 10_000, next: null });
    expect(levelOf([], 50_000)).toEqual({ level: 1, levelExp: 0, next: null });
    const curve = defaultLevelThresholds();
    expect(curve.slice(0, 3)).toEqual([1_000, 4_000, 9_000]);
    expect(curve.every((exp, i) => i === 0 || exp > curve[i - 1]!)).toBe(true);
    expect(defaultLevelRewards()[8]).toBe(1_000); // level 10
  });

  it('is written once from the settings and replaced when they change', async () => {
    expect(await syncLevelTable(handle.db, RULES)).toEqual({ changed: true });
    expect(await syncLevelTable(handle.db, RULES)).toEqual({ changed: false });
    expect((await levelTable(handle.db)).map((s) => s.level)).toEqual([2, 3, 4, 5]);
  });
});

describe('level-up mails', () => {
  it('sends one mail for the levels a draw crossed, in the draw, with their rewards attached, once', async () => {
    const db = handle.db;
    await syncLevelTable(db, RULES);
    const pack = await createPublishedPack(db, { lots: 500, price: 350 });
    const member = await createMemberWithCoins(db, { paid: 100_000 });

    await draw(member, pack, 1); // 350 exp: no level
    expect(await levelMails(member)).toEqual([]);

    const key = randomUUID();
    const result = await draw(member, pack, 10, key); // 3,850 exp: levels 2 and 3 in one draw
    const sent = await levelMails(member);
    expect(sent.map((m) => [m.key, m.coins, m.reason, m.category])).toEqual([
      ['level-up:2,3', 300, 'level_up', 'level_up'],
    ]);
    expect(sent[0]!.subject).toBe('レベル2〜3に到達しました');
    expect(sent[0]!.sendAt).toEqual(new Date(result.createdAt));
    expect(sent[0]!.claimUntil!.getTime() - sent[0]!.sendAt.getTime()).toBe(30 * 86_400_000);

    await draw(member, pack, 10, key); // the same request again: its first answer, no new mail
    await draw(member, pack, 1); // 4,200: no level crossed
    expect(await levelMails(member)).toHaveLength(1);

    await draw(member, pack, 10); // 7,700: level 4
    expect((await levelMails(member)).map((m) => m.key)).toEqual(['level-up:2,3', 'level-up:4']);
    expect((await levelMails(member)).at(-1)!.subject).toBe('レベル4に到達しました');

    const level = await getMemberLevel(db, member);
    expect(level).toMatchObject({ exp: 7_700, level: 4, levelExp: 6_000, next: { level: 5, expRequired: 10_000 } });
    expect(level.rewards.map((r) => [r.level, r.coins, r.reached])).toEqual([
      [2, 100, true],
      [3, 200, true],
      [4, 200, true],
      [5, 200, false],
    ]);
  });

  it('mails each level exactly once under concurrent draws of one member (needs PostgreSQL: several connections)', async (ctx) => {
    skipUnlessPostgres(ctx, handle, 'several connections');
    const db = handle.db;
    await syncLevelTable(db, RULES);
    const pack = await createPublishedPack(db, { lots: 500, price: 100 });
    const member = await createMemberWithCoins(db, { paid: 100_000 });
    // 12 draws of 1,000 at once: 12,000 exp, levels 2 to 5.
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, () =>
        drawLots(db, {
          decisionDays: TEST_RULES.prizeDecisionDays,
          memberId: member,
          gachaId: pack,
          count: 10,
          idempotencyKey: randomUUID(),
        }),
      ),
    );
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect((await levelMails(member)).map((m) => m.key)).toEqual([
      'level-up:2',
      'level-up:3',
      'level-up:4',
      'level-up:5',
    ]);
  });
});
