// The coin shop against a real database and the sandbox provider: quotes and refusals, crediting
// once from the return page and the webhook (also racing), events out of order, refunds and
// chargebacks of spent coins, abandoned checkouts, caps under concurrency, the 資金決済法 report.
import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { describeRefusal } from '#modules/refusals';
import { createMember, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { getBalance, grantCoins, listLedgerEntries } from '#modules/wallet';
import { drawLots } from '#modules/draw';
import {
  applyProviderPayment,
  baseDateBefore,
  cancelPendingOrder,
  reconcilePaidOrders,
  checkPaymentInvariants,
  clearPurchaseHold,
  declareAge,
  ensureDefaultCoinPacks,
  expireStaleOrders,
  getOrder,
  getPurchaseStanding,
  listCoinPacks,
  listOrders,
  processPaymentEvents,
  PurchaseRefused,
  quotePurchase,
  receiveWebhook,
  refundOrder,
  startCheckout,
  syncOrder,
  unusedPaidBalanceReport,
  DEFAULT_PAYMENT_RULES,
} from './index';
import { paymentOrders } from './schema';
import { checkoutAsMember, sandboxHarness, TEST_ORIGIN, type SandboxHarness } from './testing';
import type { PaymentProvider } from './providers/types';

const handle = useTestDatabase('payments', { poolSize: 8, invariants: 'afterEach' });
let sandbox: SandboxHarness;

beforeAll(async () => {
  await ensureDefaultCoinPacks(handle.db);
  sandbox = sandboxHarness(handle.db);
});
afterEach(async () => {
  expect(await checkPaymentInvariants(handle.db)).toEqual([]);
});

/**
 * The refusal a promise ends with, and how a member is told it (its refusal-words.ts, gathered by modules/refusals):
 * the module answers the code and the facts, the status and the Japanese words come from the catalogue.
 */
const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PurchaseRefused) {
      const { status, message } = describeRefusal(error.refusal);
      return Object.assign(error, { status, message });
    }
    throw error;
  }
  throw new Error('expected a refusal');
};

/** Pays an order through the hosted page and answers the webhook sent for it. */
async function payAndCollect(redirectUrl: string) {
  const back = await sandbox.decide(redirectUrl, 'approve');
  return { back, webhook: await sandbox.waitForEvent('payment.succeeded', back.searchParams.get('order')!) };
}

describe('quotes and refusals', () => {
  it('asks for the age first, then quotes price, coins, bonus and expiry', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const first = await refusal(
      quotePurchase(
        db,
        sandbox.gateway,
        { memberId: member, packId: 'coin-5000', method: 'sandbox' },
        TEST_RULES.payments,
      ),
    );
    expect(first.code).toBe('AGE_DECLARATION_REQUIRED');
    expect(first.message).toContain('年齢');
    await declareAge(db, member, false);
    const quote = await quotePurchase(
      db,
      sandbox.gateway,
      {
        memberId: member,
        packId: 'coin-5000',
        method: 'sandbox',
      },
      TEST_RULES.payments,
    );
    expect(quote).toMatchObject({
      priceJpy: 5000,
      paidCoins: 5000,
      bonusCoins: 150,
      rankBonusCoins: 0,
      totalCoins: 5150,
      paidCoinDays: 180,
    });
  });

  it('refuses unknown packs and methods that are not configured, in Japanese', async () => {
    const db = handle.db;
    const member = await createMember(db);
    await declareAge(db, member, false);
    expect(
      (
        await refusal(
          quotePurchase(
            db,
            sandbox.gateway,
            { memberId: member, packId: 'nope', method: 'sandbox' },
            TEST_RULES.payments,
          ),
        )
      ).code,
    ).toBe('PACK_UNAVAILABLE');
    const method = await refusal(
      quotePurchase(
        db,
        sandbox.gateway,
        { memberId: member, packId: 'coin-500', method: 'paypay' },
        TEST_RULES.payments,
      ),
    );
    expect(method.code).toBe('METHOD_UNAVAILABLE');
    expect(method.refusal.details).toEqual({ method: 'paypay' });
    expect(
      (
        await refusal(
          quotePurchase(
            db,
            sandbox.gateway,
            { memberId: member, packId: 'coin-500', method: '../etc' },
            TEST_RULES.payments,
          ),
        )
      ).code,
    ).toBe('METHOD_UNAVAILABLE');
  });

  it('keeps an age declaration: answering again cannot lift the minors cap', async () => {
    const db = handle.db;
    const member = await createMember(db);
    expect(await declareAge(db, member, true)).toEqual({ declaredMinor: true });
    expect(await declareAge(db, member, false)).toEqual({ declaredMinor: true });
    expect(await declareAge(db, member, false, { byOperator: true })).toEqual({ declaredMinor: false });
  });

  it("applies the rank bonus: last month's purchases make a ゴールド member get 3 % more", async () => {
    const db = handle.db;
    const member = await createMember(db);
    await declareAge(db, member, false);
    // Mid-month of the previous month in Japan time (35 days back left it two months back on the 1st–4th).
    const tokyo = new Date(Date.now() + 9 * 3_600_000);
    const lastMonth = new Date(Date.UTC(tokyo.getUTCFullYear(), tokyo.getUTCMonth() - 1, 15, 3));
    await grantCoins(db, {
      lifetimeDays: TEST_RULES.coinLifetimes,
      memberId: member,
      kind: 'paid',
      amount: 120_000,
      reason: 'purchase',
      counterAccount: 'purchase',
      idempotencyKey: `test:rank:${member}`,
      now: lastMonth,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const standing = await getPurchaseStanding(db, member, TEST_RULES.payments);
    expect(standing.rank).toMatchObject({ name: 'ゴールド', bonusPercent: 3 });
    const packs = await listCoinPacks(db, standing);
    expect(packs.find((p) => p.id === 'coin-10000')).toMatchObject({ rankBonusCoins: 300, totalCoins: 10_700 });
  });
});

describe('checkout and crediting', () => {
  it('credits paid coins and bonus once: the return page first, then the webhook', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const { orderId, redirectUrl } = await checkoutAsMember(db, sandbox.gateway, member, 'coin-1000');
    expect(redirectUrl).toMatch(/^http:\/\/shop\.test\/sandbox\/pay\/sbp_/);
    const pending = await getOrder(db, member, orderId);
    expect(pending).toMatchObject({ status: 'pending', amountJpy: 1000, paidCoins: 1000, bonusCoins: 10 });

    const { back, webhook } = await payAndCollect(redirectUrl);
    expect(back.pathname).toBe('/shop/backfrompurchase');
    expect(back.searchParams.get('order')).toBe(orderId);
    const fromReturn = await syncOrder(db, sandbox.gateway, orderId, {
      rules: TEST_RULES.payments,
      returnParams: back.searchParams,
    });
    expect(fromReturn).toMatchObject({
      credited: true,
      order: { status: 'paid', analyticsLabel: 'paid coin + 10 bonus coin' },
    });

    const received = await receiveWebhook(db, sandbox.gateway, 'sandbox', {
      headers: new Headers(webhook.headers),
      rawBody: webhook.body,
    });
    expect(received.stored).toHaveLength(1);
    expect(
      await processPaymentEvents(db, sandbox.gateway, { rules: TEST_RULES.payments, ids: received.stored }),
    ).toEqual({
      processed: 1,
      failed: 0,
    });
    const again = await receiveWebhook(db, sandbox.gateway, 'sandbox', {
      headers: new Headers(webhook.headers),
      rawBody: webhook.body,
    });
    expect(again).toEqual({ stored: [], duplicates: 1 });

    const balance = await getBalance(db, member);
    expect(balance).toMatchObject({ paid: 1000, free: 10 });
    const entries = await listLedgerEntries(db, member);
    expect(entries.items.map((e) => [e.reason, e.amount])).toEqual(
      expect.arrayContaining([
        ['purchase', 1000],
        ['purchase_bonus', 10],
      ]),
    );
    expect(entries.items).toHaveLength(2);
  });

  it('credits once when the return page and the webhook race, many times over', async () => {
    const db = handle.db;
    for (let round = 0; round < 8; round += 1) {
      const member = await createMember(db);
      const { orderId, redirectUrl } = await checkoutAsMember(db, sandbox.gateway, member, 'coin-3000');
      const { back, webhook } = await payAndCollect(redirectUrl);
      const received = await receiveWebhook(db, sandbox.gateway, 'sandbox', {
        headers: new Headers(webhook.headers),
        rawBody: webhook.body,
      });
      const results = await Promise.all([
        syncOrder(db, sandbox.gateway, orderId, { rules: TEST_RULES.payments, returnParams: back.searchParams }),
        processPaymentEvents(db, sandbox.gateway, { rules: TEST_RULES.payments, ids: received.stored }),
        syncOrder(db, sandbox.gateway, orderId, { rules: TEST_RULES.payments }),
        applyProviderPayment(
          db,
          orderId,
          { status: 'paid', amountJpy: 3000, providerPaymentId: 'x' },
          TEST_RULES.payments,
        ),
      ]);
      const credits = [results[0], results[2], results[3]].filter((r) => r && 'credited' in r && r.credited).length;
      const [event] = await db
        .select()
        .from((await import('./schema')).paymentEvents)
        .where(eq((await import('./schema')).paymentEvents.id, received.stored[0]!));
      expect(credits + (event!.outcome?.endsWith(':credited') ? 1 : 0)).toBe(1);
      expect(await getBalance(db, member)).toMatchObject({ paid: 3000, free: 60 });
    }
  });

  it('a second press of the confirm button returns the same checkout', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const orderKey = randomUUID();
    const first = await checkoutAsMember(db, sandbox.gateway, member, 'coin-500', { orderKey });
    const second = await checkoutAsMember(db, sandbox.gateway, member, 'coin-500', { orderKey });
    expect(second).toEqual({ ...first, replay: true });
    const other = await createMember(db);
    await declareAge(db, other, false);
    const stolen = await refusal(
      startCheckout(
        db,
        sandbox.gateway,
        {
          memberId: other,
          packId: 'coin-500',
          method: 'sandbox',
          origin: TEST_ORIGIN,
          orderKey,
        },
        TEST_RULES.payments,
      ),
    );
    expect(stolen.code).toBe('ORDER_KEY_CONFLICT');
    expect(await getOrder(db, other, first.orderId)).toBeNull();
  });

  it('declined and canceled payments credit nothing and free the cap', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const declined = await checkoutAsMember(db, sandbox.gateway, member, 'coin-1000');
    await sandbox.decide(declined.redirectUrl, 'decline');
    expect(
      (await syncOrder(db, sandbox.gateway, declined.orderId, { rules: TEST_RULES.payments }))!.order,
    ).toMatchObject({
      status: 'failed',
      failureReason: 'declined',
    });
    const canceled = await checkoutAsMember(db, sandbox.gateway, member, 'coin-1000');
    const back = await sandbox.decide(canceled.redirectUrl, 'cancel');
    expect(back.searchParams.get('canceled')).toBe('1');
    expect((await syncOrder(db, sandbox.gateway, canceled.orderId, { rules: TEST_RULES.payments }))!.order.status).toBe(
      'canceled',
    );
    expect(await getBalance(db, member)).toMatchObject({ paid: 0, free: 0 });
    expect((await getPurchaseStanding(db, member, TEST_RULES.payments)).usedJpy).toBe(0);
  });

  it('first-purchase packs are for members who never bought', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const first = await checkoutAsMember(db, sandbox.gateway, member, 'first-500');
    const { back } = await payAndCollect(first.redirectUrl);
    await syncOrder(db, sandbox.gateway, first.orderId, {
      rules: TEST_RULES.payments,
      returnParams: back.searchParams,
    });
    expect(await getBalance(db, member)).toMatchObject({ paid: 500, free: 500 });
    const again = await refusal(checkoutAsMember(db, sandbox.gateway, member, 'first-500'));
    expect(again.code).toBe('FIRST_PURCHASE_ONLY');
    expect(again.message).toContain('初回購入のみ対象です');
    const packs = await listCoinPacks(db, await getPurchaseStanding(db, member, TEST_RULES.payments));
    expect(packs.find((p) => p.id === 'first-500')).toMatchObject({
      available: false,
      unavailableReason: '初回購入のみ対象です',
    });
  });

  it('a first purchase of another pack ends the 初回限定 offer, is warned of, and the reason given after is the true one', async () => {
    const db = handle.db;
    const member = await createMember(db);
    await declareAge(db, member, false);
    const before = await listCoinPacks(db, await getPurchaseStanding(db, member, TEST_RULES.payments));
    expect(before.every((p) => p.available && p.unavailableReason === null)).toBe(true);
    // The quote says when buying it ends the offer; the offer itself does not.
    expect(
      (
        await quotePurchase(
          db,
          sandbox.gateway,
          { memberId: member, packId: 'coin-1000', method: 'sandbox' },
          TEST_RULES.payments,
        )
      ).endsFirstPurchaseOffer,
    ).toBe(true);
    expect(
      (
        await quotePurchase(
          db,
          sandbox.gateway,
          { memberId: member, packId: 'first-500', method: 'sandbox' },
          TEST_RULES.payments,
        )
      ).endsFirstPurchaseOffer,
    ).toBe(false);

    const other = await checkoutAsMember(db, sandbox.gateway, member, 'coin-1000');
    const { back } = await payAndCollect(other.redirectUrl);
    await syncOrder(db, sandbox.gateway, other.orderId, {
      rules: TEST_RULES.payments,
      returnParams: back.searchParams,
    });
    const after = await listCoinPacks(db, await getPurchaseStanding(db, member, TEST_RULES.payments));
    // Never bought, yet no longer open: the reason is that it is for a first purchase only.
    expect(after.find((p) => p.id === 'first-500')).toMatchObject({
      available: false,
      unavailableReason: '初回購入のみ対象です',
    });
    expect(after.find((p) => p.id === 'coin-1000')).toMatchObject({ available: true, unavailableReason: null });
    expect(
      (
        await quotePurchase(
          db,
          sandbox.gateway,
          { memberId: member, packId: 'coin-1000', method: 'sandbox' },
          TEST_RULES.payments,
        )
      ).endsFirstPurchaseOffer,
    ).toBe(false);
    const refused = await refusal(
      quotePurchase(
        db,
        sandbox.gateway,
        { memberId: member, packId: 'first-500', method: 'sandbox' },
        TEST_RULES.payments,
      ),
    );
    expect(refused.message).toBe('このコインパックは初回購入のみ対象です。ほかのコインパックをお選びください。');
  });

  it('keeps the draw a member came for on the order, and only a well-formed one', async () => {
    const db = handle.db;
    const member = await createMember(db);
    await declareAge(db, member, false);
    const start = (drawContext: { gachaId: string; count: number } | null) =>
      startCheckout(
        db,
        sandbox.gateway,
        {
          memberId: member,
          packId: 'coin-500',
          method: 'sandbox',
          origin: TEST_ORIGIN,
          drawContext,
        },
        TEST_RULES.payments,
      );
    const kept = await start({ gachaId: 'stellar-pokemon-001', count: 10 });
    expect((await getOrder(db, member, kept.orderId))!.drawContext).toEqual({
      gachaId: 'stellar-pokemon-001',
      count: 10,
    });
    // The draw travels on the order: nothing of it goes to the provider.
    expect(new URL(kept.redirectUrl).search).not.toContain('stellar');
    for (const bad of [
      { gachaId: 'https://evil.example', count: 10 },
      { gachaId: 'p', count: 0 },
      { gachaId: 'p', count: 1.5 },
      { gachaId: 'p', count: 100_000 },
      null,
    ]) {
      const order = await start(bad);
      expect((await getOrder(db, member, order.orderId))!.drawContext, JSON.stringify(bad)).toBeNull();
    }
  });

  it("a paid amount other than the order's is not credited: the order goes to review", async () => {
    const db = handle.db;
    const member = await createMember(db);
    const { orderId } = await checkoutAsMember(db, sandbox.gateway, member, 'coin-1000');
    const result = await applyProviderPayment(
      db,
      orderId,
      {
        status: 'paid',
        amountJpy: 1,
        providerPaymentId: 'sbp_tampered',
      },
      TEST_RULES.payments,
    );
    expect(result).toMatchObject({ credited: false, order: { status: 'review' } });
    expect(await getBalance(db, member)).toMatchObject({ paid: 0, free: 0 });
  });

  it('an order of another member is not found', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const other = await createMember(db);
    const { orderId } = await checkoutAsMember(db, sandbox.gateway, member, 'coin-500');
    expect(await getOrder(db, other, orderId)).toBeNull();
    expect((await listOrders(db, other)).items).toEqual([]);
    expect((await listOrders(db, member)).items.map((o) => o.id)).toEqual([orderId]);
  });
});

describe("canceling from the provider's page", () => {
  it('cancels at the provider and here, and frees the cap at once; a paid order is credited instead', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const rules = { ...DEFAULT_PAYMENT_RULES, monthlyCapJpy: 1_000 };
    await declareAge(db, member, false);
    const first = await startCheckout(
      db,
      sandbox.gateway,
      { memberId: member, packId: 'coin-1000', method: 'sandbox', origin: TEST_ORIGIN },
      rules,
    );
    expect(
      (
        await refusal(
          startCheckout(
            db,
            sandbox.gateway,
            { memberId: member, packId: 'coin-1000', method: 'sandbox', origin: TEST_ORIGIN },
            rules,
          ),
        )
      ).code,
    ).toBe('MONTHLY_CAP_EXCEEDED');
    expect(await cancelPendingOrder(db, sandbox.gateway, member, first.orderId, rules)).toMatchObject({
      status: 'canceled',
    });
    const page = await sandbox.app.request(new URL(first.redirectUrl).pathname.replace('/sandbox', ''));
    expect(await page.text()).toContain('すでに処理されました');
    const second = await startCheckout(
      db,
      sandbox.gateway,
      { memberId: member, packId: 'coin-1000', method: 'sandbox', origin: TEST_ORIGIN },
      rules,
    );
    // "canceled" in the address of an order that was paid: it is credited, not canceled.
    await sandbox.decide(second.redirectUrl, 'approve');
    expect(await cancelPendingOrder(db, sandbox.gateway, member, second.orderId, rules)).toMatchObject({
      status: 'paid',
    });
    expect(await getBalance(db, member)).toMatchObject({ paid: 1000 });
    expect(await cancelPendingOrder(db, sandbox.gateway, await createMember(db), second.orderId, rules)).toBeNull();
  });
});

describe('what the review found', () => {
  it('a changed quote between the confirmation and the button is confirmed again, not paid', async () => {
    const db = handle.db;
    const member = await createMember(db);
    await declareAge(db, member, false);
    const input = { memberId: member, packId: 'coin-1000', method: 'sandbox', origin: TEST_ORIGIN };
    const changed = await refusal(
      startCheckout(
        db,
        sandbox.gateway,
        { ...input, expected: { priceJpy: 1000, totalCoins: 1100 } },
        TEST_RULES.payments,
      ),
    );
    expect(changed).toMatchObject({ code: 'QUOTE_CHANGED', status: 409 });
    await startCheckout(
      db,
      sandbox.gateway,
      { ...input, expected: { priceJpy: 1000, totalCoins: 1010 } },
      TEST_RULES.payments,
    );
  });

  it('a payment after its order was canceled is credited only if the caps still allow it; otherwise it waits for review', async () => {
    const db = handle.db;
    const member = await createMember(db);
    await declareAge(db, member, true);
    const a = await startCheckout(
      db,
      sandbox.gateway,
      {
        memberId: member,
        packId: 'coin-10000',
        method: 'sandbox',
        origin: TEST_ORIGIN,
      },
      TEST_RULES.payments,
    );
    // Tab 2 cancels order A; order B takes the whole ¥10,000 of the month and is paid.
    await db.update(paymentOrders).set({ status: 'canceled' }).where(eq(paymentOrders.id, a.orderId));
    const b = await startCheckout(
      db,
      sandbox.gateway,
      {
        memberId: member,
        packId: 'coin-10000',
        method: 'sandbox',
        origin: TEST_ORIGIN,
      },
      TEST_RULES.payments,
    );
    await applyProviderPayment(
      db,
      b.orderId,
      { status: 'paid', amountJpy: 10_000, providerPaymentId: 'b' },
      TEST_RULES.payments,
    );
    // Then A's payment arrives after all.
    const late = await applyProviderPayment(
      db,
      a.orderId,
      {
        status: 'paid',
        amountJpy: 10_000,
        providerPaymentId: 'a',
      },
      TEST_RULES.payments,
    );
    expect(late).toMatchObject({
      credited: false,
      order: { status: 'review', failureReason: 'late_payment_over_cap' },
    });
    // Asked again (the next event, the return page): a held order stays held for the operator.
    const again = await applyProviderPayment(
      db,
      a.orderId,
      {
        status: 'paid',
        amountJpy: 10_000,
        providerPaymentId: 'a',
      },
      TEST_RULES.payments,
    );
    expect(again).toMatchObject({ credited: false, order: { status: 'review' } });
    expect(await getBalance(db, member)).toMatchObject({ paid: 10_000 });
  });

  it('a late payment counts against the month its order was made in', async () => {
    const db = handle.db;
    const member = await createMember(db);
    await declareAge(db, member, true);
    const march31 = new Date('2031-03-31T23:30:00+09:00');
    const april1 = new Date('2031-04-01T00:05:00+09:00');
    const a = await startCheckout(
      db,
      sandbox.gateway,
      { memberId: member, packId: 'coin-10000', method: 'sandbox', origin: TEST_ORIGIN },
      TEST_RULES.payments,
      march31,
    );
    await db.update(paymentOrders).set({ status: 'canceled' }).where(eq(paymentOrders.id, a.orderId));
    const b = await startCheckout(
      db,
      sandbox.gateway,
      { memberId: member, packId: 'coin-10000', method: 'sandbox', origin: TEST_ORIGIN },
      TEST_RULES.payments,
      march31,
    );
    await applyProviderPayment(
      db,
      b.orderId,
      { status: 'paid', amountJpy: 10_000, providerPaymentId: 'b' },
      TEST_RULES.payments,
      march31,
    );
    const late = await applyProviderPayment(
      db,
      a.orderId,
      { status: 'paid', amountJpy: 10_000, providerPaymentId: 'a' },
      TEST_RULES.payments,
      april1,
    );
    expect(late).toMatchObject({
      credited: false,
      order: { status: 'review', failureReason: 'late_payment_over_cap' },
    });
  });

  it("answers a provider's confirm callback with yes only for an order that may still be paid", async () => {
    const db = handle.db;
    const member = await createMember(db);
    const { orderId } = await checkoutAsMember(db, sandbox.gateway, member, 'coin-500');
    let eventNo = 0;
    const confirming: PaymentProvider = {
      ...sandbox.gateway.providers.sandbox!,
      method: 'sandbox',
      verifyWebhook: async () => [
        {
          eventId: `confirm-${++eventNo}`,
          type: 'confirm',
          orderId,
          providerRef: null,
          hint: 'pending',
          reply: { status: 200, json: {} },
        },
      ],
    };
    const gateway = { providers: { sandbox: confirming } };
    const request = { headers: new Headers(), rawBody: '{}' };
    expect((await receiveWebhook(db, gateway, 'sandbox', request)).reply).toEqual({ status: 200, json: {} });
    await cancelPendingOrder(db, sandbox.gateway, member, orderId, TEST_RULES.payments);
    const refused = await receiveWebhook(db, gateway, 'sandbox', request);
    expect(refused.reply).toMatchObject({ status: 409, json: { error: { code: 'ORDER_NOT_PAYABLE' } } });
    expect(refused.stored).toHaveLength(1);
  });

  it('an operator refund counts when the provider accepts it, even if its payment reads as paid a while longer', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const { orderId, redirectUrl } = await checkoutAsMember(db, sandbox.gateway, member, 'coin-1000');
    await sandbox.decide(redirectUrl, 'approve');
    await syncOrder(db, sandbox.gateway, orderId, { rules: TEST_RULES.payments });
    const real = sandbox.gateway.providers.sandbox!;
    // A provider that lists refunds apart from the payment: its read keeps saying "paid".
    const slow: PaymentProvider = {
      ...real,
      fetchPayment: async (order) => {
        const payment = await real.fetchPayment(order);
        return payment.status === 'refunded'
          ? { status: 'paid', amountJpy: payment.amountJpy, providerPaymentId: payment.providerPaymentId }
          : payment;
      },
    };
    const result = await refundOrder(db, { providers: { sandbox: slow } }, orderId, 'operator', TEST_RULES.payments);
    expect(result.order).toMatchObject({ status: 'refunded', refundedJpy: 1000 });
    expect(await getBalance(db, member)).toMatchObject({ paid: 0, free: 0 });
    await syncOrder(db, { providers: { sandbox: slow } }, orderId, { rules: TEST_RULES.payments });
    expect((await getOrder(db, member, orderId))!.status).toBe('refunded');
  });

  it('an order held for review is refunded by the operator in full, with no coins to take back', async () => {
    const db = handle.db;
    const member = await createMember(db);
    await declareAge(db, member, true);
    const a = await startCheckout(
      db,
      sandbox.gateway,
      {
        memberId: member,
        packId: 'coin-10000',
        method: 'sandbox',
        origin: TEST_ORIGIN,
      },
      TEST_RULES.payments,
    );
    await db.update(paymentOrders).set({ status: 'canceled' }).where(eq(paymentOrders.id, a.orderId));
    const b = await startCheckout(
      db,
      sandbox.gateway,
      {
        memberId: member,
        packId: 'coin-10000',
        method: 'sandbox',
        origin: TEST_ORIGIN,
      },
      TEST_RULES.payments,
    );
    for (const started of [b, a]) {
      await sandbox.decide(started.redirectUrl, 'approve');
      await syncOrder(db, sandbox.gateway, started.orderId, { rules: TEST_RULES.payments });
    }
    expect((await getOrder(db, member, a.orderId))!.status).toBe('review');
    const refunded = await refundOrder(db, sandbox.gateway, a.orderId, 'over the minors cap', TEST_RULES.payments);
    expect(refunded.order).toMatchObject({ status: 'refunded', refundedJpy: 10_000 });
    expect(await getBalance(db, member)).toMatchObject({ paid: 10_000, free: 400 });
  });

  it('a late "paid" answer does not undo a refund that was applied meanwhile', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const { orderId } = await checkoutAsMember(db, sandbox.gateway, member, 'coin-500');
    await applyProviderPayment(
      db,
      orderId,
      {
        status: 'refunded',
        amountJpy: 500,
        refundedJpy: 500,
        providerPaymentId: 'x',
      },
      TEST_RULES.payments,
    );
    const stale = await applyProviderPayment(
      db,
      orderId,
      { status: 'paid', amountJpy: 500, providerPaymentId: 'x' },
      TEST_RULES.payments,
    );
    expect(stale).toMatchObject({ credited: false, order: { status: 'refunded' } });
    expect(await getBalance(db, member)).toMatchObject({ paid: 0, free: 0 });
  });

  it('a chargeback event does not outrank a provider that still reports the payment as paid (except Amazon Pay)', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const { orderId, redirectUrl } = await checkoutAsMember(db, sandbox.gateway, member, 'coin-500');
    await sandbox.decide(redirectUrl, 'approve');
    const result = await syncOrder(db, sandbox.gateway, orderId, {
      rules: TEST_RULES.payments,
      eventHint: 'charged_back',
    });
    expect(result!.order.status).toBe('paid');
    expect(await getBalance(db, member)).toMatchObject({ paid: 500 });
  });

  it("paid orders are asked again: a refund made in the provider's dashboard reaches the coins", async () => {
    const db = handle.db;
    const member = await createMember(db);
    const { orderId, redirectUrl } = await checkoutAsMember(db, sandbox.gateway, member, 'coin-1000');
    await sandbox.decide(redirectUrl, 'approve');
    await syncOrder(db, sandbox.gateway, orderId, { rules: TEST_RULES.payments });
    const [row] = await db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
    await sandbox.api('POST', `/payments/${row!.providerRef}/refunds`, { amount: 1000 });
    const later = new Date(Date.now() + 7 * 3_600_000);
    expect(
      await reconcilePaidOrders(db, sandbox.gateway, { rules: TEST_RULES.payments, methods: ['sandbox'], now: later }),
    ).toBeGreaterThanOrEqual(1);
    expect((await getOrder(db, member, orderId))!.status).toBe('refunded');
    expect(await getBalance(db, member)).toMatchObject({ paid: 0, free: 0 });
  });
});

describe('caps', () => {
  it('refuses beyond the monthly cap with what is left this month', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const rules = { ...DEFAULT_PAYMENT_RULES, monthlyCapJpy: 12_000 };
    await declareAge(db, member, false);
    const first = await startCheckout(
      db,
      sandbox.gateway,
      { memberId: member, packId: 'coin-10000', method: 'sandbox', origin: TEST_ORIGIN },
      rules,
    );
    const refused = await refusal(
      startCheckout(
        db,
        sandbox.gateway,
        { memberId: member, packId: 'coin-5000', method: 'sandbox', origin: TEST_ORIGIN },
        rules,
      ),
    );
    expect(refused).toMatchObject({ code: 'MONTHLY_CAP_EXCEEDED', status: 422 });
    expect(refused.message).toBe(
      '1か月のご購入上限（¥12,000）を超えるため購入できません。今月はあと¥2,000までご購入いただけます。',
    );
    // An abandoned checkout stops holding its amount once it expires.
    await sandbox.decide(first.redirectUrl, 'cancel');
    await syncOrder(db, sandbox.gateway, first.orderId, { rules: TEST_RULES.payments });
    await startCheckout(
      db,
      sandbox.gateway,
      { memberId: member, packId: 'coin-5000', method: 'sandbox', origin: TEST_ORIGIN },
      rules,
    );
  });

  it('a declared minor has the lower cap', async () => {
    const db = handle.db;
    const member = await createMember(db);
    await declareAge(db, member, true);
    const refused = await refusal(
      startCheckout(
        db,
        sandbox.gateway,
        {
          memberId: member,
          packId: 'coin-30000',
          method: 'sandbox',
          origin: TEST_ORIGIN,
        },
        TEST_RULES.payments,
      ),
    );
    expect(refused.code).toBe('MINOR_CAP_EXCEEDED');
    expect(refused.message).toContain('18歳未満の方の1か月のご購入上限（¥10,000）');
    await startCheckout(
      db,
      sandbox.gateway,
      {
        memberId: member,
        packId: 'coin-10000',
        method: 'sandbox',
        origin: TEST_ORIGIN,
      },
      TEST_RULES.payments,
    );
  });

  // A real race on PostgreSQL; on PGlite (one connection) the six run one after another, same answer.
  it('six checkouts at once cannot pass the cap together', async () => {
    const db = handle.db;
    const member = await createMember(db);
    await declareAge(db, member, false);
    const rules = { ...DEFAULT_PAYMENT_RULES, monthlyCapJpy: 15_000 };
    const attempts = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        startCheckout(
          db,
          sandbox.gateway,
          { memberId: member, packId: 'coin-10000', method: 'sandbox', origin: TEST_ORIGIN },
          rules,
        ),
      ),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    expect(
      attempts.filter((a) => a.status === 'rejected' && (a.reason as PurchaseRefused).code === 'MONTHLY_CAP_EXCEEDED'),
    ).toHaveLength(5);
  });
});

describe('refunds, chargebacks and events out of order', () => {
  async function paidOrder(packId: string) {
    const db = handle.db;
    const member = await createMember(db);
    const { orderId, redirectUrl } = await checkoutAsMember(db, sandbox.gateway, member, packId);
    const { back } = await payAndCollect(redirectUrl);
    await syncOrder(db, sandbox.gateway, orderId, { rules: TEST_RULES.payments, returnParams: back.searchParams });
    return { member, orderId };
  }

  it('an operator refund names what is wrong: an unknown order, one not paid yet (not a pack or key code)', async () => {
    const db = handle.db;
    const missing = await refusal(
      refundOrder(db, sandbox.gateway, randomUUID(), 'requested_by_customer', TEST_RULES.payments),
    );
    expect(missing.code).toBe('ORDER_NOT_FOUND');
    const member = await createMember(db);
    const { orderId } = await checkoutAsMember(db, sandbox.gateway, member, 'coin-1000');
    const unpaid = await refusal(
      refundOrder(db, sandbox.gateway, orderId, 'requested_by_customer', TEST_RULES.payments),
    );
    expect(unpaid.code).toBe('ORDER_NOT_REFUNDABLE');
    expect(unpaid.refusal.details).toMatchObject({ orderId, status: 'pending' });
  });

  it('an operator refund takes the coins back when none were spent', async () => {
    const db = handle.db;
    const { member, orderId } = await paidOrder('coin-1000');
    const result = await refundOrder(db, sandbox.gateway, orderId, 'requested_by_customer', TEST_RULES.payments);
    expect(result.order).toMatchObject({ status: 'refunded', refundedJpy: 1000 });
    expect(await getBalance(db, member)).toMatchObject({ paid: 0, free: 0 });
    const [order] = await db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
    expect(order).toMatchObject({ reversedPaid: 1000, reversedFree: 10, unrecoveredCoins: 0 });
    // Repeating changes nothing.
    await syncOrder(db, sandbox.gateway, orderId, { rules: TEST_RULES.payments });
    expect(await getBalance(db, member)).toMatchObject({ paid: 0, free: 0 });
  });

  it('a chargeback after coins were spent takes back the rest, records the shortfall and holds purchases', async () => {
    const db = handle.db;
    const { member, orderId } = await paidOrder('coin-1000');
    const gachaId = await createPublishedPack(db, { lots: 40, price: 300 });
    const draw = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId,
      count: 1,
      idempotencyKey: randomUUID(),
    });
    expect(draw.ok).toBe(true);
    // 300 spent: the 10 bonus coins first, then 290 paid.
    const dispute = await sandbox.api(
      'POST',
      `/payments/${(await db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)))[0]!.providerRef}/dispute`,
    );
    expect(dispute.status).toBe(200);
    const webhook = await sandbox.waitForEvent('payment.disputed', orderId);
    const received = await receiveWebhook(db, sandbox.gateway, 'sandbox', {
      headers: new Headers(webhook!.headers),
      rawBody: webhook!.body,
    });
    await processPaymentEvents(db, sandbox.gateway, { rules: TEST_RULES.payments, ids: received.stored });
    const [order] = await db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
    expect(order).toMatchObject({ status: 'charged_back', reversedPaid: 710, reversedFree: 0, unrecoveredCoins: 300 });
    expect(await getBalance(db, member)).toMatchObject({ paid: 0, free: 0 });
    const held = await refusal(
      quotePurchase(
        db,
        sandbox.gateway,
        { memberId: member, packId: 'coin-500', method: 'sandbox' },
        TEST_RULES.payments,
      ),
    );
    expect(held).toMatchObject({ code: 'PURCHASE_HOLD', status: 403 });
    expect(await clearPurchaseHold(db, member)).toBe(true);
    await quotePurchase(
      db,
      sandbox.gateway,
      { memberId: member, packId: 'coin-500', method: 'sandbox' },
      TEST_RULES.payments,
    );
  });

  it('a refund that arrives before the payment was ever confirmed credits nothing, in either order', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const { orderId, redirectUrl } = await checkoutAsMember(db, sandbox.gateway, member, 'coin-500');
    const paidWebhook = (await payAndCollect(redirectUrl)).webhook;
    const [row] = await db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
    await sandbox.api('POST', `/payments/${row!.providerRef}/refunds`, { amount: 500 });
    const refundWebhook = await sandbox.waitForEvent('payment.refunded', orderId);
    // The refund's event is processed before the payment's.
    for (const webhook of [refundWebhook, paidWebhook]) {
      const received = await receiveWebhook(db, sandbox.gateway, 'sandbox', {
        headers: new Headers(webhook.headers),
        rawBody: webhook.body,
      });
      await processPaymentEvents(db, sandbox.gateway, { rules: TEST_RULES.payments, ids: received.stored });
    }
    expect((await getOrder(db, member, orderId))!.status).toBe('refunded');
    expect(await getBalance(db, member)).toMatchObject({ paid: 0, free: 0 });
  });
});

describe('abandoned checkouts and the report', () => {
  it('expires checkouts left open and cancels them at the provider', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const { orderId, redirectUrl } = await checkoutAsMember(db, sandbox.gateway, member, 'coin-500');
    const later = new Date(Date.now() + 61 * 60_000);
    expect(await expireStaleOrders(db, sandbox.gateway, TEST_RULES.payments, later)).toBeGreaterThanOrEqual(1);
    expect((await getOrder(db, member, orderId))!.status).toBe('expired');
    const page = await sandbox.app.request(new URL(redirectUrl).pathname.replace('/sandbox', ''));
    expect(await page.text()).toContain('すでに処理されました');
  });

  it('reports unused paid coins at a base date from the ledger', async () => {
    const db = handle.db;
    const member = await createMember(db);
    // Every other test's coins expire long before 2030, so this member's are the only ones then.
    await grantCoins(db, {
      lifetimeDays: TEST_RULES.coinLifetimes,
      memberId: member,
      kind: 'paid',
      amount: 7000,
      reason: 'purchase',
      counterAccount: 'purchase',
      idempotencyKey: `test:report:${member}`,
      now: new Date('2030-03-01T00:00:00+09:00'),
      expiresAt: new Date('2030-08-01T00:00:00+09:00'),
    });
    await grantCoins(db, {
      lifetimeDays: TEST_RULES.coinLifetimes,
      memberId: member,
      kind: 'free',
      amount: 500,
      reason: 'operator_grant',
      counterAccount: 'promotion',
      idempotencyKey: `test:report-free:${member}`,
      now: new Date('2030-03-01T00:00:00+09:00'),
      expiresAt: new Date('2030-08-01T00:00:00+09:00'),
    });
    const report = await unusedPaidBalanceReport(db, '2030-03-31');
    expect(report).toMatchObject({
      unusedPaidCoins: 7000,
      membersWithBalance: 1,
      issuedInPeriod: 7000,
      exceedsThreshold: false,
      asOf: '2030-03-31T14:59:59.999Z',
    });
    // Before it was bought, and after it expired (even before the expiry job wrote it off), it does not count.
    expect((await unusedPaidBalanceReport(db, '2029-09-30')).unusedPaidCoins).toBe(0);
    expect((await unusedPaidBalanceReport(db, '2030-09-30')).unusedPaidCoins).toBe(0);
    await expect(unusedPaidBalanceReport(db, '2030-04-01')).rejects.toThrow('基準日');
    expect(baseDateBefore(new Date('2026-11-22T00:00:00Z'))).toBe('2026-09-30');
    expect(baseDateBefore(new Date('2027-03-31T15:30:00Z'))).toBe('2027-03-31');
    expect(baseDateBefore(new Date('2027-03-30T14:30:00Z'))).toBe('2026-09-30');
  });
});
