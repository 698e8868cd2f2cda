// The farm from two server instances on one PostgreSQL database (decision 044): every member sends ten
// harvests of each of three ripe plots at once, split over both instances, under a daily cap smaller
// than the three rewards; then twenty friends water one host's farm three times each at once. Each
// planting is rewarded once, each member's day stays within the cap, each friend waters once, and the
// ledger's invariants hold. PostgreSQL only: PGlite is one connection inside one process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestDatabase } from '#tests/database';
import { scaledTimeout } from '#tests/settings';
import { startInstances, STORM_AUTH_SECRET, type ShopCluster } from '#tests/instances';
import { createSessionMembers, type SessionMember } from '#tests/members';
import { openDatabase, queryRows, type DatabaseHandle } from '#db/client';
import { checkInvariants } from '#modules/wallet';
import { FARM_RULES_ID } from '#modules/farm';
import { farmRules } from '#db/schema';
import { decideFriendship, friendCodeOf, requestFriend } from '#modules/friends';

const database = await createTestDatabase('farm-storm');
const onPostgres = database.engine === 'postgres';
if (!onPostgres) await database.drop();
if (!onPostgres)
  console.warn(
    '[storm] the farm storm is skipped: it needs PostgreSQL (TEST_DATABASE_URL or 127.0.0.1:5432); PGlite is one connection in one process, so two server instances cannot share it.',
  );

const MEMBERS = 20;
const HARVESTS_EACH = 10;
const CAP = 5; // three ripe tomatoes promise 9 coins: the cap keeps 5
const FRIEND_RULES = { limit: 50, declinedCooldownDays: 7 };

let cluster: ShopCluster | undefined;
let handle: DatabaseHandle | undefined;
let members: SessionMember[] = [];

const post = async (url: string, member: SessionMember, path: string) => {
  const response = await fetch(`${url}/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${member.bearer}` },
  });
  return { member: member.id, status: response.status, body: (await response.json()) as Record<string, any> };
};

describe(`the farm from two instances${onPostgres ? '' : ' — SKIPPED: needs PostgreSQL'}`, () => {
  beforeAll(async () => {
    if (!onPostgres) return;
    cluster = await startInstances({
      count: 2,
      databaseUrl: database.databaseUrl!,
      dataDir: database.dataDir,
      authSecret: STORM_AUTH_SECRET,
      env: { FRIENDS_LIMIT: '50' },
    });
    handle = await openDatabase({ databaseUrl: database.databaseUrl!, dataDir: database.dataDir, poolSize: 4 });
    members = await createSessionMembers(handle.db, { count: MEMBERS + 1, secret: cluster.authSecret, prefix: 'farm' });
    await handle.db
      .update(farmRules)
      .set({ dailyCoinCap: CAP, friendWaterCoins: 1 })
      .where(eq(farmRules.id, FARM_RULES_ID));
  }, scaledTimeout(180_000));

  afterAll(async () => {
    await cluster?.stop();
    await handle?.close();
    if (onPostgres) await database.drop();
  });

  it.skipIf(!onPostgres)(
    'rewards each ripe planting once and holds the daily cap, whichever instance answers',
    async () => {
      const db = handle!.db;
      const farmers = members.slice(0, MEMBERS);
      // Three tomatoes (3 coins each) ripe a minute ago on plots 1–3 of every farmer.
      for (const member of farmers)
        await db.execute(sql`insert into farm_plots (member_id, plot_no, planting_id, seed_id, reward_coins, planted_at, ready_at)
        select ${member.id}, p, nextval('farm_planting_seq'), 'tomato', 3, now() - interval '241 minutes', now() - interval '1 minute'
          from generate_series(1, 3) p`);
      const requests = farmers.flatMap((member) =>
        [1, 2, 3].flatMap((plotNo) =>
          Array.from({ length: HARVESTS_EACH }, (_, i) => ({ member, plotNo, url: cluster!.urls[(i + plotNo) % 2]! })),
        ),
      );
      const replies = await Promise.all(
        requests.map(({ member, plotNo, url }) => post(url, member, `/me/farm/plots/${plotNo}/harvest`)),
      );
      expect(replies.filter((r) => r.status >= 500)).toEqual([]);
      for (const member of farmers) {
        const own = replies.filter((r) => r.member === member.id);
        expect(
          own.filter((r) => r.status === 200),
          member.id,
        ).toHaveLength(3);
        expect(own.filter((r) => r.status === 409).every((r) => r.body.error.code === 'FARM_NOTHING_TO_HARVEST')).toBe(
          true,
        );
        const granted = own.filter((r) => r.status === 200).reduce((sum, r) => sum + r.body.coins, 0);
        expect(granted, member.id).toBe(CAP);
      }
      const [counts] = await queryRows<{ harvests: number; entries: number; coins: number; days: number }>(
        db,
        sql`select (select count(*)::int from farm_actions where kind = 'harvest') as harvests,
                 (select count(*)::int from coin_ledger where reason = 'farm') as entries,
                 (select coalesce(sum(amount), 0)::int from coin_ledger where reason = 'farm') as coins,
                 (select count(*)::int from farm_days where coins = ${CAP}) as days`,
      );
      expect(counts).toMatchObject({ harvests: MEMBERS * 3, coins: MEMBERS * CAP, days: MEMBERS });
      expect(await checkInvariants(db)).toEqual([]);
    },
  );

  it.skipIf(!onPostgres)("lets each friend water a host's farm once, and the host's cap holds", async () => {
    const db = handle!.db;
    const host = members[MEMBERS]!;
    const friends = members.slice(0, MEMBERS);
    const ids = new Map<string, number>();
    for (const friend of friends) {
      const sent = await requestFriend(db, friend.id, await friendCodeOf(db, host.id), FRIEND_RULES);
      if (!sent.ok) throw new Error(sent.code);
      await decideFriendship(db, host.id, sent.friendshipId, 'accept', FRIEND_RULES);
      ids.set(friend.id, sent.friendshipId);
    }
    const before = await queryRows<{ coins: number }>(
      db,
      sql`select coalesce(sum(amount), 0)::int as coins from coin_ledger where reason = 'farm' and member_id = ${host.id}`,
    );
    const replies = await Promise.all(
      friends.flatMap((friend) =>
        [0, 1, 2].map((i) => post(cluster!.urls[i % 2]!, friend, `/me/friends/${ids.get(friend.id)}/water`)),
      ),
    );
    expect(replies.filter((r) => r.status >= 500)).toEqual([]);
    for (const friend of friends) {
      const own = replies.filter((r) => r.member === friend.id);
      expect(
        own.filter((r) => r.status === 200),
        friend.id,
      ).toHaveLength(1);
      expect(
        own.filter((r) => r.status === 409).every((r) => r.body.error.code === 'FARM_FRIEND_ALREADY_WATERED'),
      ).toBe(true);
    }
    const after = await queryRows<{ coins: number }>(
      db,
      sql`select coalesce(sum(amount), 0)::int as coins from coin_ledger where reason = 'farm' and member_id = ${host.id}`,
    );
    // Twenty waterings of one coin each, and the host's day stops at the cap.
    expect(after[0]!.coins - before[0]!.coins).toBe(CAP);
    expect(await checkInvariants(db)).toEqual([]);
    expect(cluster!.unexpectedExits()).toEqual([]);
  });
});
