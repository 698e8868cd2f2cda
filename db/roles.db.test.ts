// D1 on PostgreSQL: with separate roles (npm run db:roles) the shop migrates as the owner and serves
// as a role that can add to the ledger and read it, but cannot update, delete, truncate, disable its
// triggers or alter it. Roles are cluster-wide: unique names here, dropped afterwards.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import crypto from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { createTestDatabase, DEFAULT_ADMIN_URL, type TestDatabase } from '#tests/database';
import { createMemberWithCoins, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { checkInvariants, getBalance } from '#modules/wallet';
import { drawLots } from '#modules/draw';
import { createJobRunner } from '#server/jobs/index';
import { capturingLogger } from '#server/jobs/test-support';
import { setUpDatabaseRoles, type DatabaseRoles } from './roles';

/** The rows of a db.execute answer (both engines answer { rows }). */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

let testDb: TestDatabase;
let legacyDb: TestDatabase | undefined;
let shop: DatabaseHandle | undefined;
const suffix = crypto.randomBytes(4).toString('hex');
const roles: DatabaseRoles = {
  owner: `oripa_test_owner_${suffix}`,
  ownerPassword: crypto.randomBytes(18).toString('base64url'),
  shop: `oripa_test_shop_${suffix}`,
  shopPassword: crypto.randomBytes(18).toString('base64url'),
};

const urlAs = (role: string, password: string) => {
  const url = new URL(testDb.databaseUrl!);
  url.username = role;
  url.password = password;
  return url.toString();
};
const ownerUrl = () => urlAs(roles.owner, roles.ownerPassword);
const shopUrl = () => urlAs(roles.shop, roles.shopPassword);

async function asAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The database's message for a statement run as `url`'s role, or 'accepted'. */
async function refusal(url: string, statement: string): Promise<string> {
  return asAdmin(url, async (client) => {
    try {
      await client.query(statement);
      return 'accepted';
    } catch (error) {
      return (error as Error).message;
    }
  });
}

beforeAll(async () => {
  testDb = await createTestDatabase('roles');
});
afterAll(async () => {
  await shop?.close();
  await testDb?.drop();
  await legacyDb?.drop();
  if (testDb?.engine === 'postgres') {
    await asAdmin(process.env.TEST_DATABASE_URL ?? DEFAULT_ADMIN_URL, async (client) => {
      for (const role of [roles.shop, roles.owner])
        await client.query(`drop role if exists ${client.escapeIdentifier(role)}`);
    });
  }
});

describe('database roles (PostgreSQL)', () => {
  it('migrates as the owner, serves as the shop role, and keeps the ledger append-only for it', async (context) => {
    if (testDb.engine !== 'postgres') {
      console.warn(
        'skipped: database roles exist only on PostgreSQL (the embedded PGlite has none; README, Database roles)',
      );
      context.skip();
    }
    // A fresh database: roles first, then the first start migrates as the owner.
    expect(await asAdmin(testDb.databaseUrl!, (client) => setUpDatabaseRoles(client, roles))).toEqual({
      appendOnlyTables: [],
    });
    shop = await openDatabase({
      databaseUrl: shopUrl(),
      migrationUrl: ownerUrl(),
      dataDir: testDb.dataDir,
      poolSize: 2,
    });
    await shop.migrate();
    const owners = await asAdmin(testDb.databaseUrl!, async (client) =>
      (
        await client.query(
          `select distinct pg_get_userbyid(relowner) as owner from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r'`,
        )
      ).rows.map((r) => r.owner),
    );
    expect(owners).toEqual([roles.owner]);

    // The shop's ordinary paths write the ledger: grants, a published pack (its sequence), a draw —
    // with the rights the default privileges gave it on tables the owner created after db:roles.
    const db = shop.db;
    const member = await createMemberWithCoins(db, { paid: 1000, free: 200 });
    const gachaId = await createPublishedPack(db, { lots: 20, price: 100 });
    const drawn = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId,
      count: 10,
      idempotencyKey: `roles:${suffix}`,
    });
    expect(drawn.ok).toBe(true);
    expect((await getBalance(db, member)).total).toBe(200);
    const [count] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from coin_ledger where member_id = ${member}`),
    );
    expect(count!.n).toBe(4);
    expect(await checkInvariants(db)).toEqual([]);

    // …and cannot rewrite it (the wallet's SQL took back what the default privileges gave), nor take the guards away.
    const asShop = (statement: string) => refusal(shopUrl(), statement);
    const rewrites = async () => [
      await asShop('update coin_ledger set amount = amount + 1'),
      await asShop('delete from coin_ledger'),
      await asShop('truncate coin_ledger'),
    ];
    for (const message of await rewrites()) expect(message).toMatch(/permission denied/);
    // The admin audit log is append-only in the same way (modules/admin/sql/audit_append_only.sql).
    for (const statement of [
      "update admin_audit_log set action = 'x'",
      'delete from admin_audit_log',
      'truncate admin_audit_log',
    ])
      expect(await asShop(statement)).toMatch(/permission denied/);
    expect(await asShop('alter table admin_audit_log disable trigger all')).toMatch(/must be owner/);
    expect(await asShop('alter table coin_ledger disable trigger all')).toMatch(/must be owner/);
    expect(await asShop('alter table coin_ledger disable trigger coin_ledger_no_truncate')).toMatch(/must be owner/);
    expect(await asShop('drop trigger coin_ledger_no_update_delete on coin_ledger')).toMatch(/must be owner/);
    expect(await asShop('alter table coin_ledger add column note text')).toMatch(/must be owner/);
    expect(
      await asShop(
        'create or replace function coin_ledger_append_only() returns trigger language plpgsql as $$ begin return null; end $$',
      ),
    ).toMatch(/must be owner/);
    // Other tables keep their ordinary rights (a prize is updated when converted).
    expect(await asShop('update wallets set updated_at = updated_at where false')).toBe('accepted');
    // pg-boss creates and migrates its own schema as the shop role when jobs start.
    const jobs = createJobRunner({
      database: shop,
      logger: capturingLogger().logger,
      config: { DATABASE_URL: shopUrl() },
      pollingIntervalSeconds: 0.5,
    });
    await jobs.start();
    await jobs.stop();
    // db:roles again on the migrated database (idempotent; it now finds the ledger), then a restart.
    expect(await asAdmin(testDb.databaseUrl!, (client) => setUpDatabaseRoles(client, roles))).toEqual({
      appendOnlyTables: ['admin_audit_log', 'coin_ledger', 'stock_movements'],
    });
    await shop.migrate();
    for (const message of await rewrites()) expect(message).toMatch(/permission denied/);
    const again = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId,
      count: 1,
      idempotencyKey: `roles-again:${suffix}`,
    });
    expect(again.ok).toBe(true);
    expect(await checkInvariants(db)).toEqual([]);
    // The owner is refused too, by the triggers.
    expect(await refusal(ownerUrl(), 'truncate coin_ledger')).toMatch(/append-only/);
    expect(await refusal(ownerUrl(), 'delete from coin_ledger')).toMatch(/append-only/);
  });

  it('takes over a deployment that ran as one role: the owner gets its tables, functions and migrations, the shop its jobs', async (context) => {
    if (testDb.engine !== 'postgres') {
      console.warn('skipped: database roles exist only on PostgreSQL');
      context.skip();
    }
    legacyDb = await createTestDatabase('roles_legacy');
    const adminUrl = legacyDb.databaseUrl!;
    const legacyAs = (role: string, password: string) => {
      const url = new URL(adminUrl);
      url.username = role;
      url.password = password;
      return url.toString();
    };
    // Before: the shop ran as the admin, migrated, published a pack (its sequence) and started its jobs.
    const before = await openDatabase({ databaseUrl: adminUrl, dataDir: legacyDb.dataDir, poolSize: 2 });
    let gachaId: string;
    try {
      await before.migrate();
      gachaId = await createPublishedPack(before.db, { lots: 20, price: 100 });
      const jobs = createJobRunner({
        database: before,
        logger: capturingLogger().logger,
        config: { DATABASE_URL: adminUrl },
        pollingIntervalSeconds: 0.5,
      });
      await jobs.start();
      await jobs.stop();
      await before.db.execute(sql`update module_sql set checksum = 'an older build'`);
    } finally {
      await before.close();
    }

    expect(await asAdmin(adminUrl, (client) => setUpDatabaseRoles(client, roles))).toEqual({
      appendOnlyTables: ['admin_audit_log', 'coin_ledger', 'stock_movements'],
    });
    const after = await openDatabase({
      databaseUrl: legacyAs(roles.shop, roles.shopPassword),
      migrationUrl: legacyAs(roles.owner, roles.ownerPassword),
      dataDir: legacyDb.dataDir,
      poolSize: 2,
    });
    try {
      // The owner can replace every module function and trigger (the checksums say an older build).
      await after.migrate();
      const member = await createMemberWithCoins(after.db, { paid: 500 });
      expect(
        (
          await drawLots(after.db, {
            decisionDays: TEST_RULES.prizeDecisionDays,
            memberId: member,
            gachaId,
            count: 1,
            idempotencyKey: `legacy:${suffix}`,
          })
        ).ok,
      ).toBe(true);
      expect(await checkInvariants(after.db)).toEqual([]);
      const jobs = createJobRunner({
        database: after,
        logger: capturingLogger().logger,
        config: { DATABASE_URL: legacyAs(roles.shop, roles.shopPassword) },
        pollingIntervalSeconds: 0.5,
      });
      await jobs.start();
      await jobs.stop();
      expect(await refusal(legacyAs(roles.shop, roles.shopPassword), 'truncate coin_ledger')).toMatch(
        /permission denied/,
      );
      expect(
        await refusal(legacyAs(roles.shop, roles.shopPassword), 'alter table coin_ledger disable trigger all'),
      ).toMatch(/must be owner/);
    } finally {
      await after.close();
    }
  });
});
