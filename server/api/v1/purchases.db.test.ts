// createPurchase and its Idempotency-Key (D2): the same key with the same body opens the same checkout;
// the same key with another pack, method or channel is refused with 409 IDEMPOTENCY_KEY_REUSED, as the
// operation's OpenAPI declares, instead of answering 201 with the first order.
import { TEST_RULES } from '#tests/fixtures';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createApiV1 } from './index';
import { createApiTestServices, requestJson, signUpTestMember } from './testing';
import { paymentServicesFor } from '#server/payments';
import type { ShopServices } from '#server/services';
import { ensureDefaultCoinPacks } from '#modules/payments';
import { sandboxHarness } from '#modules/payments/testing';
import { paymentOrders } from '#db/schema';

let services: ShopServices;
let close: () => Promise<void>;
let api: ReturnType<typeof createApiV1>;

beforeAll(async () => {
  ({ services, close } = await createApiTestServices('purchase_idempotency'));
  await ensureDefaultCoinPacks(services.db);
  services.payments = paymentServicesFor(sandboxHarness(services.db).gateway, TEST_RULES.payments);
  api = createApiV1(services);
});
afterAll(async () => {
  await close?.();
});

/** A member who declared their age, with a purchase request of their own. */
async function memberReadyToBuy() {
  const member = await signUpTestMember(services);
  const auth = { authorization: `Bearer ${member.bearer}` };
  const declared = await requestJson(api, '/me/age-declaration', {
    method: 'PUT',
    headers: auth,
    body: { minor: false },
  });
  expect(declared.status).toBe(200);
  const purchase = (key: string, body: Record<string, unknown>) =>
    requestJson(api, '/me/purchases', { method: 'POST', headers: { ...auth, 'idempotency-key': key }, body });
  return { member, purchase };
}

describe('createPurchase with an Idempotency-Key', () => {
  it('answers the first order again for the same key and the same body', async () => {
    const { purchase } = await memberReadyToBuy();
    const first = await purchase('buy-1', { packId: 'coin-1000', method: 'sandbox', channel: 'web' });
    expect(first.status).toBe(201);
    const again = await purchase('buy-1', { packId: 'coin-1000', method: 'sandbox', channel: 'web' });
    expect(again.status).toBe(201);
    expect(again.json.purchase.id).toBe(first.json.purchase.id);
    expect(again.json.redirectUrl).toBe(first.json.redirectUrl);
  });

  it('refuses the same key with another pack, method or channel, and makes no second order', async () => {
    const { member, purchase } = await memberReadyToBuy();
    const first = await purchase('buy-2', { packId: 'coin-1000', method: 'sandbox', channel: 'app' });
    expect(first.status).toBe(201);
    for (const body of [
      { packId: 'coin-5000', method: 'sandbox', channel: 'app' },
      { packId: 'coin-1000', method: 'stripe', channel: 'app' },
      { packId: 'coin-1000', method: 'sandbox', channel: 'web' },
    ]) {
      const reused = await purchase('buy-2', body);
      expect(reused.status, JSON.stringify(body)).toBe(409);
      expect(reused.json.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(reused.json.error.message).toMatch(/[ぁ-んァ-ン一-龯]/);
    }
    const orders = await services.db.select().from(paymentOrders);
    const mine = orders.filter((order) => order.memberId === member.id);
    expect(mine.map((order) => [order.id, order.coinPackId, order.method, order.channel])).toEqual([
      [first.json.purchase.id, 'coin-1000', 'sandbox', 'app'],
    ]);
    // The first body still gets its order.
    expect((await purchase('buy-2', { packId: 'coin-1000', method: 'sandbox', channel: 'app' })).json.purchase.id).toBe(
      first.json.purchase.id,
    );
  });
});
