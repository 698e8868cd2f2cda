// D1 on PostgreSQL and issue 28 item 2: with separate roles (npm run db:roles) the shop migrates as the
// owner and serves as a role that holds only what it needs (docs/decisions/010, 051): it creates nothing,
// deletes no history, writes wallets and lots only through their owner's functions, and its rights read
// from the catalog are exactly db/roles-allow-list.txt. Roles are cluster-wide: unique names here, dropped afterwards.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import crypto from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { createTestDatabase, DEFAULT_ADMIN_URL, type TestDatabase } from '#tests/database';
import { createMemberWithCoins, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { checkInvariants, getBalance } from '#modules/wallet';
import { convertPrizes, drawLots, undoConversion } from '#modules/draw';
import { endPack } from '#modules/gacha';
import fs from 'node:fs';
import path from 'node:path';
import { createJobRunner } from '#server/jobs/index';
import { capturingLogger } from '#server/jobs/test-support';
import { listRolePrivileges, setUpDatabaseRoles, type DatabaseRoles } from './roles';

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

const ALLOW_LIST = path.join(import.meta.dirname, 'roles-allow-list.txt');

/** The allow-list's grants (each line without its `# reason`), and the lines that give no reason. */
function readAllowList(): { grants: string[]; withoutReason: string[] } {
  const lines = fs
    .readFileSync(ALLOW_LIST, 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'));
  return {
    grants: lines.map((line) => line.replace(/\s+#.*$/, '').trim()),
    withoutReason: lines.filter((line) => !/\S\s+#\s*\S/.test(line)),
  };
}

/** The difference between the shop role's rights in the catalog and the allow-list: + granted, not allowed; - allowed, not granted. */
async function privilegeDiff(databaseUrl: string): Promise<string[]> {
  const granted = await asAdmin(databaseUrl, (client) => listRolePrivileges(client, roles.shop, roles.owner));
  const allowed = readAllowList().grants;
  const diff = [
    ...granted.filter((line) => !allowed.includes(line)).map((line) => `+ ${line}`),
    ...allowed.filter((line) => !granted.includes(line)).map((line) => `- ${line}`),
  ];
  if (diff.length > 0)
    console.error(
      `The shop role's rights differ from db/roles-allow-list.txt:\n${diff.join('\n')}\n\nAll granted:\n${granted.join('\n')}`,
    );
  return diff;
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
  it('migrates as the owner, serves as a shop role that creates nothing, deletes no history and writes wallets and lots only through functions', async (context) => {
    if (testDb.engine !== 'postgres') {
      console.warn(
        'skipped: database roles exist only on PostgreSQL (the embedded PGlite has none; docs/operators.md, Database roles)',
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
    const ownersOf = (kinds: string) =>
      asAdmin(testDb.databaseUrl!, async (client) =>
        (
          await client.query(
            `select distinct pg_get_userbyid(relowner) as owner from pg_class
              where relnamespace in ('public'::regnamespace, 'pgboss'::regnamespace) and relkind in (${kinds})`,
          )
        ).rows.map((r) => r.owner),
      );
    expect(await ownersOf("'r'")).toEqual([roles.owner]);

    // The shop's ordinary paths as the shop role: grants, a published pack (lots and sequence through
    // gacha_fix_lots), draws, a pack drawn to its end, a pack ended early.
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
    // A conversion and its 元に戻す (decision 057) as the shop role: the undo locks the wallet and takes the
    // grant back through the wallet's own functions, so the balance is exactly as before.
    if (!drawn.ok) throw new Error(drawn.code);
    const converted = await convertPrizes(db, member, [drawn.result.items[0]!.prizeId], {
      freeCoinDays: TEST_RULES.freeCoinDays,
      undoSeconds: 60,
    });
    if (!converted.ok || !converted.undo) throw new Error(`conversion as the shop role: ${JSON.stringify(converted)}`);
    expect(await undoConversion(db, member, converted.undo.conversionId)).toMatchObject({ ok: true, replay: false });
    expect((await getBalance(db, member)).total).toBe(200);
    const [count] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from coin_ledger where member_id = ${member}`),
    );
    expect(count!.n).toBe(6);
    const small = await createPublishedPack(db, { lots: 4, price: 10, lastOne: true, drawOptions: [1, 4] });
    const soldOut = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId: small,
      count: 4,
      idempotencyKey: `roles-sell-out:${suffix}`,
    });
    expect(soldOut).toMatchObject({ ok: true });
    const ended = await createPublishedPack(db, { lots: 5, price: 10 });
    expect(await endPack(db, ended)).toEqual({ previous: 'on_sale', status: 'ended' });
    const [packs] = rowsOf<{ sold_out: number; lots: number }>(
      await db.execute(
        sql`select count(*) filter (where status = 'sold_out')::int as sold_out, (select count(*)::int from gacha_lots) as lots from gachas`,
      ),
    );
    expect(packs).toEqual({ sold_out: 1, lots: 29 });
    expect(await checkInvariants(db)).toEqual([]);
    // The lot sequences are the owner's too.
    expect(await ownersOf("'S'")).toEqual([roles.owner]);

    // What the shop role may not do (issue 28 item 2), each tried as that role.
    const asShop = (statement: string) => refusal(shopUrl(), statement);
    const [pack] = rowsOf<{ no: number }>(await db.execute(sql`select no from gachas where id = ${gachaId}`));
    const refusedAsShop = async () => {
      const refused: Record<string, string> = {};
      for (const statement of [
        // creating objects
        'create table public.shop_table (id int)',
        'create function public.shop_function() returns int language sql as $$ select 1 $$',
        'create schema shop_schema',
        'create temporary table shop_temp (id int)',
        'create sequence public.shop_sequence',
        'create table pgboss.shop_table (id int)',
        // deleting history
        'delete from draws',
        'delete from prizes',
        'delete from gacha_lots',
        'delete from coin_ledger',
        'delete from coin_grants',
        'delete from payment_events',
        'delete from payment_orders',
        'delete from admin_audit_log',
        'delete from stock_movements',
        'truncate draws',
        'truncate payment_events',
        // the wallet's and the lots' rows outside their functions
        'update wallets set paid = paid + 1000',
        `insert into wallets (member_id, updated_at) values ('nobody', now())`,
        'delete from wallets',
        'update coin_grants set remaining = remaining + 1',
        'update coin_ledger set amount = amount + 1',
        `insert into coin_ledger (member_id, kind, amount, counter_account, reason, seq, paid_after, free_after, created_at) values ('x', 'free', 1, 'x', 'x', 0, 0, 0, now())`,
        'update gacha_lots set draw_id = null',
        `insert into gacha_lots (gacha_id, position, tier_id) values ('${gachaId}', 999, 'x')`,
        'select 1 from wallets for update',
        'select 1 from gacha_lots for update',
        `select setval('gacha_pos_${pack!.no}', 1)`,
        `select nextval('gacha_pos_${pack!.no}')`,
        "select nextval('coin_ledger_id_seq')",
        // the guards
        'alter table coin_ledger disable trigger all',
        'alter table admin_audit_log disable trigger all',
        'alter table draws add column note text',
        'drop trigger coin_ledger_no_update_delete on coin_ledger',
        'create or replace function coin_ledger_append_only() returns trigger language plpgsql as $$ begin return null; end $$',
        'create or replace function wallet_spend(p_member text, p_amount int, p_reason text, p_counter text, p_idem text, p_ref text, p_now timestamptz) returns jsonb language sql as $$ select null::jsonb $$',
        'analyze gacha_lots',
      ])
        refused[statement] = await asShop(statement);
      return refused;
    };
    const expectRefused = async () => {
      const answers = await refusedAsShop();
      const accepted = Object.entries(answers).filter(
        ([, message]) => !/permission denied|must be owner/.test(message),
      );
      // ANALYZE of another's table is only a warning ("skipping"): publishing analyses through gacha_analyze_lots.
      expect(accepted.map(([statement]) => statement)).toEqual(['analyze gacha_lots']);
    };
    await expectRefused();
    // The one legitimate way in is the function, with its own rules: a published pack's lots are fixed.
    expect(await asShop(`select gacha_fix_lots('${gachaId}', '["x"]'::jsonb)`)).toMatch(/not an unpublished draft/);
    // Other tables keep their ordinary rights (a prize is updated when converted; a session deleted).
    expect(await asShop('update prizes set status = status where false')).toBe('accepted');
    expect(await asShop('delete from sessions where false')).toBe('accepted');

    // pg-boss: the owner creates and migrates its schema when jobs start; the shop role then runs jobs in it.
    const jobs = createJobRunner({
      database: shop,
      logger: capturingLogger().logger,
      config: { DATABASE_URL: shopUrl(), DATABASE_MIGRATION_URL: ownerUrl() },
      pollingIntervalSeconds: 0.5,
    });
    let ran = 0;
    jobs.register({
      name: 'roles.expire-coins',
      handler: async ({ db: jobDb }) => {
        ran += 1;
        const [expired] = rowsOf<{ n: number }>(await jobDb.execute(sql`select wallet_expire_due(now(), 100) as n`));
        return { processed: expired!.n };
      },
    });
    await jobs.start();
    try {
      expect(await jobs.runNow('roles.expire-coins')).toMatchObject({ job: 'roles.expire-coins', processed: 0 });
      expect(ran).toBe(1);
    } finally {
      await jobs.stop();
    }
    expect(await ownersOf("'r', 'p'")).toEqual([roles.owner]);

    // The rights, read from the catalog, are exactly the checked-in allow-list, every line with its reason.
    expect(readAllowList().withoutReason).toEqual([]);
    expect(await privilegeDiff(testDb.databaseUrl!)).toEqual([]);

    // db:roles again on the migrated database (idempotent; it now finds the ledger), then a restart.
    expect(await asAdmin(testDb.databaseUrl!, (client) => setUpDatabaseRoles(client, roles))).toEqual({
      appendOnlyTables: ['admin_audit_log', 'coin_ledger', 'content_versions', 'stock_movements'],
    });
    await shop.migrate();
    expect(await privilegeDiff(testDb.databaseUrl!)).toEqual([]);
    await expectRefused();
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

    // A new grant is a visible change: the comparison names it.
    await asAdmin(testDb.databaseUrl!, (client) =>
      client.query(`grant delete on draws to ${client.escapeIdentifier(roles.shop)}`),
    );
    expect(await privilegeDiff(testDb.databaseUrl!)).toEqual([
      '+ table public.draws: SELECT INSERT UPDATE DELETE',
      '- table public.draws: SELECT INSERT UPDATE',
    ]);
    await asAdmin(testDb.databaseUrl!, (client) =>
      client.query(`revoke delete on draws from ${client.escapeIdentifier(roles.shop)}`),
    );
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
      appendOnlyTables: ['admin_audit_log', 'coin_ledger', 'content_versions', 'stock_movements'],
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
        config: {
          DATABASE_URL: legacyAs(roles.shop, roles.shopPassword),
          DATABASE_MIGRATION_URL: legacyAs(roles.owner, roles.ownerPassword),
        },
        pollingIntervalSeconds: 0.5,
      });
      await jobs.start();
      await jobs.stop();
      // What the single role made (pg-boss's schema, the pack's position sequence) is the owner's now,
      // and the shop role's rights are the allow-list's, as on a fresh database.
      expect(await privilegeDiff(adminUrl)).toEqual([]);
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
