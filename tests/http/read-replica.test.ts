// Read replicas where they are safe (issue 31 item 4, decision 075), on a real streaming replica: a private
// primary (tests/support/private-postgres.ts) and its pg_basebackup standby. With the replica's replay
// paused, a member's draw is on the primary only, and the test reads the pack page three ways: a visitor
// on a shop that allows 30 s of lag sees the replica's count (one more lot left), the member who drew sees
// the primary's, and a visitor on a shop that allows 1 s sees the primary's once the replica is that far
// behind. Health shows the lag; when replay resumes the replica is read again. Skipped, and says why, where
// PostgreSQL's server programs are not installed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivatePostgres, type PrivatePostgres } from '#tests/private-postgres';
import { startReplicaOf, type PrivateReplica } from '#tests/private-replica';
import { createSessionMembers, type SessionMember } from '#tests/members';
import { createPublishedPack } from '#tests/fixtures';
import { freePort } from '#tests/ports';
import { OWN_SHOP_AUTH_SECRET } from '#tests/own-shop';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { checkInvariants } from '#modules/wallet';
import { openReplica } from '#db/replica';
import { loadConfig } from '#server/config';
import { startShop } from '#server/main';

const started = await startPrivatePostgres();
const unavailable = 'unavailable' in started ? started.unavailable : null;
if (unavailable) console.warn(`[read-replica] skipped: ${unavailable}`);
const primary = 'unavailable' in started ? null : (started as PrivatePostgres);

const SESSION_COOKIE = '__Secure-oripa.session_token';
type Shop = { base: string; stop(): Promise<void> };

let replica: PrivateReplica | undefined;
let handle: DatabaseHandle | undefined;
let patient: Shop | undefined; // REPLICA_MAX_LAG_SECONDS=30
let strict: Shop | undefined; // REPLICA_MAX_LAG_SECONDS=1
let member: SessionMember;
let packPath = '';
let packId = '';
const folders: string[] = [];

async function shopWithReplica(maxLagSeconds: number): Promise<Shop> {
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-replica-shop-'));
  folders.push(dataDir);
  const shop = await startShop(
    loadConfig({
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_ORIGIN: base,
      DATA_DIR: dataDir,
      DATABASE_URL: primary!.url,
      DATABASE_REPLICA_URL: replica!.url,
      REPLICA_MAX_LAG_SECONDS: String(maxLagSeconds),
      PAGE_CACHE_SECONDS: '0',
      DEMO_DATA: 'false',
      JOBS_ENABLED: 'false',
      IMAGE_WARM_UP: 'false',
      LOG_LEVEL: 'error',
      AUTH_SECRET: OWN_SHOP_AUTH_SECRET,
    }),
  );
  return { base, stop: () => shop.stop() };
}

interface ReplicaHealth {
  lagSeconds: number | null;
  inUse: boolean;
  maxLagSeconds: number;
}
async function replicaHealth(shop: Shop): Promise<ReplicaHealth> {
  const body = (await (await fetch(`${shop.base}/api/health`)).json()) as { replica: ReplicaHealth };
  return body.replica;
}

/** The pack page's remaining count as a visitor, or with the given cookies. */
async function remainingOnPage(shop: Shop, cookies: string[] = []): Promise<number> {
  const response = await fetch(shop.base + packPath, { headers: cookies.length ? { cookie: cookies.join('; ') } : {} });
  expect(response.status).toBe(200);
  const html = await response.text();
  const match = /data-testid="pack-remaining"[^>]*>([\d,]+)</.exec(html);
  expect(match, 'the pack page shows its remaining count').not.toBeNull();
  return Number(match![1]!.replaceAll(',', ''));
}

async function replicaValue(statement: string): Promise<string> {
  const client = new pg.Client({ connectionString: replica!.url });
  await client.connect();
  try {
    return String((await client.query<{ v: unknown }>(statement)).rows[0]!.v);
  } finally {
    await client.end();
  }
}

async function onReplica(statement: string) {
  const client = new pg.Client({ connectionString: replica!.url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

describe.skipIf(!primary)(`read replicas${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  beforeAll(async () => {
    replica = await startReplicaOf(primary!);
    patient = await shopWithReplica(30);
    strict = await shopWithReplica(1);
    handle = await openDatabase({ databaseUrl: primary!.url, dataDir: folders[0]!, poolSize: 2 });
    packId = await createPublishedPack(handle.db, { lots: 20, price: 100 });
    packPath = `/gacha/pokemon/${packId}`;
    [member] = await createSessionMembers(handle.db, { count: 1, paid: 10_000, secret: OWN_SHOP_AUTH_SECRET });
  });

  afterAll(async () => {
    if (handle) expect(await checkInvariants(handle.db)).toEqual([]);
    await handle?.close();
    await patient?.stop();
    await strict?.stop();
    replica?.destroy();
    primary?.destroy();
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('serves the catalogue from the replica, and a browser that wrote from the primary until the replica has its write', async () => {
    // Both shops measure the replica close before anything is read.
    for (const shop of [patient!, strict!])
      await expect.poll(async () => (await replicaHealth(shop)).inUse, { timeout: 60_000, interval: 250 }).toBe(true);
    // The pack, published a moment ago, is on the replica before replay is paused: a pack the replica has not
    // replayed yet is read from the primary (its page must not 404), which is not what this test is about.
    await expect
      .poll(
        () =>
          replicaValue(
            `select count(*)::text as v from gacha_lots l join gachas g on g.id = l.gacha_id where g.id = '${packId}' and g.status = 'on_sale'`,
          ),
        { timeout: 60_000, interval: 100 },
      )
      .toBe('20');
    expect(await remainingOnPage(patient!)).toBe(20);
    await onReplica('select pg_wal_replay_pause()');
    // A pause is a request: replay stops only once the standby says 'paused' (PostgreSQL 14+).
    await expect
      .poll(() => replicaValue('select pg_get_wal_replay_pause_state()::text as v'), { timeout: 30_000, interval: 100 })
      .toBe('paused');

    const drawn = await fetch(`${patient!.base}/api/v1/gachas/${packId}/draws`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${member.bearer}`,
        'idempotency-key': randomUUID(),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ count: 1 }),
    });
    expect(drawn.status).toBe(201);
    const marker = drawn.headers.getSetCookie().find((cookie) => cookie.startsWith('shop_wrote='));
    expect(marker, 'a write marks the browser').toMatch(
      /^shop_wrote=\d+; Path=\/; Max-Age=32; HttpOnly; Secure; SameSite=Lax$/,
    );

    // A visitor reads the paused replica: the draw is not there yet.
    expect(await remainingOnPage(patient!)).toBe(20);
    // The member who drew reads the primary.
    const wrote = marker!.split(';')[0]!;
    expect(await remainingOnPage(patient!, [`${SESSION_COOKIE}=${member.bearer}`, wrote])).toBe(19);
    // So does anyone the moment the replica is further behind than the shop allows (1 s here).
    await expect.poll(async () => (await replicaHealth(strict!)).inUse, { timeout: 30_000, interval: 250 }).toBe(false);
    expect(await remainingOnPage(strict!)).toBe(19);
    // Health shows the lag growing (on a busy machine the strict shop may have seen more than 1 s already).
    await expect
      .poll(async () => (await replicaHealth(patient!)).lagSeconds ?? 0, { timeout: 30_000, interval: 250 })
      .toBeGreaterThan(1);
    expect(await replicaHealth(patient!)).toMatchObject({ inUse: true, maxLagSeconds: 30 });
    // Still inside the patient shop's limit, a visitor there still reads the replica.
    expect(await remainingOnPage(patient!)).toBe(20);

    await onReplica('select pg_wal_replay_resume()');
    await expect.poll(async () => (await replicaHealth(strict!)).inUse, { timeout: 60_000, interval: 250 }).toBe(true);
    expect(await remainingOnPage(strict!)).toBe(19);
    expect(await remainingOnPage(patient!)).toBe(19);
  });

  it('treats a "replica" that is a primary (a wrong URL, a promoted standby) as no replica, and cannot write through it', async () => {
    const opened = await openReplica({ url: primary!.url, poolSize: 1 });
    try {
      // Not a standby: no replayed position, so the lag is unknown and every read goes to the primary.
      expect(await opened.replayedPosition()).toBeNull();
      // And its sessions are read-only, so nothing the catalogue does could write there.
      // 25006: read_only_sql_transaction.
      await expect(opened.db.execute(sql`create table replica_write_probe (id int)`)).rejects.toMatchObject({
        cause: { code: '25006' },
      });
    } finally {
      await opened.close();
    }
  });
});
