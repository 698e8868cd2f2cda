// A property test of the farm (decision 044): any sequence of intentions (plant, water, harvest, clear,
// water a friend's farm), repeated or out of place, at any times (the clock jumps forward by seconds to a
// day and a half, across Japan-time midnights), by three friends with a small cap and random rules, never
// grants a member more farm coins in one Japan-time day than the cap, rewards each planting at most once,
// and keeps the books: every farm coin is a ledger entry of its own, the day rows add up to the ledger,
// and the wallet's invariants hold.
//
// Runs: TEST_PROPERTY_SCALE (tests/support/settings.ts); FC_SEED replays a failure.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { eq, sql } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { propertyRuns, scaledTimeout, testSettings } from '#tests/settings';
import { createMember } from '#tests/fixtures';
import { queryRows } from '#db/client';
import { checkInvariants } from '#modules/wallet';
import { decideFriendship, friendCodeOf, requestFriend } from '#modules/friends';
import { farmRules } from './schema';
import { FARM_RULES_ID, clearPlot, farmDayOf, harvestPlot, plantSeed, waterFriendFarm, waterPlot } from './index';

const handle = useTestDatabase('farm_props');
const lifetimeDays = { paid: 180, free: 90 };
const SEEDS = ['radish', 'carrot', 'tomato', 'corn'];
const FRIEND_RULES = { limit: 10, declinedCooldownDays: 7 };

type Step =
  | { kind: 'wait'; seconds: number }
  | { kind: 'plant'; who: number; plot: number; seed: number }
  | { kind: 'water' | 'harvest' | 'clear'; who: number; plot: number }
  | { kind: 'friend'; who: number; other: number };

const who = fc.integer({ min: 0, max: 2 });
const plot = fc.integer({ min: 1, max: 5 }); // plot 5 is locked at level 1: refused, never a reward
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('wait' as const), seconds: fc.integer({ min: 1, max: 36 * 3600 }) }),
  fc.record({ kind: fc.constant('plant' as const), who, plot, seed: fc.integer({ min: 0, max: SEEDS.length - 1 }) }),
  fc.record({ kind: fc.constantFrom('water' as const, 'harvest' as const, 'clear' as const), who, plot }),
  fc.record({ kind: fc.constant('friend' as const), who, other: who }),
);

describe('the farm under any sequence of intentions', () => {
  it(
    'never grants more than the daily cap, rewards a planting once, and keeps the books',
    async () => {
      const db = handle.db;
      await fc.assert(
        fc.asyncProperty(
          fc.array(step, { minLength: 5, maxLength: 40 }),
          fc.record({
            cap: fc.integer({ min: 0, max: 8 }),
            friendCoins: fc.integer({ min: 0, max: 3 }),
            speedup: fc.integer({ min: 0, max: 90 }),
            wither: fc.integer({ min: 60, max: 3000 }),
            start: fc.integer({ min: 0, max: 48 * 3600 }),
          }),
          async (steps, rules) => {
            await db
              .update(farmRules)
              .set({
                dailyCoinCap: rules.cap,
                friendWaterCoins: rules.friendCoins,
                waterSpeedupPercent: rules.speedup,
                witherAfterMinutes: rules.wither,
              })
              .where(eq(farmRules.id, FARM_RULES_ID));
            const members = [await createMember(db), await createMember(db), await createMember(db)];
            const friendships = new Map<string, number>();
            for (const [a, b] of [
              [0, 1],
              [1, 2],
              [0, 2],
            ] as const) {
              const sent = await requestFriend(db, members[a]!, await friendCodeOf(db, members[b]!), FRIEND_RULES);
              if (!sent.ok) throw new Error(sent.code);
              await decideFriendship(db, members[b]!, sent.friendshipId, 'accept', FRIEND_RULES);
              friendships.set(`${a}-${b}`, sent.friendshipId).set(`${b}-${a}`, sent.friendshipId);
            }
            let now = Date.parse('2026-11-24T00:00:00Z') + rules.start * 1000;
            for (const s of steps) {
              const context = { now: new Date(now), lifetimeDays };
              if (s.kind === 'wait') now += s.seconds * 1000;
              else if (s.kind === 'plant')
                await plantSeed(db, members[s.who]!, { plotNo: s.plot, seedId: SEEDS[s.seed]! }, context);
              else if (s.kind === 'water') await waterPlot(db, members[s.who]!, { plotNo: s.plot }, context);
              else if (s.kind === 'harvest') await harvestPlot(db, members[s.who]!, { plotNo: s.plot }, context);
              else if (s.kind === 'clear') await clearPlot(db, members[s.who]!, { plotNo: s.plot }, context);
              else if ('other' in s) {
                const friendshipId = friendships.get(`${s.who}-${s.other}`) ?? 987_654_321; // oneself: not a friend
                await waterFriendFarm(db, members[s.who]!, { friendshipId }, context);
              }
            }

            const ids = sql.join(
              members.map((m) => sql`${m}`),
              sql`, `,
            );
            // The ledger's farm coins per member and Japan-time day (the grant's own time is the action's).
            const ledger = await queryRows<{ member_id: string; created_at: Date | string; amount: number }>(
              db,
              sql`select member_id, created_at, amount from coin_ledger where reason = 'farm' and member_id in (${ids})`,
            );
            const byDay = new Map<string, number>();
            for (const entry of ledger) {
              expect(entry.amount).toBeGreaterThan(0);
              const key = `${entry.member_id} ${farmDayOf(new Date(entry.created_at))}`;
              byDay.set(key, (byDay.get(key) ?? 0) + Number(entry.amount));
            }
            for (const total of byDay.values()) expect(total).toBeLessThanOrEqual(rules.cap);
            const days = await queryRows<{ member_id: string; jst_day: string; coins: number }>(
              db,
              sql`select member_id, jst_day::text as jst_day, coins from farm_days where member_id in (${ids})`,
            );
            for (const day of days) expect(day.coins).toBe(byDay.get(`${day.member_id} ${day.jst_day}`) ?? 0);
            expect([...byDay.keys()].every((key) => days.some((d) => `${d.member_id} ${d.jst_day}` === key))).toBe(
              true,
            );
            // Each planting rewarded (or cleared) at most once; each grant key once.
            const [twice] = await queryRows<{ n: string }>(
              db,
              sql`select count(*) as n from (select planting_id from farm_actions where kind in ('harvest', 'clear')
                 and member_id in (${ids}) group by planting_id having count(*) > 1) d`,
            );
            expect(Number(twice!.n)).toBe(0);
            expect(await checkInvariants(db)).toEqual([]);
          },
        ),
        { numRuns: propertyRuns(40), seed: testSettings.propertySeed },
      );
    },
    scaledTimeout(600_000),
  );
});
