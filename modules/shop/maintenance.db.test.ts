// Maintenance mode against a real database: the switch and its audit entry, the per-instance cache's
// expiry, and the exact refusal of the money paths — a draw or checkout that starts after the switch
// committed is refused on an instance whose cache still says open; one committed before is kept;
// money already paid is still credited (docs/decisions/025).
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember, createMemberWithCoins, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { commandLineOperator, listAuditEntries, setMaintenanceAsOperator, type Operator } from '#modules/admin';
import { drawLots } from '#modules/draw';
import { getBalance } from '#modules/wallet';
import { ensureDefaultCoinPacks, PurchaseRefused, processPaymentEvents, receiveWebhook } from '#modules/payments';
import { checkoutAsMember, sandboxHarness, type SandboxHarness } from '#modules/payments/testing';
import { describeRefusal } from '#modules/refusals';
import {
  DEFAULT_MAINTENANCE_MESSAGE,
  createMaintenanceCache,
  maintenanceSettingSchema,
  parseShopDateTime,
  readMaintenance,
  setMaintenance,
} from './index';

const handle = useTestDatabase('maintenance', { poolSize: 4, invariants: 'afterEach' });
const operator: Operator = commandLineOperator();
const on = (extra: { message?: string | null; endsAt?: Date | null } = {}) =>
  setMaintenanceAsOperator(handle.db, operator, { on: true, message: null, endsAt: null, ...extra });
const off = () => setMaintenanceAsOperator(handle.db, operator, { on: false, message: null, endsAt: null });
const draw = (db: DatabaseHandle['db'], memberId: string, gachaId: string, idempotencyKey = randomUUID()) =>
  drawLots(db, { memberId, gachaId, count: 1, idempotencyKey, decisionDays: TEST_RULES.prizeDecisionDays });

let sandbox: SandboxHarness;
beforeAll(async () => {
  await ensureDefaultCoinPacks(handle.db);
  sandbox = sandboxHarness(handle.db);
});

describe('the switch', () => {
  it('is off on a fresh shop (no row), and on/off writes the row and one audit entry each', async () => {
    await off();
    expect(await readMaintenance(handle.db)).toMatchObject({ on: false, message: DEFAULT_MAINTENANCE_MESSAGE });
    const endsAt = new Date(Date.now() + 3600_000);
    const switched = await on({ message: '23時から1時間、サーバーの入れ替えを行います。', endsAt });
    expect(switched).toMatchObject({ ok: true, value: { on: true, endsAt, changedBy: operator.label } });
    expect(await readMaintenance(handle.db)).toMatchObject({
      on: true,
      customMessage: '23時から1時間、サーバーの入れ替えを行います。',
      message: '23時から1時間、サーバーの入れ替えを行います。',
      endsAt,
    });
    await off();
    // Off forgets the planned end and keeps the message for next time.
    expect(await readMaintenance(handle.db)).toMatchObject({ on: false, endsAt: null });
    const { entries } = await listAuditEntries(handle.db, { action: 'shop.maintenance' }, 10);
    expect(entries.map((e) => e.action).slice(0, 2)).toEqual(['shop.maintenance.off', 'shop.maintenance.on']);
    expect(entries[1]).toMatchObject({
      permission: 'shop:write',
      targetType: 'shop',
      after: { on: true, endsAt: endsAt.toISOString() },
    });
  });

  it('refuses a planned end in the past (nothing written, nothing audited), and a staff member without shop:write', async () => {
    const before = (await listAuditEntries(handle.db, { action: 'shop.maintenance' }, 100)).entries.length;
    const past = await on({ endsAt: new Date(Date.now() - 60_000) });
    expect(past).toMatchObject({ ok: false, code: 'MAINTENANCE_END_IN_PAST' });
    expect(describeRefusal(past as never).status).toBe(422);
    const staff: Operator = { ...operator, role: 'staff', permissions: new Set(['audit:read']) };
    const denied = await setMaintenanceAsOperator(handle.db, staff, { on: true, message: null, endsAt: null });
    expect(denied).toMatchObject({ ok: false, code: 'PERMISSION_DENIED' });
    expect((await readMaintenance(handle.db)).on).toBe(false);
    expect((await listAuditEntries(handle.db, { action: 'shop.maintenance' }, 100)).entries.length).toBe(before);
  });

  it('reads the form: Japan time without an offset, empty fields as none, a long message refused', () => {
    expect(parseShopDateTime('2027-01-05T15:00')?.toISOString()).toBe('2027-01-05T06:00:00.000Z');
    expect(parseShopDateTime('2027-01-05 15:00')?.toISOString()).toBe('2027-01-05T06:00:00.000Z');
    expect(parseShopDateTime('2027-02-31T10:00')).toBeNull();
    expect(parseShopDateTime('明日')).toBeNull();
    expect(maintenanceSettingSchema.parse({ on: true, message: ' ', endsAt: '' })).toEqual({
      on: true,
      message: null,
      endsAt: null,
    });
    expect(maintenanceSettingSchema.safeParse({ on: true, message: 'あ'.repeat(301), endsAt: '' }).success).toBe(false);
  });
});

describe('the per-instance cache', () => {
  it('answers from memory until its age runs out, then reads once; refresh reads at once', async () => {
    let now = 1_000_000;
    let reads = 0;
    const counting = new Proxy(handle.db, {
      get(target, property, receiver) {
        if (property === 'select') reads++;
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    const cache = createMaintenanceCache(counting, { maxAgeMs: 2000, clock: () => now });
    expect((await cache.current()).on).toBe(false);
    expect(reads).toBe(1);
    await on();
    now += 1999;
    expect((await cache.current()).on).toBe(false); // still the copy: within MAINTENANCE_CACHE_SECONDS
    expect(reads).toBe(1);
    now += 1;
    const [a, b] = await Promise.all([cache.current(), cache.current()]);
    expect([a.on, b.on]).toEqual([true, true]);
    expect(reads).toBe(2); // concurrent readers share one read
    await off();
    expect((await cache.refresh()).on).toBe(false);
    expect(reads).toBe(3);
  });
});

describe('the money paths refuse exactly', () => {
  it('a draw committed before the switch is kept; one started after it is refused on another instance whose cache says open', async () => {
    const gachaId = await createPublishedPack(handle.db, { lots: 20, price: 100 });
    const member = await createMemberWithCoins(handle.db, { paid: 1000 });
    // Instance B: its own connection pool (PostgreSQL; PGlite has one connection) and its own cache,
    // read while the shop was open.
    const instanceB =
      handle.engine === 'postgres'
        ? await openDatabase({ databaseUrl: handle.databaseUrl, dataDir: handle.dataDir, poolSize: 2 })
        : null;
    const dbB = instanceB?.db ?? handle.db;
    const cacheB = createMaintenanceCache(dbB, { maxAgeMs: 60_000 });
    try {
      expect((await cacheB.current()).on).toBe(false);
      const keptKey = randomUUID();
      const kept = await draw(dbB, member, gachaId, keptKey);
      expect(kept.ok).toBe(true);

      await on({ endsAt: new Date(Date.now() + 30 * 60_000) });
      expect((await cacheB.current()).on).toBe(false); // B has not noticed yet…
      const refused = await draw(dbB, member, gachaId); // …but the draw reads the switch itself
      expect(refused).toMatchObject({ ok: false, code: 'MAINTENANCE', stored: false });
      const words = describeRefusal(refused as never);
      expect(words.status).toBe(503);
      expect(words.message).toContain('メンテナンス中');
      expect(words.message).toMatch(/終了予定は\d{4}年\d{1,2}月\d{1,2}日/);
      expect(Number(words.headers['Retry-After'])).toBeGreaterThan(1700);
      // A retry of the draw that completed before still gets its first answer.
      const replay = await draw(dbB, member, gachaId, keptKey);
      expect(replay).toMatchObject({ ok: true, result: { replay: true } });
      expect(await getBalance(handle.db, member)).toMatchObject({ paid: 900 });

      await off();
      const after = await draw(dbB, member, gachaId);
      expect(after.ok).toBe(true);
    } finally {
      await instanceB?.close();
    }
  });

  it('a switch still uncommitted lets a draw through; once committed, the next draw is refused', async (ctx) => {
    // Two transactions at once need PostgreSQL (PGlite has one connection): skipped there, and says so.
    if (handle.engine !== 'postgres') return ctx.skip('needs PostgreSQL: PGlite has one connection');
    const gachaId = await createPublishedPack(handle.db, { lots: 20, price: 100 });
    const member = await createMemberWithCoins(handle.db, { paid: 1000 });
    const other = await openDatabase({ databaseUrl: handle.databaseUrl, dataDir: handle.dataDir, poolSize: 1 });
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let switched!: () => void;
      const written = new Promise<void>((resolve) => (switched = resolve));
      const switching = other.db.transaction(async (tx) => {
        await setMaintenance(tx, { on: true, message: null, endsAt: null }, 'test');
        switched();
        await held; // the switch is written but not committed
      });
      await written;
      expect((await draw(handle.db, member, gachaId)).ok).toBe(true);
      release();
      await switching;
      expect(await draw(handle.db, member, gachaId)).toMatchObject({ ok: false, code: 'MAINTENANCE' });
      await off();
    } finally {
      await other.close();
    }
  });

  it('refuses a new checkout but answers the replay of one already made, and credits a payment that lands meanwhile', async () => {
    const member = await createMember(handle.db);
    const orderKey = randomUUID();
    const started = await checkoutAsMember(handle.db, sandbox.gateway, member, 'coin-1000', { orderKey });
    await on();
    try {
      const refused = await checkoutAsMember(handle.db, sandbox.gateway, member, 'coin-500').catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(PurchaseRefused);
      expect(describeRefusal((refused as PurchaseRefused).refusal)).toMatchObject({ status: 503, code: 'MAINTENANCE' });
      const replay = await checkoutAsMember(handle.db, sandbox.gateway, member, 'coin-1000', { orderKey });
      expect(replay).toEqual({ ...started, replay: true });

      // The member pays during maintenance: the provider's webhook still credits the coins, once.
      const back = await sandbox.decide(started.redirectUrl, 'approve');
      const webhook = await sandbox.waitForEvent('payment.succeeded', back.searchParams.get('order')!);
      const received = await receiveWebhook(handle.db, sandbox.gateway, 'sandbox', {
        headers: new Headers(webhook.headers),
        rawBody: webhook.body,
      });
      await processPaymentEvents(handle.db, sandbox.gateway, { rules: TEST_RULES.payments, ids: received.stored });
      expect((await getBalance(handle.db, member)).paid).toBe(1000);
      const orders = await handle.db.execute(
        sql`select count(*)::int as n from payment_orders where member_id = ${member}`,
      );
      expect((orders as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
    } finally {
      await off();
    }
  });
});
