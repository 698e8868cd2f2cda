// The shop's rule jobs, registered as main registers them and run through pg-boss: prizes past
// their deadline are converted (a ledger entry each), expired coins written off, sale windows moved.
import { setMaintenance } from '#modules/shop';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows } from '#db/client';
import { useTestDatabase } from '#tests/use-test-database';
import { createMemberWithCoins, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { createJobRunner, registerShopJobs, type JobRunner } from './index';
import { capturingLogger } from './test-support';
import { drawLots, listPrizes } from '#modules/draw';
import { getGacha } from '#modules/gacha';
import { checkInvariants, getBalance, grantCoins, listLedgerEntries } from '#modules/wallet';
import type { ShopConfig } from '../config';
import { sandboxHarness, checkoutAsMember, type SandboxHarness } from '#modules/payments/testing';
import { getOrder, receiveWebhook } from '#modules/payments';
import { paymentServicesFor } from '../payments';
import { createMember } from '#tests/fixtures';

const handle = useTestDatabase('shop_jobs', { poolSize: 4 });
let runner: JobRunner;
let sandbox: SandboxHarness;
const DAY = 86_400_000;

beforeAll(async () => {
  runner = createJobRunner({
    database: handle,
    logger: capturingLogger().logger,
    config: { DATABASE_URL: handle.databaseUrl },
    pollingIntervalSeconds: 0.5,
  });
  sandbox = sandboxHarness(handle.db);
  const payments = paymentServicesFor(sandbox.gateway, TEST_RULES.payments);
  registerShopJobs(runner, {
    config: {
      dataDir: handle.dataDir,
      IMAGE_CACHE_MAX_MB: 16,
      FREE_COIN_EXPIRY_DAYS: TEST_RULES.freeCoinDays,
    } as ShopConfig,
    payments,
  });
  await runner.start();
});
afterAll(async () => {
  await runner?.stop();
});

describe('the shop rule jobs', () => {
  it('are scheduled in pg-boss', async () => {
    const names = (
      await queryRows<{ name: string }>(handle.db, sql`select name from pgboss.schedule order by name`)
    ).map((r) => r.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'wallet.expire-coins',
        'prizes.auto-convert',
        'gacha.sale-windows',
        'api.forget-idempotency-keys',
        'gacha.refresh-remaining',
        'payments.process-events',
        'payments.expire-orders',
      ]),
    );
  });

  it('credit a paid order from a stored webhook event the route never processed', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const { orderId, redirectUrl } = await checkoutAsMember(db, sandbox.gateway, member, 'coin-3000');
    await sandbox.decide(redirectUrl, 'approve');
    const webhook = await sandbox.waitForEvent('payment.succeeded', orderId);
    // Stored (as the route does) but, as after a crash, never processed.
    expect(
      (
        await receiveWebhook(db, sandbox.gateway, 'sandbox', {
          headers: new Headers(webhook.headers),
          rawBody: webhook.body,
        })
      ).stored,
    ).toHaveLength(1);
    expect((await getOrder(db, member, orderId))!.status).toBe('pending');
    const run = await runner.runNow('payments.process-events');
    expect(run.processed).toBeGreaterThanOrEqual(1);
    expect((await getOrder(db, member, orderId))!.status).toBe('paid');
    expect(await getBalance(db, member)).toMatchObject({ paid: 3000, free: 60 });
    expect((await runner.runNow('payments.process-events')).processed).toBe(0);
    expect(await getBalance(db, member)).toMatchObject({ paid: 3000, free: 60 });
  });

  it('convert prizes past their deadline and write off expired coins, once', async () => {
    const db = handle.db;
    const past = new Date(Date.now() - 20 * DAY);
    const gachaId = await createPublishedPack(db, { lots: 30, price: 10, drawOptions: [10] });
    const member = await createMemberWithCoins(db, { paid: 100 });
    const drawn = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId,
      count: 10,
      idempotencyKey: randomUUID(),
    });
    if (!drawn.ok) throw new Error(drawn.code);
    // Fifteen days later, as far as these prizes are concerned.
    await db.execute(
      sql`update prizes set decide_by = now() - interval '1 day' where draw_id = ${drawn.result.drawId}::uuid`,
    );
    await grantCoins(db, {
      lifetimeDays: TEST_RULES.coinLifetimes,
      memberId: member,
      kind: 'free',
      amount: 50,
      reason: 'operator_grant',
      counterAccount: 'promotion',
      idempotencyKey: randomUUID(),
      now: past,
      expiresAt: new Date(Date.now() - DAY),
    });

    // During maintenance members cannot choose, so the job chooses nothing for them; it catches up after.
    await setMaintenance(db, { on: true, message: null, endsAt: null }, 'test');
    expect((await runner.runNow('prizes.auto-convert')).processed).toBe(0);
    expect((await listPrizes(db, member, { status: ['pending'] })).items).toHaveLength(10);
    await setMaintenance(db, { on: false, message: null, endsAt: null }, 'test');
    const converted = await runner.runNow('prizes.auto-convert');
    expect(converted.processed).toBe(10);
    const box = await listPrizes(db, member, { status: ['converted'] });
    expect(box.items).toHaveLength(10);
    const value = box.items.reduce((sum, p) => sum + p.conversionValue, 0);
    const expired = await runner.runNow('wallet.expire-coins');
    expect(expired.processed).toBe(1);
    expect(await getBalance(db, member)).toMatchObject({ paid: 0, free: value });
    const entries = (await listLedgerEntries(db, member, { limit: 50 })).items;
    expect(entries.filter((e) => e.reason === 'prize_auto_conversion')).toHaveLength(10);
    expect(entries.filter((e) => e.reason === 'expiry')).toHaveLength(1);
    expect((await runner.runNow('prizes.auto-convert')).processed).toBe(0);
    expect((await runner.runNow('wallet.expire-coins')).processed).toBe(0);
    expect(await checkInvariants(db)).toEqual([]);
  });

  it('heal a pack count that no instance refreshed', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 30, price: 10, drawOptions: [10] });
    const member = await createMemberWithCoins(db, { paid: 100 });
    expect(
      (
        await drawLots(db, {
          decisionDays: TEST_RULES.prizeDecisionDays,
          memberId: member,
          gachaId,
          count: 10,
          idempotencyKey: randomUUID(),
        })
      ).ok,
    ).toBe(true);
    expect((await getGacha(db, gachaId))?.remainingLots).toBe(30);
    expect((await runner.runNow('gacha.refresh-remaining')).processed).toBeGreaterThanOrEqual(1);
    expect((await getGacha(db, gachaId))?.remainingLots).toBe(20);
  });
});
