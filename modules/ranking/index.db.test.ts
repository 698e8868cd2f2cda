// The ranking boards against a real database: draws folded into Japan-time periods (midnight, Monday,
// month end, year end), ordering and ties, the member's own place also outside the top 100, the previous
// period, a fold counting every draw once (again, and at once on PostgreSQL), and public names only.
import { describe, it, expect, beforeEach, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { and, eq, gte, inArray } from 'drizzle-orm';
import { skipUnlessPostgres, useTestDatabase } from '#tests/use-test-database';
import { createMember, createMemberWithCoins, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { drawLots } from '#modules/draw';
import { syncLevelTable } from '#modules/progression';
import { users, prizes, draws, rankingScores } from '#db/schema';
import { publicNicknames, publicNameOf } from '#modules/identity';
import { boardPeriod, foldRankings, jstPeriod, rankingBoard, RANKING_SIZE } from './index';
import { resetRankingFold } from './testing';

const handle = useTestDatabase('rankings', { poolSize: 4 });

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);
const HOUR = 3_600_000;
/** Draws are dated after the packs' publication (now): the coming Monday 00:00 in Japan. */
const NEXT_MONDAY = jstPeriod('week', new Date()).to;
/** Folds everything drawn so far, whatever the draws' instants. */
const FAR_FUTURE = new Date('2100-01-01T00:00:00Z');
const fold = () => foldRankings(handle.db, { settleSeconds: 0, batchRows: 7 }, FAR_FUTURE);
async function foldAll() {
  let folded = 0;
  for (;;) {
    const step = await fold();
    folded += step.folded;
    if (step.caughtUp) return folded;
  }
}

async function draw(memberId: string, gachaId: string, count: number, now: Date) {
  const outcome = await drawLots(handle.db, {
    decisionDays: TEST_RULES.prizeDecisionDays,
    memberId,
    gachaId,
    count,
    idempotencyKey: randomUUID(),
    now,
  });
  if (!outcome.ok) throw new Error(`draw refused: ${outcome.code}`);
  return outcome.result;
}

beforeEach(() => resetRankingFold(handle.db));
afterAll(() => syncLevelTable(handle.db, { thresholds: [], rewards: [], claimDays: 30 }));

describe('weekly exp', () => {
  it("ranks the Japan week's coins drawn (Monday 00:00 to Sunday 24:00), ties sharing a place", async () => {
    const db = handle.db;
    const pack = await createPublishedPack(db, { lots: 500, price: 100 });
    const [first, second, tied, last, idle] = await Promise.all(
      [1, 2, 3, 4, 5].map(() => createMemberWithCoins(db, { paid: 100_000 })),
    );
    const week = jstPeriod('week', NEXT_MONDAY);
    await draw(first!, pack, 10, at(NEXT_MONDAY, 1)); // 1,000 at the very start of the week
    await draw(first!, pack, 10, at(week.to, -1)); // and 1,000 at its very end
    await draw(first!, pack, 100, at(NEXT_MONDAY, -1)); // the week before: not counted
    await draw(second!, pack, 10, at(NEXT_MONDAY, 30 * HOUR));
    await draw(tied!, pack, 10, at(NEXT_MONDAY, 50 * HOUR));
    await draw(last!, pack, 1, at(NEXT_MONDAY, 70 * HOUR));
    await draw(last!, pack, 100, week.to); // next week: not counted
    expect(await foldAll()).toBe(7);

    const board = await rankingBoard(db, 'exp', week, last!);
    expect(board.entries.map((e) => [e.memberId, e.place, e.score])).toEqual([
      [first, 1, 2000],
      [second, 2, 1000], // reached 1,000 before `tied` did
      [tied, 2, 1000],
      [last, 4, 100],
    ]);
    expect(board.me).toMatchObject({ memberId: last, place: 4, score: 100, hit: null });
    expect((await rankingBoard(db, 'exp', week, idle!)).me).toBeNull();
    expect((await rankingBoard(db, 'exp', week, null)).me).toBeNull();
    // The switch to the previous week shows the draw just before Monday 00:00.
    const previous = await rankingBoard(db, 'exp', boardPeriod('exp', 'previous', at(NEXT_MONDAY, HOUR)), first!);
    expect(previous.entries.map((e) => [e.memberId, e.score])).toEqual([[first, 10_000]]);
    // Folding again finds nothing new: every draw counts once.
    expect(await foldAll()).toBe(0);
    expect((await rankingBoard(db, 'exp', week, first!)).me?.score).toBe(2000);
  });
});

describe('daily goodluck', () => {
  it("scores each member's best prize of the Japan day as value ÷ the price of one draw", async () => {
    const db = handle.db;
    const day = jstPeriod('day', at(NEXT_MONDAY, 24 * HOUR * 3)); // Thursday
    // A 4-lot pack at 200 coins: S (×50), A ×2 (×5), B (×0.5). Drawing all of it is sure to win the S賞.
    const small = await createPublishedPack(db, { lots: 4, price: 200 });
    const big = await createPublishedPack(db, { lots: 300, price: 1000 });
    const [lucky, other, yesterday] = await Promise.all(
      [1, 2, 3].map(() => createMemberWithCoins(db, { paid: 1_000_000 })),
    );
    for (let i = 0; i < 4; i++) await draw(lucky!, small, 1, at(day.from, HOUR + i));
    await draw(other!, big, 10, at(day.from, 2 * HOUR));
    await draw(other!, big, 1, at(day.from, 3 * HOUR));
    await draw(yesterday!, big, 100, at(day.from, -1)); // the day before in Japan (23:59:59.999): not counted
    await foldAll();

    const board = await rankingBoard(db, 'goodluck', day, other!);
    expect(board.entries.map((e) => e.memberId)).not.toContain(yesterday);
    expect(board.entries[0]).toMatchObject({
      memberId: lucky,
      place: 1,
      score: 5000,
      hit: { gachaId: small, tierId: `${small}.S`, conversionValue: 10_000, pricePerDraw: 200 },
    });
    const won = await db
      .select({ value: prizes.conversionValue, cost: draws.cost, count: draws.count })
      .from(prizes)
      .innerJoin(draws, eq(draws.id, prizes.drawId))
      .where(and(eq(prizes.memberId, other!), gte(draws.createdAt, day.from)));
    const best = Math.max(...won.map((p) => Math.floor((p.value * p.count * 100) / p.cost)));
    expect(best).toBeLessThanOrEqual(5000);
    expect(board.me).toMatchObject({ memberId: other, place: best === 5000 ? 1 : 2, score: best });
    expect(board.me!.hit!.pricePerDraw).toBe(1000);
    // Yesterday's board (the switch) has the member who drew just before midnight.
    const before = await rankingBoard(db, 'goodluck', boardPeriod('goodluck', 'previous', day.from), yesterday!);
    expect(before.me?.memberId).toBe(yesterday);
  });
});

describe('monthly level', () => {
  it('counts the levels gained in the Japan month, ties by exp, cut at the Japan month end', async () => {
    const db = handle.db;
    // Level 2 at 1,000 exp, 3 at 3,000, 4 at 6,000, 5 at 10,000.
    await syncLevelTable(db, { thresholds: [1_000, 3_000, 6_000, 10_000], rewards: [], claimDays: 30 });
    const pack = await createPublishedPack(db, { lots: 1_000, price: 100 });
    const [climber, starter, steady] = await Promise.all(
      [1, 2, 3].map(() => createMemberWithCoins(db, { paid: 1_000_000 })),
    );
    // The month of the coming Monday, and the instant the next one starts (its 1st, 00:00 in Japan).
    const month = jstPeriod('month', at(NEXT_MONDAY, 40 * 24 * HOUR));
    const lastInstant = at(month.to, -1); // the month's last day, 23:59:59.999 in Japan
    await draw(climber!, pack, 10, at(month.from, -HOUR)); // the month before: 1,000 exp → level 2 then
    await draw(climber!, pack, 100, at(month.from, HOUR)); // +10,000 → level 5: three levels this month
    await draw(starter!, pack, 10, at(month.from, 2 * HOUR)); // 1,000 → level 2
    await draw(starter!, pack, 10, at(month.from, 3 * HOUR)); // 2,000
    await draw(starter!, pack, 10, lastInstant); // 3,000 → level 3: two levels
    await draw(steady!, pack, 10, at(month.from, 4 * HOUR)); // 1,000 → level 2
    await draw(steady!, pack, 10, at(month.from, 5 * HOUR)); // 2,000
    await draw(steady!, pack, 100, month.to); // the next month's first instant: not this month's
    await foldAll();

    const board = await rankingBoard(db, 'level', month, steady!);
    const mine = board.entries.filter((e) => [climber, starter, steady].includes(e.memberId));
    expect(mine.map((e) => [e.memberId, e.place, e.score, e.tiebreak])).toEqual([
      [climber, 1, 3, 10_000],
      [starter, 2, 2, 3_000],
      [steady, 3, 1, 2_000],
    ]);
    // The next month starts from where steady stood (2,000 exp): 12,000 → level 5, three levels.
    const next = await rankingBoard(db, 'level', jstPeriod('month', month.to), steady!);
    expect(next.me).toMatchObject({ place: 1, score: 3, tiebreak: 10_000 });
    // Folded in small batches (7 draws each) and from scratch again: the same scores.
    await resetRankingFold(db);
    await foldAll();
    expect((await rankingBoard(db, 'level', month, starter!)).me).toMatchObject({ score: 2, tiebreak: 3_000 });
  });
});

describe("the member's own place", () => {
  it('is 1 + the members strictly ahead, also far outside the top 100', async () => {
    const db = handle.db;
    const period = jstPeriod('week', new Date('2030-06-05T00:00:00Z'));
    const me = await createMember(db);
    const reachedAt = period.from;
    const others = Array.from({ length: 150 }, (_, i) => ({
      board: 'exp' as const,
      periodStart: period.start,
      memberId: `other-${i}`,
      score: 10_000 - i * 10, // 10,000 … 8,510
      reachedAt,
    }));
    await db
      .insert(rankingScores)
      .values([
        ...others,
        { board: 'exp', periodStart: period.start, memberId: `tied-${me}`, score: 5_000, reachedAt },
        { board: 'exp', periodStart: period.start, memberId: me, score: 5_000, reachedAt: at(reachedAt, 1) },
      ]);
    const board = await rankingBoard(db, 'exp', period, me);
    expect(board.entries).toHaveLength(RANKING_SIZE);
    expect(board.entries[99]).toMatchObject({ place: 100, score: 9_010 });
    expect(board.me).toMatchObject({ memberId: me, place: 151, score: 5_000 });
  });
});

describe('concurrent folds', () => {
  it('count every draw once when three run at once (needs PostgreSQL: several connections)', async (ctx) => {
    skipUnlessPostgres(ctx, handle, 'several connections');
    const db = handle.db;
    const pack = await createPublishedPack(db, { lots: 200, price: 100 });
    const member = await createMemberWithCoins(db, { paid: 100_000 });
    const week = jstPeriod('week', at(NEXT_MONDAY, 7 * 24 * HOUR));
    for (let i = 0; i < 12; i++) await draw(member, pack, 1, at(week.from, i * 1000));
    await Promise.all([foldAll(), foldAll(), foldAll()]);
    expect((await rankingBoard(db, 'exp', week, member)).me?.score).toBe(1_200);
  });
});

describe('public names', () => {
  it('shows nicknames, never emails, and masks members without one', async () => {
    const db = handle.db;
    const named = await createMember(db, { name: 'ピカ太郎' });
    const emailed = await createMember(db, { name: 'someone@example.jp' });
    const names = await publicNicknames(db, [named, emailed, 'no-such-member']);
    expect(names.get(named)).toBe('ピカ太郎');
    expect(names.get(emailed)).toBe(`会員***${emailed.slice(-3)}`);
    expect(names.get('no-such-member')).toBe('会員***ber');
    const [row] = await db
      .select({ email: users.email })
      .from(users)
      .where(inArray(users.id, [emailed]));
    expect([...names.values()].join()).not.toContain(row!.email);
    expect(publicNameOf({ id: 'abc', name: '  ' })).toBe('会員***abc');
    expect(publicNameOf({ id: 'xyz', name: 'someone＠example.jp' })).toBe('会員***xyz');
  });
});
