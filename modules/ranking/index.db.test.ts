// The ranking read models against a real database: Japan-time day and week boundaries, ordering and
// ties, the member's own place, the luck score (value ÷ price of one draw), and public names only.
// The periods on their own are in rankings.test.ts.
import { describe, it, expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember, createMemberWithCoins, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { drawLots, jstPeriod, weeklyExpRanking, dailyLuckRanking } from './index';
import { users, prizes, draws } from '#db/schema';
import { publicNicknames, publicNameOf } from '#modules/identity';

const handle = useTestDatabase('rankings');

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);
const HOUR = 3_600_000;
/** Draws are dated after the packs' publication (now): the coming Monday 00:00 in Japan. */
const NEXT_MONDAY = jstPeriod('week', new Date()).to;

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

describe('weeklyExpRanking', () => {
  it("ranks the week's coins drawn, ties sharing a place, with the member's own line", async () => {
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

    const board = await weeklyExpRanking(db, week, last!);
    const mine = board.entries.filter((e) => [first, second, tied, last].includes(e.memberId));
    expect(mine.map((e) => [e.memberId, e.place, e.score])).toEqual([
      [first, 1, 2000],
      [second, 2, 1000], // reached 1,000 before `tied` did
      [tied, 2, 1000],
      [last, 4, 100],
    ]);
    expect(board.me).toMatchObject({ memberId: last, place: 4, score: 100, hit: null });
    expect((await weeklyExpRanking(db, week, idle!)).me).toBeNull();
    expect((await weeklyExpRanking(db, week, null)).me).toBeNull();
  });
});

describe('dailyLuckRanking', () => {
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
    await draw(yesterday!, big, 100, at(day.from, -1)); // the day before in Japan: not counted

    const board = await dailyLuckRanking(db, day, other!);
    expect(board.entries.map((e) => e.memberId)).not.toContain(yesterday);
    expect(board.entries[0]).toMatchObject({
      memberId: lucky,
      place: 1,
      score: 5000,
      hit: { gachaId: small, tierId: `${small}.S`, conversionValue: 10_000, pricePerDraw: 200 },
    });

    // The other member's score, worked out here from the prizes themselves.
    const won = await db
      .select({ value: prizes.conversionValue, cost: draws.cost, count: draws.count })
      .from(prizes)
      .innerJoin(draws, eq(draws.id, prizes.drawId))
      .where(eq(prizes.memberId, other!));
    const best = Math.max(...won.map((p) => Math.floor((p.value * p.count * 100) / p.cost)));
    // The big pack's S賞 also scores 5,000 (×50 of 1,000): a tie shares first place, anything less is second.
    expect(best).toBeLessThanOrEqual(5000);
    expect(board.me).toMatchObject({ memberId: other, place: best === 5000 ? 1 : 2, score: best });
    expect(board.me!.hit!.pricePerDraw).toBe(1000);
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
