// The draw under a storm, over HTTP, from two server instances on one PostgreSQL database
// (docs/architecture.md, Tests: "a sell-out storm with more requests than lots, from two server
// instances, then every invariant"). Three scenes:
//   1. 12,000 requests for a 10,000-lot pack with a ラストワン賞 and five キリ番賞 (decision 027): exactly
//      10,000 lots go, once each; each キリ番 has exactly one winner, the draw that took that lot of the
//      sale (the reveal's log verifies it).
//   2. one Idempotency-Key sent 20 times at once across both instances: one draw, one debit; the pack's
//      キリ番 (100 and 499) are never reached, and nobody wins them.
//   3. a second storm (3,000 requests, 2,500 lots) during which one instance is SIGKILLed and
//      restarted, and some clients hang up right after sending; every request left without an
//      answer is retried with its key and gets the first attempt's result where that committed.
// The instances serve as the shop's database role and migrate as the owner (npm run db:roles, decision
// 051), as a shop in production does: the money core holds with only the rights the allow-list gives.
// PostgreSQL only: PGlite is one connection inside one process, so two instances cannot share it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestDatabase } from '#tests/database';
import { scaledTimeout } from '#tests/settings';
import { startInstances, STORM_AUTH_SECRET, type ShopCluster } from '#tests/instances';
import { withShopRoles, type TestDatabaseRoles } from '#tests/database-roles';
import { createSessionMembers, type SessionMember } from '#tests/members';
import {
  coinBook as coinBookOf,
  drawRows as drawRowsOf,
  packState as packStateOf,
  SELL_OUT_REFUSALS,
} from '#tests/draw-book';
import { publishLoadPack } from '#tests/fixtures';
import {
  createDrawClient,
  runBounded,
  seededRandom,
  tally,
  type DrawCall,
  type DrawClient,
  type DrawReply,
} from '../../bench/draw/client';
import { openDatabase, queryRows, type DatabaseHandle } from '#db/client';
import { checkInvariants } from '#modules/wallet';
import { getPackReveal } from '#modules/draw';
import { verifyReveal } from '#modules/fairness';

const database = await createTestDatabase('storm');
const onPostgres = database.engine === 'postgres';
const skipped = onPostgres
  ? ''
  : ' — SKIPPED: needs PostgreSQL (TEST_DATABASE_URL or 127.0.0.1:5432); PGlite is one connection in one process, so two server instances cannot share it';
// Nothing runs on PGlite (and a suite whose tests are all skipped runs no hooks): drop its folder now.
if (!onPostgres) await database.drop();
if (!onPostgres)
  console.warn(
    `[storm] the draw storm tests are skipped: they need PostgreSQL (TEST_DATABASE_URL or 127.0.0.1:5432; none answered, or TEST_DATABASE=pglite); PGlite is one connection in one process, so two server instances cannot share it.`,
  );

const PRICE = 100;
const MEMBERS = 200;
const IN_FLIGHT = 96;

let cluster: ShopCluster | undefined;
let roles: TestDatabaseRoles | undefined;
let handle: DatabaseHandle | undefined;
let client: DrawClient | undefined;
let members: SessionMember[] = [];

const rows = <T>(query: ReturnType<typeof sql>): Promise<T[]> => queryRows<T>(handle!.db, query);
const one = async <T>(query: ReturnType<typeof sql>): Promise<T> => (await rows<T>(query))[0]!;

/** A published pack of `lots` lots in tiers S/A/B/C plus a ラストワン賞 (cards of its own), draws of 1 or 10. */
const publishStormPack = (id: string, lots: number, kiribanAt?: number[]) =>
  publishLoadPack(handle!.db, { id, lots, price: PRICE, name: `ストーム ${id} `, kiribanAt });

/** キリ番 prizes of a pack: which number each went to (draw, member), from the database. */
const kiribanPrizes = (gachaId: string) =>
  rows<{ kiriban_no: number; draw_id: string; member_id: string }>(
    sql`select kiriban_no, draw_id, member_id from prizes where gacha_id = ${gachaId} and kiriban_no is not null
         order by kiriban_no`,
  );

/** Each tier's quantity beside its stock card's counters (decision 023: the draw moves no stock). */
const tierStock = (gachaId: string) =>
  rows<{ quantity: number; on_hand: number; reserved: number }>(
    sql`select t.quantity, s.on_hand, s.reserved from gacha_tiers t join stock_cards s on s.id = t.stock_card_id
         where t.gacha_id = ${gachaId} order by t.id`,
  );

/** `n` requests: 90 % one lot, 10 % ten lots, members and instances taken in turn. */
function stormCalls(gachaId: string, n: number, seed: number, keyPrefix: string): DrawCall[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => {
    const member = members[i % members.length]!;
    return {
      instance: i % 2,
      gachaId,
      count: random() < 0.1 ? 10 : 1,
      key: `${keyPrefix}-${i}`,
      memberId: member.id,
      bearer: member.bearer,
    };
  });
}

/** Both instances' exits nobody asked for, and the end of their logs, for failure messages. */
const serverStory = () =>
  `unexpected exits: ${JSON.stringify(cluster!.unexpectedExits())}\n` +
  cluster!.instances.map((i) => `--- instance ${i.index} log ---\n${cluster!.logTail(i.index, 25)}`).join('\n');

const describeReply = (call: DrawCall, reply: DrawReply) =>
  `${call.key} → instance ${call.instance}: ${reply.status} ${reply.error ?? JSON.stringify(reply.body).slice(0, 300)}`;

const drawRows = (keys: string[]) => drawRowsOf(handle!.db, keys);
const coinBook = () => coinBookOf(handle!.db);
const packState = (gachaId: string) => packStateOf(handle!.db, gachaId);

/** Waits until no other session on this database is running a statement (orphans of a killed instance included). */
async function settleDatabase(timeoutMs = scaledTimeout(30_000)) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { active } = await one<{ active: string }>(
      sql`select count(*) as active from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state = 'active'`,
    );
    if (Number(active) === 0 || Date.now() > deadline) return Number(active);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every answer is a 201 draw or a sell-out refusal, and each 201 matches its row in the database. */
async function expectStormAnswers(calls: DrawCall[], replies: DrawReply[]) {
  const bad = replies.flatMap((reply, i) => {
    if (reply.status === 201) return [];
    if (reply.status === 409 && SELL_OUT_REFUSALS.has(reply.body?.error?.code ?? '')) return [];
    return [describeReply(calls[i]!, reply)];
  });
  expect(bad.slice(0, 10), `${bad.length} answers were neither 201 nor a sell-out refusal`).toEqual([]);
  const byKey = await drawRows(calls.map((c) => c.key));
  const mismatched = replies.flatMap((reply, i) => {
    if (reply.status !== 201) return [];
    const call = calls[i]!;
    const row = byKey.get(`${call.memberId} ${call.key}`);
    const body = reply.body!;
    const items = body.items ?? [];
    const ok =
      row &&
      row.id === body.id &&
      row.status === 'completed' &&
      body.count === call.count &&
      body.cost === call.count * PRICE &&
      items.length === call.count + (body.lastOne ? 1 : 0) + (body.kiriban?.length ?? 0) &&
      items.filter((item) => item.kiriban != null).length === (body.kiriban?.length ?? 0) &&
      body.replay === false;
    return ok ? [] : [`${describeReply(call, reply)} vs row ${JSON.stringify(row)}`];
  });
  expect(mismatched.slice(0, 10), `${mismatched.length} draws do not match the database`).toEqual([]);
}

describe(`draw storm over HTTP, two server instances${skipped}`, () => {
  beforeAll(async () => {
    if (!onPostgres) return;
    roles = await withShopRoles(database.databaseUrl!, 'storm');
    cluster = await startInstances({
      count: 2,
      databaseUrl: roles.shopUrl,
      migrationUrl: roles.ownerUrl,
      dataDir: database.dataDir,
      authSecret: STORM_AUTH_SECRET,
    });
    handle = await openDatabase({ databaseUrl: database.databaseUrl!, dataDir: database.dataDir, poolSize: 4 });
    members = await createSessionMembers(handle.db, {
      count: MEMBERS,
      secret: cluster.authSecret,
      paid: 100_000,
      free: 20_000,
      prefix: 'storm',
    });
    client = createDrawClient(cluster.urls, { maxSockets: IN_FLIGHT });
  }, scaledTimeout(180_000));

  afterAll(async () => {
    client?.close();
    await cluster?.stop();
    await handle?.close();
    if (onPostgres) await database.drop();
    await roles?.drop();
  });

  it.skipIf(!onPostgres)(
    `12,000 requests sell out a 10,000-lot pack exactly, coins conserved to the coin, one ラストワン賞${skipped}`,
    async () => {
      const gachaId = 'storm-sellout';
      // The first lot, round numbers, one in the thick of the storm and one where the sequence runs out.
      const kiribanAt = [1, 100, 1000, 5000, 9990];
      await publishStormPack(gachaId, 10_000, kiribanAt);
      const calls = stormCalls(gachaId, 12_000, 20261121, 'sellout');
      const before = await coinBook();
      const started = performance.now();
      const replies = await runBounded(calls, IN_FLIGHT, (call) => client!.post(call));
      const seconds = (performance.now() - started) / 1000;
      console.log(`[storm] sell-out: ${calls.length} requests in ${seconds.toFixed(1)} s`, tally(replies));
      // The instances served as the shop role (not a superuser, not the owner).
      const served = await rows<{ usename: string; superuser: boolean }>(
        sql`select distinct a.usename, r.rolsuper as superuser from pg_stat_activity a join pg_roles r on r.oid = a.usesysid
             where a.datname = current_database() and a.pid <> pg_backend_pid()`,
      );
      expect(served).toContainEqual({ usename: roles!.roles.shop, superuser: false });
      expect(served.filter((s) => s.usename !== roles!.roles.shop && s.usename !== roles!.roles.owner)).toEqual(
        served.filter((s) => s.superuser),
      );

      const serverErrors = replies.flatMap((r, i) =>
        r.status >= 500 || r.status === 0 ? [describeReply(calls[i]!, r)] : [],
      );
      expect(
        serverErrors.slice(0, 10),
        `${serverErrors.length} requests got a 5xx or no answer\n${serverStory()}`,
      ).toEqual([]);
      expect(cluster!.unexpectedExits(), serverStory()).toEqual([]);
      await expectStormAnswers(calls, replies);

      const { draws } = await one<{ draws: string }>(
        sql`select count(*) as draws from draws where gacha_id = ${gachaId}`,
      );
      expect(Number(draws), 'one draws row per request (completed or refused)').toBe(calls.length);
      const pack = await packState(gachaId);
      expect(pack).toEqual({
        claimed: 10_000,
        distinctClaimed: 10_000,
        total: 10_000,
        prizes: 10_000,
        distinctPrizePositions: 10_000,
        status: 'sold_out',
        lastOnePrizes: 1,
        lastOneDraws: 1,
      });
      const drawn = replies.filter((r) => r.status === 201);
      expect(drawn.reduce((sum, r) => sum + (r.body!.count ?? 0), 0)).toBe(10_000);
      expect(drawn.filter((r) => r.body!.lastOne)).toHaveLength(1);
      expect(drawn.flatMap((r) => r.body!.items ?? []).filter((item) => item.isLastOne)).toHaveLength(1);

      const after = await coinBook();
      expect(after.credited).toBe(MEMBERS * 120_000);
      expect(after.credited).toBe(before.credited);
      expect(after.drawDebits - before.drawDebits).toBe(10_000 * PRICE);
      expect(after.wallets + after.debited).toBe(after.credited);
      expect(after.drawCosts).toBe(after.drawDebits);
      // Sold out, nothing converted or shipped: every card is still on the shelf, promised to its winner.
      const stock = await tierStock(gachaId);
      expect(stock).toHaveLength(6);
      for (const tier of stock) expect([tier.on_hand, tier.reserved]).toEqual([tier.quantity, tier.quantity]);

      // キリ番賞: exactly one winner per number, answered to that draw's request and no other.
      const awards = await kiribanPrizes(gachaId);
      expect(awards.map((a) => a.kiriban_no)).toEqual(kiribanAt);
      const answered = drawn.flatMap((r) => (r.body!.kiriban ?? []).map((k) => [k, r.body!.id] as const));
      expect(answered.sort(([a], [b]) => a - b)).toEqual(awards.map((a) => [a.kiriban_no, a.draw_id]));
      expect(
        drawn.flatMap((r) => r.body!.items ?? []).filter((item) => item.kiriban != null),
        'one キリ番賞 item per number in the answers',
      ).toHaveLength(kiribanAt.length);
      // …and it is the draw that took that lot of the sale: the published log says so.
      const reveal = await getPackReveal(handle!.db, gachaId);
      const verification = verifyReveal(reveal!);
      expect(verification.checks.filter((c) => !c.ok)).toEqual([]);
      expect(verification.stats?.kiribanReached).toBe(kiribanAt.length);
      console.log(
        `[storm] キリ番: ${awards.length} awarded once each; ${verification.stats?.drawsOutOfOrder} draws out of position order`,
      );
      expect(await checkInvariants(handle!.db)).toEqual([]);
    },
    scaledTimeout(240_000),
  );

  it.skipIf(!onPostgres)(
    `one Idempotency-Key sent 20 times at once across both instances: one draw, one debit, one answer${skipped}`,
    async () => {
      expect(cluster!.unexpectedExits(), serverStory()).toEqual([]);
      const gachaId = 'storm-duplicates';
      await publishStormPack(gachaId, 500, [100, 499]);
      const [member] = await createSessionMembers(handle!.db, {
        count: 1,
        secret: cluster!.authSecret,
        paid: 5_000,
        prefix: 'dup',
      });
      const call = (i: number): DrawCall => ({
        instance: i % 2,
        gachaId,
        count: 10,
        key: 'same-key-20-times',
        memberId: member!.id,
        bearer: member!.bearer,
      });
      const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => client!.post(call(i))));

      expect(
        replies.flatMap((r, i) => (r.status === 200 || r.status === 201 ? [] : [describeReply(call(i), r)])),
      ).toEqual([]);
      expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
      expect(replies.filter((r) => r.body?.replay === false)).toHaveLength(1);
      const ids = new Set(replies.map((r) => r.body?.id));
      expect(ids.size).toBe(1);
      const positions = new Set(replies.map((r) => JSON.stringify((r.body?.items ?? []).map((item) => item.position))));
      expect(positions.size).toBe(1);

      const draws = await rows<{ id: string }>(sql`select id from draws where member_id = ${member!.id}`);
      expect(draws.map((d) => d.id)).toEqual([...ids]);
      const { debits, spent } = await one<{ debits: string; spent: string }>(
        sql`select count(distinct idem_key) as debits, coalesce(-sum(amount), 0) as spent from coin_ledger where member_id = ${member!.id} and amount < 0`,
      );
      expect({ debits: Number(debits), spent: Number(spent) }).toEqual({ debits: 1, spent: 10 * PRICE });
      const { claimed } = await one<{ claimed: string }>(
        sql`select count(*) as claimed from gacha_lots where gacha_id = ${gachaId} and draw_id is not null`,
      );
      expect(Number(claimed)).toBe(10);
      expect(replies.every((r) => r.body?.balance?.paid === 5_000 - 10 * PRICE)).toBe(true);
      // Ten lots sold: neither キリ番 was reached, nobody won one, both cards are still promised.
      expect(await kiribanPrizes(gachaId)).toEqual([]);
      expect(replies.every((r) => (r.body?.kiriban ?? []).length === 0)).toBe(true);
      expect(await checkInvariants(handle!.db)).toEqual([]);
    },
    scaledTimeout(60_000),
  );

  it.skipIf(!onPostgres)(
    `SIGKILL of one instance mid-storm: retries with the same keys return the first results, nothing twice${skipped}`,
    async () => {
      expect(cluster!.unexpectedExits(), serverStory()).toEqual([]);
      const gachaId = 'storm-sigkill';
      await publishStormPack(gachaId, 2_500);
      const calls = stormCalls(gachaId, 3_000, 42, 'sigkill');
      const before = await coinBook();
      let answered = 0;
      let outage: Promise<void> | undefined;
      const killAfter = 800;
      // Every 50th request (all to instance 0, which stays up) hangs up 1 ms after sending, like a
      // phone losing its signal: the draw still happens, its answer is lost.
      const abandoned = new Set(calls.filter((_, i) => i % 50 === 0).map((c) => c.key));
      const replies = await runBounded(calls, IN_FLIGHT, async (call) => {
        const reply = await client!.post(call, abandoned.has(call.key) ? { abandonAfterMs: 1 } : {});
        if (++answered === killAfter) {
          outage = cluster!.kill(1, 'SIGKILL').then(() => cluster!.restart(1));
          outage.catch(() => undefined); // awaited (and rethrown) after the storm
        }
        return reply;
      });
      expect(outage, 'the kill never happened').toBeDefined();
      await outage;
      const unanswered = calls.flatMap((call, i) => (replies[i]!.status === 0 ? [{ call, first: replies[i]! }] : []));
      console.log(
        `[storm] SIGKILL storm: ${unanswered.length} of ${calls.length} requests got no answer`,
        tally(replies),
      );
      expect(unanswered.length, 'the kill left no request without an answer: nothing was tested').toBeGreaterThan(0);

      const serverErrors = replies.flatMap((r, i) => (r.status >= 500 ? [describeReply(calls[i]!, r)] : []));
      expect(serverErrors.slice(0, 10), `${serverErrors.length} requests got a 5xx\n${serverStory()}`).toEqual([]);
      expect(cluster!.unexpectedExits(), serverStory()).toEqual([]);
      const answeredCalls = calls.filter((_, i) => replies[i]!.status !== 0);
      await expectStormAnswers(
        answeredCalls,
        replies.filter((r) => r.status !== 0),
      );

      // What the first attempts left in the database (the killed instance's statements have finished).
      expect(await settleDatabase()).toBe(0);
      const firstAttempts = await drawRows(unanswered.map((u) => u.call.key));
      const committedUnanswered = unanswered.filter((u) => firstAttempts.has(`${u.call.memberId} ${u.call.key}`));
      const committedAbandoned = committedUnanswered.filter((u) => abandoned.has(u.call.key));
      console.log(
        `[storm] ${committedUnanswered.length} unanswered requests had committed (${committedAbandoned.length} of ${abandoned.size} hung up by the client, ${committedUnanswered.length - committedAbandoned.length} cut by the kill)`,
      );
      expect(
        committedAbandoned.length,
        'no hung-up request had committed: the replay of a lost answer was not tested',
      ).toBeGreaterThan(0);

      // The retries: same key, same body, half of them to the other instance.
      const retryCalls = unanswered.map((u, i) => ({
        ...u.call,
        instance: i % 2 === 0 ? u.call.instance : 1 - u.call.instance,
      }));
      const retries = await runBounded(retryCalls, 32, (call) => client!.post(call));
      const wrong = retries.flatMap((reply, i) => {
        const call = retryCalls[i]!;
        const first = firstAttempts.get(`${call.memberId} ${call.key}`);
        if (reply.status === 0 || reply.status >= 500) return [`no answer on retry: ${describeReply(call, reply)}`];
        if (first?.status === 'completed') {
          return reply.status === 200 &&
            reply.body?.replay === true &&
            reply.body.id === first.id &&
            (reply.body.items ?? []).length === first.count + (first.lastOne ? 1 : 0)
            ? []
            : [`first attempt committed draw ${first.id}, retry answered ${describeReply(call, reply)}`];
        }
        if (first?.status === 'refused') {
          return reply.status === 409 && reply.body?.error?.code === first.errorCode
            ? []
            : [`first attempt was refused ${first.errorCode}, retry answered ${describeReply(call, reply)}`];
        }
        return reply.status === 201 || (reply.status === 409 && SELL_OUT_REFUSALS.has(reply.body?.error?.code ?? ''))
          ? []
          : [`fresh retry answered ${describeReply(call, reply)}`];
      });
      expect(wrong.slice(0, 10), `${wrong.length} retries went wrong\n${serverStory()}`).toEqual([]);

      // Every request now has exactly one row, and the retries' answers match it.
      const finalRows = await drawRows(calls.map((c) => c.key));
      const retryByKey = new Map(retryCalls.map((call, i) => [call.key, retries[i]!]));
      const answers = calls.map((call, i) => (replies[i]!.status === 0 ? retryByKey.get(call.key)! : replies[i]!));
      const missing = calls.filter(
        (call, i) =>
          answers[i]!.status === 201 && finalRows.get(`${call.memberId} ${call.key}`)?.id !== answers[i]!.body?.id,
      );
      expect(missing.map((c) => c.key)).toEqual([]);
      const { draws } = await one<{ draws: string }>(
        sql`select count(*) as draws from draws where gacha_id = ${gachaId}`,
      );
      expect(Number(draws)).toBe(calls.length);

      const pack = await packState(gachaId);
      expect(pack).toEqual({
        claimed: 2_500,
        distinctClaimed: 2_500,
        total: 2_500,
        prizes: 2_500,
        distinctPrizePositions: 2_500,
        status: 'sold_out',
        lastOnePrizes: 1,
        lastOneDraws: 1,
      });
      const after = await coinBook();
      expect(after.credited).toBe(before.credited);
      expect(after.drawDebits - before.drawDebits).toBe(2_500 * PRICE);
      expect(after.wallets + after.debited).toBe(after.credited);
      expect(after.drawCosts).toBe(after.drawDebits);
      expect(await checkInvariants(handle!.db)).toEqual([]);
      expect(cluster!.instances[1]!.starts).toBe(2);
    },
    scaledTimeout(240_000),
  );
});
