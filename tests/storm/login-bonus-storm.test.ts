// The login bonus from two server instances on one PostgreSQL database (decision 033): every member
// sends ten claims at once, split over both instances; each member is credited exactly once (one 200,
// nine Japanese 409s), one claim row and one ledger entry each, and the ledger's invariants hold.
// PostgreSQL only: PGlite is one connection inside one process, so two instances cannot share it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestDatabase } from '#tests/database';
import { scaledTimeout } from '#tests/settings';
import { startInstances, STORM_AUTH_SECRET, type ShopCluster } from '#tests/instances';
import { createSessionMembers, type SessionMember } from '#tests/members';
import { openDatabase, queryRows, type DatabaseHandle } from '#db/client';
import { checkInvariants } from '#modules/wallet';

const database = await createTestDatabase('bonus-storm');
const onPostgres = database.engine === 'postgres';
if (!onPostgres) await database.drop();
if (!onPostgres)
  console.warn(
    '[storm] the login bonus storm is skipped: it needs PostgreSQL (TEST_DATABASE_URL or 127.0.0.1:5432); PGlite is one connection in one process, so two server instances cannot share it.',
  );

const MEMBERS = 20;
const CLAIMS_EACH = 10;

let cluster: ShopCluster | undefined;
let handle: DatabaseHandle | undefined;
let members: SessionMember[] = [];

describe(`the login bonus from two instances${onPostgres ? '' : ' — SKIPPED: needs PostgreSQL'}`, () => {
  beforeAll(async () => {
    if (!onPostgres) return;
    cluster = await startInstances({
      count: 2,
      databaseUrl: database.databaseUrl!,
      dataDir: database.dataDir,
      authSecret: STORM_AUTH_SECRET,
      env: { LOGIN_BONUS_STREAK_COINS: '7,70' },
    });
    handle = await openDatabase({ databaseUrl: database.databaseUrl!, dataDir: database.dataDir, poolSize: 2 });
    members = await createSessionMembers(handle.db, { count: MEMBERS, secret: cluster.authSecret, prefix: 'bonus' });
  }, scaledTimeout(180_000));

  afterAll(async () => {
    await cluster?.stop();
    await handle?.close();
    if (onPostgres) await database.drop();
  });

  it.skipIf(!onPostgres)('credits each member once, whichever instance answers', async () => {
    const claims = members.flatMap((member) =>
      Array.from({ length: CLAIMS_EACH }, (_, i) => ({ member, url: cluster!.urls[i % 2]! })),
    );
    const replies = await Promise.all(
      claims.map(async ({ member, url }) => {
        const response = await fetch(`${url}/api/v1/me/login-bonus`, {
          method: 'POST',
          headers: { authorization: `Bearer ${member.bearer}` },
        });
        return { member: member.id, status: response.status, body: (await response.json()) as Record<string, any> };
      }),
    );
    for (const member of members) {
      const own = replies.filter((r) => r.member === member.id);
      expect(own.map((r) => r.status).sort(), member.id).toEqual([200, ...Array(CLAIMS_EACH - 1).fill(409)]);
      expect(own.find((r) => r.status === 200)!.body).toMatchObject({ streakDay: 1, coins: 7 });
      for (const refused of own.filter((r) => r.status === 409))
        expect(refused.body.error).toMatchObject({
          code: 'LOGIN_BONUS_ALREADY_CLAIMED',
          message: expect.stringMatching(/^本日のログインボーナスは受け取り済みです。次回は/),
        });
    }
    const [counts] = await queryRows<{ claims: number; entries: number; coins: number }>(
      handle!.db,
      sql`select (select count(*)::int from login_bonus_claims) as claims,
                 (select count(*)::int from coin_ledger where reason = 'login_bonus') as entries,
                 (select coalesce(sum(amount), 0)::int from coin_ledger where reason = 'login_bonus') as coins`,
    );
    expect(counts).toEqual({ claims: MEMBERS, entries: MEMBERS, coins: MEMBERS * 7 });
    expect(await checkInvariants(handle!.db)).toEqual([]);
    expect(cluster!.unexpectedExits()).toEqual([]);
  });
});
