// The farm on a controllable clock (decision 044): planting, the watering window, growth with watering,
// withering, harvests with the daily cap counted in Japan-time days while the server runs in UTC, friends'
// watering once a day for both, and parallel harvests that reward once.
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember } from '#tests/fixtures';
import { queryRows } from '#db/client';
import { getBalance, checkInvariants } from '#modules/wallet';
import { requestFriend, decideFriendship, friendCodeOf } from '#modules/friends';
import { farmRules } from './schema';
import {
  clearPlot,
  farmViewOf,
  harvestPlot,
  plantSeed,
  waterFriendFarm,
  waterPlot,
  FARM_RULES_ID,
  type FarmContext,
} from './index';

const handle = useTestDatabase('farm', { poolSize: 8, invariants: 'afterEach' });
const lifetimeDays = { paid: 180, free: 90 };
const MIN = 60_000;
const at = (iso: string): FarmContext => ({ now: new Date(iso), lifetimeDays });
const plus = (context: FarmContext, minutes: number): FarmContext => ({
  now: new Date(context.now.getTime() + minutes * MIN),
  lifetimeDays,
});
const FRIEND_RULES = { limit: 20, declinedCooldownDays: 7 };

async function farmCoins(memberId: string) {
  const [row] = await queryRows<{ coins: string | null }>(
    handle.db,
    sql`select coalesce(sum(amount), 0) as coins from coin_ledger where member_id = ${memberId} and reason = 'farm'`,
  );
  return Number(row!.coins);
}

async function setRules(values: Partial<typeof farmRules.$inferInsert>) {
  await handle.db.update(farmRules).set(values).where(eq(farmRules.id, FARM_RULES_ID));
}

async function friends(a: string, b: string) {
  const sent = await requestFriend(handle.db, a, await friendCodeOf(handle.db, b), FRIEND_RULES);
  if (!sent.ok) throw new Error(sent.code);
  const accepted = await decideFriendship(handle.db, b, sent.friendshipId, 'accept', FRIEND_RULES);
  if (!accepted.ok) throw new Error(accepted.code);
  return sent.friendshipId;
}

describe('the farm on the server clock', () => {
  it('grows a radish in 30 minutes; watering once per 8 hours takes 25 % off the time left', async () => {
    const member = await createMember(handle.db);
    const t0 = at('2026-11-24T03:00:00Z');
    await setRules({ waterSpeedupPercent: 25, waterCooldownMinutes: 480 });
    const planted = await plantSeed(handle.db, member, { plotNo: 1, seedId: 'tomato' }, t0); // 240 minutes
    expect(planted.ok).toBe(true);
    if (!planted.ok) return;
    const plot = () => farmViewOf(handle.db, member, t0.now).then((f) => f.plots[0]!);
    expect((await plot()).readyAt).toBe('2026-11-24T07:00:00.000Z');

    const watered = await waterPlot(handle.db, member, { plotNo: 1 }, plus(t0, 40)); // 200 left → 150
    expect(watered.ok).toBe(true);
    expect((await plot()).readyAt).toBe('2026-11-24T06:10:00.000Z');
    // The window: closed until 8 hours after the watering, whatever the client claims.
    const again = await waterPlot(handle.db, member, { plotNo: 1 }, plus(t0, 41));
    expect(again).toMatchObject({
      ok: false,
      code: 'FARM_WATER_TOO_SOON',
      details: { nextWaterAt: '2026-11-24T11:40:00.000Z' },
    });
    // Not ripe a second early; ripe at the time.
    expect(await harvestPlot(handle.db, member, { plotNo: 1 }, at('2026-11-24T06:09:59Z'))).toMatchObject({
      ok: false,
      code: 'FARM_NOT_RIPE',
    });
    const harvest = await harvestPlot(handle.db, member, { plotNo: 1 }, at('2026-11-24T06:10:00Z'));
    expect(harvest).toMatchObject({ ok: true, coins: 3, cappedCoins: 0 });
    expect(await farmCoins(member)).toBe(3);
    // The plot is empty again; a second harvest of the same crop gives nothing.
    expect(await harvestPlot(handle.db, member, { plotNo: 1 }, at('2026-11-24T06:10:01Z'))).toMatchObject({
      ok: false,
      code: 'FARM_NOTHING_TO_HARVEST',
    });
    expect(await farmCoins(member)).toBe(3);
  });

  it('withers a ripe crop left too long; a withered crop gives nothing and is cleared', async () => {
    const member = await createMember(handle.db);
    await setRules({ witherAfterMinutes: 60 });
    const t0 = at('2026-11-24T00:00:00Z');
    await plantSeed(handle.db, member, { plotNo: 2, seedId: 'radish' }, t0);
    const view = await farmViewOf(handle.db, member, plus(t0, 89).now);
    expect(view.plots[1]).toMatchObject({ state: 'ripe', stage: 3 });
    const late = plus(t0, 90);
    expect((await farmViewOf(handle.db, member, late.now)).plots[1]).toMatchObject({ state: 'withered', stage: 4 });
    expect(await harvestPlot(handle.db, member, { plotNo: 2 }, late)).toMatchObject({
      ok: false,
      code: 'FARM_WITHERED',
    });
    expect(await clearPlot(handle.db, member, { plotNo: 2 }, late)).toMatchObject({ ok: true, coins: 0 });
    expect((await farmViewOf(handle.db, member, late.now)).plots[1]!.state).toBe('empty');
    expect(await farmCoins(member)).toBe(0);
    await setRules({ witherAfterMinutes: 1440 });
  });

  it('holds the daily cap per Japan-time day: 23:59 JST is one day, 00:00 JST the next (the server in UTC)', async () => {
    const member = await createMember(handle.db);
    await setRules({ dailyCoinCap: 4 });
    // Two tomatoes (3 coins each) ripe just before midnight in Japan (14:59 UTC).
    const t0 = at('2026-11-24T10:00:00Z');
    await plantSeed(handle.db, member, { plotNo: 1, seedId: 'tomato' }, t0);
    await plantSeed(handle.db, member, { plotNo: 2, seedId: 'tomato' }, t0);
    await plantSeed(handle.db, member, { plotNo: 3, seedId: 'tomato' }, t0);
    const beforeMidnight = at('2026-11-24T14:59:59Z'); // 23:59:59 JST
    expect(await harvestPlot(handle.db, member, { plotNo: 1 }, beforeMidnight)).toMatchObject({
      coins: 3,
      cappedCoins: 0,
    });
    const capped = await harvestPlot(handle.db, member, { plotNo: 2 }, beforeMidnight);
    expect(capped).toMatchObject({ ok: true, coins: 1, cappedCoins: 2 });
    if (capped.ok) expect(capped.farm.today).toMatchObject({ coins: 4, cap: 4, harvests: 2 });
    // A new day in Japan: the cap opens again.
    const afterMidnight = at('2026-11-24T15:00:00Z');
    const nextDay = await harvestPlot(handle.db, member, { plotNo: 3 }, afterMidnight);
    expect(nextDay).toMatchObject({ ok: true, coins: 3 });
    if (nextDay.ok) expect(nextDay.farm).toMatchObject({ day: '2026-11-25', streak: 2, today: { coins: 3 } });
    expect(await farmCoins(member)).toBe(7);
    await setRules({ dailyCoinCap: 30 });
  });

  it('opens plots by level and refuses a locked plot, an unknown seed and a taken plot', async () => {
    const member = await createMember(handle.db);
    const t0 = at('2026-11-24T03:00:00Z');
    const view = await farmViewOf(handle.db, member, t0.now);
    expect(view.plots.map((p) => p.state)).toEqual([
      'empty',
      'empty',
      'empty',
      'empty',
      'locked',
      'locked',
      'locked',
      'locked',
    ]);
    expect(view.plots[4]!.unlockLevel).toBe(5);
    expect(await plantSeed(handle.db, member, { plotNo: 5, seedId: 'radish' }, t0)).toMatchObject({
      code: 'FARM_PLOT_LOCKED',
    });
    expect(await plantSeed(handle.db, member, { plotNo: 1, seedId: 'nope' }, t0)).toMatchObject({
      code: 'FARM_SEED_UNKNOWN',
    });
    expect(await plantSeed(handle.db, member, { plotNo: 1, seedId: 'pumpkin' }, t0)).toMatchObject({
      code: 'FARM_SEED_LOCKED',
      details: { unlockLevel: 10 },
    });
    expect((await plantSeed(handle.db, member, { plotNo: 1, seedId: 'radish' }, t0)).ok).toBe(true);
    expect(await plantSeed(handle.db, member, { plotNo: 1, seedId: 'carrot' }, t0)).toMatchObject({
      code: 'FARM_PLOT_NOT_EMPTY',
    });
    expect(await waterPlot(handle.db, member, { plotNo: 2 }, t0)).toMatchObject({ code: 'FARM_NOTHING_TO_WATER' });
  });

  it('refuses everything while paused, and staff', async () => {
    const member = await createMember(handle.db);
    const staff = await createMember(handle.db, { role: 'admin' });
    const t0 = at('2026-11-24T03:00:00Z');
    await setRules({ paused: true });
    expect(await plantSeed(handle.db, member, { plotNo: 1, seedId: 'radish' }, t0)).toMatchObject({
      code: 'FARM_PAUSED',
    });
    expect((await farmViewOf(handle.db, member, t0.now)).paused).toBe(true);
    await setRules({ paused: false });
    expect(await plantSeed(handle.db, staff, { plotNo: 1, seedId: 'radish' }, t0)).toMatchObject({
      code: 'FARM_NOT_AVAILABLE',
    });
  });

  it("waters a friend's farm once per Japan-time day: both rewarded once, the friend's crop brought forward", async () => {
    const [alice, bob, carol] = [
      await createMember(handle.db),
      await createMember(handle.db),
      await createMember(handle.db),
    ];
    const friendship = await friends(alice, bob);
    const t0 = at('2026-11-24T01:00:00Z'); // 10:00 JST
    await plantSeed(handle.db, bob, { plotNo: 1, seedId: 'carrot' }, t0); // ready 03:00Z
    const watered = await waterFriendFarm(handle.db, alice, { friendshipId: friendship }, plus(t0, 20));
    expect(watered).toMatchObject({ ok: true, coins: 1, friendCoins: 1 });
    expect((await farmViewOf(handle.db, bob, t0.now)).plots[0]!.readyAt).toBe('2026-11-24T02:35:00.000Z');
    expect(await waterFriendFarm(handle.db, alice, { friendshipId: friendship }, plus(t0, 600))).toMatchObject({
      code: 'FARM_FRIEND_ALREADY_WATERED',
    });
    // Bob may water Alice's farm the same day: it is his own once.
    expect(await waterFriendFarm(handle.db, bob, { friendshipId: friendship }, plus(t0, 30))).toMatchObject({
      ok: true,
    });
    // Midnight in Japan (15:00 UTC): again.
    expect(
      await waterFriendFarm(handle.db, alice, { friendshipId: friendship }, at('2026-11-24T15:00:00Z')),
    ).toMatchObject({
      ok: true,
    });
    expect(await farmCoins(alice)).toBe(3);
    expect(await farmCoins(bob)).toBe(3);
    // Not a friendship of Carol's: the same answer as an unknown id (no probing).
    expect(await waterFriendFarm(handle.db, carol, { friendshipId: friendship }, t0)).toMatchObject({
      code: 'FARM_NOT_FRIENDS',
    });
    expect(await waterFriendFarm(handle.db, carol, { friendshipId: 987_654 }, t0)).toMatchObject({
      code: 'FARM_NOT_FRIENDS',
    });
    // Removed friends cannot water.
    await decideFriendship(handle.db, bob, friendship, 'remove', FRIEND_RULES);
    expect(
      await waterFriendFarm(handle.db, alice, { friendshipId: friendship }, at('2026-11-25T15:00:00Z')),
    ).toMatchObject({ code: 'FARM_NOT_FRIENDS' });
  });

  it('rewards a harvest once when ten arrive at once, and keeps the cap under parallel friends’ waterings', async () => {
    const member = await createMember(handle.db);
    const t0 = at('2026-11-24T03:00:00Z');
    await plantSeed(handle.db, member, { plotNo: 1, seedId: 'radish' }, t0);
    const ripe = plus(t0, 30);
    const harvests = await Promise.all(
      Array.from({ length: 10 }, () => harvestPlot(handle.db, member, { plotNo: 1 }, ripe)),
    );
    expect(harvests.filter((h) => h.ok)).toHaveLength(1);
    expect(await farmCoins(member)).toBe(1);

    // Eight friends water the same member at once with a cap of 5: the member gets exactly 5.
    await setRules({ dailyCoinCap: 5 });
    const host = await createMember(handle.db);
    const visitors = await Promise.all(Array.from({ length: 8 }, () => createMember(handle.db)));
    const ids: number[] = [];
    for (const v of visitors) ids.push(await friends(v, host));
    const day = plus(t0, 60);
    const results = await Promise.all(
      visitors.map((v, i) => waterFriendFarm(handle.db, v, { friendshipId: ids[i]! }, day)),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(await farmCoins(host)).toBe(5);
    const [dayRow] = await queryRows<{ coins: number }>(
      handle.db,
      sql`select coins from farm_days where member_id = ${host} and jst_day = '2026-11-24'`,
    );
    expect(dayRow!.coins).toBe(5);
    expect((await getBalance(handle.db, host)).free).toBe(5);
    await setRules({ dailyCoinCap: 30 });
    expect(await checkInvariants(handle.db)).toEqual([]);
    // Each reward is its own ledger entry, named by what it paid for.
    const entries = await queryRows<{ n: string }>(
      handle.db,
      sql`select count(*) as n from coin_ledger where member_id = ${host} and reason = 'farm'`,
    );
    expect(Number(entries[0]!.n)).toBeGreaterThanOrEqual(5);
  });
});
