// What the rules' listener hears (the metrics' payments by provider and outcome, decision 072): one word
// per order change written — a checkout started, paid once however often it is confirmed, declined,
// canceled, expired, refunded — and a listener that throws changes nothing of the payment.
import { describe, it, expect, beforeAll } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember } from '#tests/fixtures';
import { getBalance } from '#modules/wallet';
import {
  cancelPendingOrder,
  declareAge,
  DEFAULT_PAYMENT_RULES,
  ensureDefaultCoinPacks,
  expireStaleOrders,
  refundOrder,
  startCheckout,
  syncOrder,
  type PaymentOutcome,
  type ShopPaymentRules,
} from './index';
import { sandboxHarness, TEST_ORIGIN, type SandboxHarness } from './testing';

const handle = useTestDatabase('payment-outcomes', { invariants: 'afterEach' });
let sandbox: SandboxHarness;
const heard: { method: string; outcome: PaymentOutcome }[] = [];
const rules: ShopPaymentRules = { ...DEFAULT_PAYMENT_RULES, onOutcome: (event) => heard.push(event) };

beforeAll(async () => {
  await ensureDefaultCoinPacks(handle.db);
  sandbox = sandboxHarness(handle.db);
});

async function checkout(member: string, options: { rules?: ShopPaymentRules } = {}) {
  await declareAge(handle.db, member, false);
  return startCheckout(
    handle.db,
    sandbox.gateway,
    { memberId: member, packId: 'coin-1000', method: 'sandbox', origin: TEST_ORIGIN },
    options.rules ?? rules,
  );
}

describe('payment outcomes told to the rules’ listener', () => {
  it('hears a checkout start, then paid once however often the payment is confirmed, then a refund', async () => {
    heard.length = 0;
    const member = await createMember(handle.db);
    const { orderId, redirectUrl } = await checkout(member);
    expect(heard).toEqual([{ method: 'sandbox', outcome: 'checkout_started' }]);
    const back = await sandbox.decide(redirectUrl, 'approve');
    await syncOrder(handle.db, sandbox.gateway, orderId, { rules, returnParams: back.searchParams });
    await syncOrder(handle.db, sandbox.gateway, orderId, { rules, returnParams: back.searchParams });
    await refundOrder(handle.db, sandbox.gateway, orderId, 'テスト', rules);
    expect(heard.map((event) => event.outcome)).toEqual(['checkout_started', 'paid', 'refunded']);
  });

  it('hears a declined payment, a cancel from the member and an abandoned checkout expiring', async () => {
    heard.length = 0;
    const member = await createMember(handle.db);
    const declined = await checkout(member);
    await sandbox.decide(declined.redirectUrl, 'decline');
    await syncOrder(handle.db, sandbox.gateway, declined.orderId, { rules });
    const canceled = await checkout(member);
    await cancelPendingOrder(handle.db, sandbox.gateway, member, canceled.orderId, rules);
    await checkout(member);
    const later = new Date(Date.now() + (rules.checkoutExpiryMinutes + 1) * 60_000);
    expect(await expireStaleOrders(handle.db, sandbox.gateway, rules, later)).toBe(1);
    expect(heard.map((event) => event.outcome)).toEqual([
      'checkout_started',
      'failed',
      'checkout_started',
      'canceled',
      'checkout_started',
      'expired',
    ]);
  });

  it('credits the coins even when the listener throws', async () => {
    const member = await createMember(handle.db);
    const throwing: ShopPaymentRules = {
      ...DEFAULT_PAYMENT_RULES,
      onOutcome: () => {
        throw new Error('the counter broke');
      },
    };
    const { orderId, redirectUrl } = await checkout(member, { rules: throwing });
    const back = await sandbox.decide(redirectUrl, 'approve');
    const synced = await syncOrder(handle.db, sandbox.gateway, orderId, {
      rules: throwing,
      returnParams: back.searchParams,
    });
    expect(synced).toMatchObject({ credited: true, order: { status: 'paid' } });
    expect(await getBalance(handle.db, member)).toMatchObject({ paid: 1000 });
  });
});
