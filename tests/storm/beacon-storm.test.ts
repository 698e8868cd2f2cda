// A beacon pack (decision 081) under a sell-out storm, over HTTP, from two server instances on one PostgreSQL
// database, each running the settler against the drand stand-in: 2,400 requests for 2,000 lots, one instance
// SIGKILLed mid-storm (between acceptances and their settlements) and restarted, unanswered requests retried
// with their keys. Afterwards every slot is sold once, every receipt is settled exactly once by whichever
// instance got there first, the coins are exact, and the public draw log verifies end to end — with one
// ラストワン賞 and the キリ番賞 where the settled order puts them.
// PostgreSQL only: PGlite is one connection inside one process, so two instances cannot share it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestDatabase } from '#tests/database';
import { scaledTimeout } from '#tests/settings';
import { startInstances, STORM_AUTH_SECRET, type ShopCluster } from '#tests/instances';
import { withShopRoles, type TestDatabaseRoles } from '#tests/database-roles';
import { createSessionMembers, type SessionMember } from '#tests/members';
import { coinBook as coinBookOf, SELL_OUT_REFUSALS } from '#tests/draw-book';
import { createPublishedPack } from '#tests/fixtures';
import {
  createDrawClient,
  runBounded,
  seededRandom,
  tally,
  type DrawCall,
  type DrawClient,
} from '../../bench/draw/client';
import { openDatabase, queryRows, type DatabaseHandle } from '#db/client';
import { checkInvariants } from '#modules/wallet';
import { beaconDrawLog } from '#modules/draw';
import { isRefusal } from '#modules/kernel';
import {
  readBeaconLog,
  receiptPublicKey,
  signReceipt,
  verifyBeaconLog,
  verifyReceiptSignature,
} from '#modules/fairness';
import { startDrandStandin, type DrandStandin } from '#devtools/standins/drand';

const database = await createTestDatabase('beacon_storm');
const onPostgres = database.engine === 'postgres';
const skipped = onPostgres ? '' : ' — SKIPPED: needs PostgreSQL (two server instances cannot share PGlite)';
if (!onPostgres) await database.drop();

const PRICE = 10;
const LOTS = 2_000;
const MEMBERS = 120;
const IN_FLIGHT = 48;
const RECEIPT_SECRET = 'c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7';
const CLOSE_MARGIN_MS = 400;

let cluster: ShopCluster | undefined;
let roles: TestDatabaseRoles | undefined;
let handle: DatabaseHandle | undefined;
let client: DrawClient | undefined;
let drand: DrandStandin | undefined;
let members: SessionMember[] = [];

const rows = <T>(query: ReturnType<typeof sql>): Promise<T[]> => queryRows<T>(handle!.db, query);
const one = async <T>(query: ReturnType<typeof sql>): Promise<T> => (await rows<T>(query))[0]!;

describe(`a beacon pack's storm over HTTP, two instances settling${skipped}`, () => {
  beforeAll(async () => {
    if (!onPostgres) return;
    // One-second rounds keep the test short; the instances fetch and verify them like drand's relay's.
    drand = await startDrandStandin({ seed: 'beacon-storm', period: 1, host: '127.0.0.1' });
    roles = await withShopRoles(database.databaseUrl!, 'beacon_storm');
    cluster = await startInstances({
      count: 2,
      databaseUrl: roles.shopUrl,
      migrationUrl: roles.ownerUrl,
      dataDir: database.dataDir,
      authSecret: STORM_AUTH_SECRET,
      env: {
        // Each instance runs the settler (it runs with the jobs), against the stand-in's chain.
        JOBS_ENABLED: 'true',
        BEACON_RELAY_URL: drand.url,
        BEACON_CHAIN_HASH: drand.chainHash,
        BEACON_RECEIPT_KEY: RECEIPT_SECRET,
        BEACON_CLOSE_MARGIN_MS: String(CLOSE_MARGIN_MS),
      },
    });
    handle = await openDatabase({ databaseUrl: database.databaseUrl!, dataDir: database.dataDir, poolSize: 4 });
    members = await createSessionMembers(handle.db, {
      count: MEMBERS,
      secret: cluster.authSecret,
      paid: 10_000,
      prefix: 'beacon',
    });
    client = createDrawClient(cluster.urls, { maxSockets: IN_FLIGHT });
  }, scaledTimeout(180_000));

  afterAll(async () => {
    client?.close();
    await cluster?.stop();
    await handle?.close();
    await drand?.close();
    if (onPostgres) await database.drop();
    await roles?.drop();
  });

  it.skipIf(!onPostgres)(
    `sells ${LOTS} lots once each, settles every receipt exactly once through a SIGKILL, and the log verifies${skipped}`,
    async () => {
      const db = handle!.db;
      const kiribanAt = [1, 500, 1999];
      const gachaId = await createPublishedPack(db, {
        id: 'beacon-storm',
        lots: LOTS,
        price: PRICE,
        drawOptions: [1, 10],
        lastOne: true,
        kiribanAt,
        beacon: {
          source: {
            chainHash: drand!.info.hash,
            scheme: drand!.info.schemeID,
            publicKey: drand!.info.public_key,
            genesisTime: drand!.info.genesis_time,
            period: drand!.info.period,
          },
          receiptKey: receiptPublicKey(RECEIPT_SECRET),
          closeMarginMs: CLOSE_MARGIN_MS,
        },
      });
      const random = seededRandom(20261130);
      const calls: DrawCall[] = Array.from({ length: 2_400 }, (_, i) => {
        const member = members[i % members.length]!;
        return {
          instance: i % 2,
          gachaId,
          count: random() < 0.1 ? 10 : 1,
          key: `beacon-${i}`,
          memberId: member.id,
          bearer: member.bearer,
        };
      });
      const before = await coinBookOf(db);
      let answered = 0;
      let outage: Promise<void> | undefined;
      const replies = await runBounded(calls, IN_FLIGHT, async (call) => {
        const reply = await client!.post(call);
        if (++answered === 600) {
          outage = cluster!.kill(1, 'SIGKILL').then(() => cluster!.restart(1));
          outage.catch(() => undefined);
        }
        return reply;
      });
      await outage;
      // Requests the kill cut: retried with the same key (half of them to the other instance).
      const unanswered = calls.flatMap((call, i) => (replies[i]!.status === 0 ? [i] : []));
      const retries = await runBounded(unanswered, 16, (i) =>
        client!.post({ ...calls[i]!, instance: i % 2 === 0 ? calls[i]!.instance : 1 - calls[i]!.instance }),
      );
      unanswered.forEach((i, k) => (replies[i] = retries[k]!));
      console.log(`[beacon storm] ${unanswered.length} requests retried after the kill`, tally(replies));

      const bad = replies.flatMap((reply, i) =>
        reply.status === 200 ||
        reply.status === 201 ||
        (reply.status === 409 && SELL_OUT_REFUSALS.has(reply.body?.error?.code ?? ''))
          ? []
          : [`${calls[i]!.key}: ${reply.status} ${reply.error ?? JSON.stringify(reply.body).slice(0, 200)}`],
      );
      expect(bad.slice(0, 10), `${bad.length} answers were neither a draw nor a sell-out refusal`).toEqual([]);
      // Every accepted draw answered with its receipt, signed by the key the pack committed to.
      type Proof = { receipt: Parameters<typeof verifyReceiptSignature>[0]; signature: string | null };
      const accepted = replies.filter((r) => r.status === 200 || r.status === 201);
      const unsigned = accepted.filter((r) => {
        const proof = (r.body as { beacon?: Proof | null }).beacon;
        return (
          !proof?.signature || !verifyReceiptSignature(proof.receipt, proof.signature, receiptPublicKey(RECEIPT_SECRET))
        );
      });
      expect(unsigned.length, 'answers without a verifiable receipt').toBe(0);
      expect(accepted.reduce((sum, r) => sum + (r.body!.count ?? 0), 0)).toBe(LOTS);

      // The settlers of both instances (one of them killed and restarted) finish the sale.
      const deadline = Date.now() + scaledTimeout(90_000);
      for (;;) {
        const { open } = await one<{ open: number }>(
          sql`select count(*)::int as open from draw_receipts where gacha_id = ${gachaId} and settled_at is null`,
        );
        if (open === 0) break;
        if (Date.now() > deadline) throw new Error(`${open} receipts still unsettled`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const lots = await one<{ slots: number; tiered: number; prizes: number; positions: number }>(
        sql`select (select count(*)::int from gacha_lots where gacha_id = ${gachaId} and draw_id is not null) as slots,
                   (select count(*)::int from gacha_lots where gacha_id = ${gachaId} and tier_id is not null) as tiered,
                   (select count(*)::int from prizes where gacha_id = ${gachaId} and position is not null) as prizes,
                   (select count(distinct position)::int from prizes where gacha_id = ${gachaId}) as positions`,
      );
      expect(lots).toEqual({ slots: LOTS, tiered: LOTS, prizes: LOTS, positions: LOTS });
      const extras = await rows<{ kiriban_no: number | null; last_one: boolean }>(
        sql`select p.kiriban_no, t.is_last_one as last_one from prizes p join gacha_tiers t on t.id = p.tier_id
             where p.gacha_id = ${gachaId} and p.position is null order by p.kiriban_no nulls last`,
      );
      expect(extras).toEqual([
        ...kiribanAt.map((k) => ({ kiriban_no: k, last_one: false })),
        { kiriban_no: null, last_one: true },
      ]);
      // Each head settled once: its settlement time is one moment, and no receipt was settled twice.
      const heads = await one<{ heads: number; settled: number }>(
        sql`select count(*)::int as heads, count(settled_at)::int as settled from draw_beacon_heads where gacha_id = ${gachaId}`,
      );
      expect(heads.settled).toBe(heads.heads);
      const after = await coinBookOf(db);
      expect(after.drawDebits - before.drawDebits).toBe(LOTS * PRICE);
      expect(after.wallets + after.debited).toBe(after.credited);
      expect(await checkInvariants(db)).toEqual([]);

      // The public log, read as a tracker reads it, verifies every receipt, head, beacon and lot.
      const parsed = await readBeaconLog(async (after) => {
        const page = await beaconDrawLog(db, gachaId, {
          after,
          limit: 100,
          sign: (receipt) => signReceipt(receipt, RECEIPT_SECRET),
        });
        if (isRefusal(page)) throw new Error(page.code);
        return page;
      });
      if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
      const verification = verifyBeaconLog(parsed.log, { trustedChains: [drand!.info] });
      expect(verification.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`)).toEqual([]);
      console.log(
        `[beacon storm] ${heads.heads} rounds settled; the log verifies (${verification.checks.length} checks)`,
      );
    },
    scaledTimeout(300_000),
  );
});
