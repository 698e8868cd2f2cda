// An abandoned 初回限定 checkout (decision 058): it can be found and resumed by its member only, and
// cancelled, which frees the first-purchase pack at once. A payment that still completes after the
// cancel (a wallet that paid while the cancel was on its way) is credited once by the late-payment rules,
// or, when the member meanwhile bought the offer again, held for an operator's refund; never credited twice.
import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember, TEST_RULES } from '#tests/fixtures';
import { getBalance } from '#modules/wallet';
import {
  cancelPendingOrder,
  checkPaymentInvariants,
  ensureDefaultCoinPacks,
  getOrder,
  openCheckoutIds,
  openCheckoutOf,
  openFirstPurchaseCheckoutOf,
  processPaymentEvents,
  receiveWebhook,
  PurchaseRefused,
  type PaymentGateway,
} from './index';
import { checkoutAsMember, sandboxHarness, type SandboxHarness } from './testing';

const handle = useTestDatabase('payments_open_checkouts', { poolSize: 4, invariants: 'afterEach' });
let sandbox: SandboxHarness;
const rules = TEST_RULES.payments;

beforeAll(async () => {
  await ensureDefaultCoinPacks(handle.db);
  sandbox = sandboxHarness(handle.db);
});
afterEach(async () => {
  expect(await checkPaymentInvariants(handle.db)).toEqual([]);
});

/** The sandbox, except that its cancel is accepted while the member's payment still goes through. */
const leakyCancel = (): PaymentGateway => ({
  providers: { sandbox: { ...sandbox.gateway.providers.sandbox!, cancel: async () => undefined } },
});

/** The member pays on the provider's page; the provider's webhook reaches the shop and is processed. */
async function payLate(redirectUrl: string, orderId: string) {
  await sandbox.decide(redirectUrl, 'approve');
  const webhook = await sandbox.waitForEvent('payment.succeeded', orderId);
  await deliver(webhook);
  return webhook;
}

/** One delivery of a webhook the provider sent (again, when a provider retries). */
async function deliver(webhook: { headers: Record<string, string>; body: string }) {
  const received = await receiveWebhook(handle.db, sandbox.gateway, 'sandbox', {
    headers: new Headers(webhook.headers),
    rawBody: webhook.body,
  });
  await processPaymentEvents(handle.db, sandbox.gateway, { rules, ids: received.stored });
}

describe('an abandoned 初回限定 checkout', () => {
  it('is found and resumed by its member only, and blocks the offer until it is cancelled', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const other = await createMember(db);
    const first = await checkoutAsMember(db, sandbox.gateway, member, 'first-500');

    expect(await openFirstPurchaseCheckoutOf(db, member)).toMatchObject({
      orderId: first.orderId,
      packName: '初回限定 500コイン',
      amountJpy: 500,
      firstPurchaseOnly: true,
    });
    expect(await openCheckoutOf(db, member, first.orderId)).toMatchObject({ checkoutUrl: first.redirectUrl });
    expect(await openCheckoutOf(db, other, first.orderId)).toBeNull();
    expect(await openCheckoutOf(db, member, 'not-a-uuid')).toBeNull();
    expect([...(await openCheckoutIds(db, member, [first.orderId]))]).toEqual([first.orderId]);
    expect((await openCheckoutIds(db, other, [first.orderId])).size).toBe(0);
    // Past its time it is no longer offered (the expiry job closes it).
    const later = new Date(Date.now() + (rules.checkoutExpiryMinutes + 1) * 60_000);
    expect(await openCheckoutOf(db, member, first.orderId, later)).toBeNull();
    expect(await openFirstPurchaseCheckoutOf(db, member, later)).toBeNull();

    // The offer waits on it today.
    const blocked = await checkoutAsMember(db, sandbox.gateway, member, 'first-500').catch((e: unknown) => e);
    expect(blocked).toBeInstanceOf(PurchaseRefused);
    expect((blocked as PurchaseRefused).refusal.details).toMatchObject({ pendingCheckout: true });

    // Another member cannot cancel it; its member can, and the offer is free again at once.
    expect(await cancelPendingOrder(db, sandbox.gateway, other, first.orderId, rules)).toBeNull();
    expect(await getOrder(db, member, first.orderId)).toMatchObject({ status: 'pending' });
    expect(await cancelPendingOrder(db, sandbox.gateway, member, first.orderId, rules)).toMatchObject({
      status: 'canceled',
    });
    expect(await openFirstPurchaseCheckoutOf(db, member)).toBeNull();
    expect(await openCheckoutOf(db, member, first.orderId)).toBeNull();
    const again = await checkoutAsMember(db, sandbox.gateway, member, 'first-500');
    expect(again.orderId).not.toBe(first.orderId);
    // A second cancel of the same order changes nothing.
    expect(await cancelPendingOrder(db, sandbox.gateway, member, first.orderId, rules)).toMatchObject({
      status: 'canceled',
    });
  });

  it('a payment completed at the provider before the cancel is credited, not cancelled', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const first = await checkoutAsMember(db, sandbox.gateway, member, 'first-500');
    await sandbox.decide(first.redirectUrl, 'approve');
    expect(await cancelPendingOrder(db, sandbox.gateway, member, first.orderId, rules)).toMatchObject({
      status: 'paid',
    });
    expect(await getBalance(db, member)).toMatchObject({ paid: 500, free: 500 });
  });

  it('a payment that completes after the cancel is credited once when the offer is still unused', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const first = await checkoutAsMember(db, sandbox.gateway, member, 'first-500');
    expect(await cancelPendingOrder(db, leakyCancel(), member, first.orderId, rules)).toMatchObject({
      status: 'canceled',
    });
    const webhook = await payLate(first.redirectUrl, first.orderId);
    expect(await getOrder(db, member, first.orderId)).toMatchObject({ status: 'paid' });
    expect(await getBalance(db, member)).toMatchObject({ paid: 500, free: 500 });
    // The provider retries the same webhook: nothing more is credited.
    await deliver(webhook);
    expect(await getBalance(db, member)).toMatchObject({ paid: 500, free: 500 });
  });

  it('a payment that completes after the cancel, when the offer was bought again meanwhile, is held for a refund', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const first = await checkoutAsMember(db, sandbox.gateway, member, 'first-500');
    await cancelPendingOrder(db, leakyCancel(), member, first.orderId, rules);
    // The member starts again and pays the new checkout.
    const second = await checkoutAsMember(db, sandbox.gateway, member, 'first-500');
    await payLate(second.redirectUrl, second.orderId);
    expect(await getBalance(db, member)).toMatchObject({ paid: 500, free: 500 });
    // Then the abandoned one's payment arrives: no second offer; an operator refunds it.
    await payLate(first.redirectUrl, first.orderId);
    expect(await getOrder(db, member, first.orderId)).toMatchObject({
      status: 'review',
      failureReason: 'late_payment_first_purchase_used',
      creditedAt: null,
    });
    expect(await getBalance(db, member)).toMatchObject({ paid: 500, free: 500 });
  });
});
