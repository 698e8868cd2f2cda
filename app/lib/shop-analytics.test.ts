// The purchase event (specification section 9): JPY, value = paid coins, label 'paid coin' plus the
// bonus suffix, the purchase product, and sent once per order.
import { describe, it, expect, beforeEach, afterAll } from 'vitest';
import { purchaseEvent, trackPurchaseOnce, type PurchaseEventOrder } from './shop-analytics';
import { purchaseEventLabel } from '#modules/payments/methods';

class MemoryStorage {
  private values = new Map<string, string>();
  getItem(key: string) {
    return this.values.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.values.set(key, value);
  }
}

const order = (over: Partial<PurchaseEventOrder> = {}): PurchaseEventOrder => ({
  id: '7f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f',
  coinPackId: 'coin-1000',
  packName: '1,000コイン',
  amountJpy: 1_000,
  paidCoins: 1_000,
  bonusCoins: 0,
  rankBonusCoins: 0,
  analyticsLabel: purchaseEventLabel(0),
  ...over,
});

beforeEach(() => {
  Object.assign(globalThis, { localStorage: new MemoryStorage(), window: globalThis });
  delete (globalThis as { dataLayer?: unknown }).dataLayer;
});
// Unit test files share their worker (vitest.config.ts, isolate: false): leave no browser globals behind.
afterAll(() => {
  for (const name of ['localStorage', 'window', 'dataLayer']) delete (globalThis as Record<string, unknown>)[name];
});

describe('purchase event', () => {
  it('is a GA4 purchase in JPY worth the paid coins, labelled paid coin without a bonus', () => {
    expect(purchaseEvent(order(), 'member-1')).toEqual({
      event: 'purchase',
      ecommerce: {
        transaction_id: '7f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f',
        currency: 'JPY',
        value: 1_000,
        items: [{ item_id: 'coin-1000', item_name: 'paid coin', price: 1_000, quantity: 1 }],
      },
      product: { product_id: 'coin-1000', paid_coin: 1_000, free_coin: 0, user_id: 'member-1' },
    });
  });

  it('adds the bonus suffix and counts pack and rank bonus as free coins', () => {
    const event = purchaseEvent(
      order({
        coinPackId: 'coin-5000',
        packName: '5,000コイン',
        amountJpy: 5_000,
        paidCoins: 5_000,
        bonusCoins: 150,
        rankBonusCoins: 150,
        analyticsLabel: purchaseEventLabel(300),
      }),
      'member-2',
    );
    expect(event.ecommerce).toMatchObject({ currency: 'JPY', value: 5_000 });
    expect(event.ecommerce.items).toEqual([
      { item_id: 'coin-5000', item_name: 'paid coin + 300 bonus coin', price: 5_000, quantity: 1 },
    ]);
    expect(event.product).toEqual({ product_id: 'coin-5000', paid_coin: 5_000, free_coin: 300, user_id: 'member-2' });
  });

  it('is pushed once per order', () => {
    expect(trackPurchaseOnce(order(), 'member-1')).toBe(true);
    expect(trackPurchaseOnce(order(), 'member-1')).toBe(false);
    expect(trackPurchaseOnce(order({ id: 'another-order' }), 'member-1')).toBe(true);
    const layer =
      (globalThis as { dataLayer?: { event: string; ecommerce: { transaction_id: string } }[] }).dataLayer ?? [];
    expect(layer.map((e) => [e.event, e.ecommerce.transaction_id])).toEqual([
      ['purchase', '7f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f'],
      ['purchase', 'another-order'],
    ]);
  });
});
