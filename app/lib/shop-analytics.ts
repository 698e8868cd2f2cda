// The GA4 `purchase` event of a completed coin purchase (specification sections 3 and 9): currency
// JPY, value = the paid coins, the label 'paid coin' plus the bonus suffix, and the purchase product
// (product_id, paid_coin, free_coin, user_id). Sent once per order, whatever reloads follow.
import { track } from './analytics';

/** What the event needs of an order (OrderView has all of it). */
export interface PurchaseEventOrder {
  id: string;
  packName: string;
  coinPackId: string;
  amountJpy: number;
  paidCoins: number;
  bonusCoins: number;
  rankBonusCoins: number;
  /** 'paid coin' or 'paid coin + N bonus coin' (modules/payments purchaseEventLabel). */
  analyticsLabel: string;
}

export interface PurchaseEvent {
  event: 'purchase';
  ecommerce: {
    transaction_id: string;
    currency: 'JPY';
    value: number;
    items: { item_id: string; item_name: string; price: number; quantity: 1 }[];
  };
  product: { product_id: string; paid_coin: number; free_coin: number; user_id: string };
}

/**
 * @example purchaseEvent(order, 'm1').ecommerce // { transaction_id: order.id, currency: 'JPY', value: 1000, items: [{ item_name: 'paid coin + 10 bonus coin', … }] }
 */
export function purchaseEvent(order: PurchaseEventOrder, userId: string): PurchaseEvent {
  const productId = order.coinPackId;
  return {
    event: 'purchase',
    ecommerce: {
      transaction_id: order.id,
      currency: 'JPY',
      value: order.paidCoins,
      items: [{ item_id: productId, item_name: order.analyticsLabel, price: order.amountJpy, quantity: 1 }],
    },
    product: {
      product_id: productId,
      paid_coin: order.paidCoins,
      free_coin: order.bonusCoins + order.rankBonusCoins,
      user_id: userId,
    },
  };
}

const SENT_KEY = 'oripa.purchase-events-sent';
const REMEMBERED = 50;

function sentOrderIds(): string[] {
  try {
    const value = JSON.parse(localStorage.getItem(SENT_KEY) ?? '[]') as unknown;
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Pushes the purchase event unless this browser already sent it for the order (the ids are kept in
 * localStorage). Returns whether it was sent now.
 * @example trackPurchaseOnce(order, member.id) // true the first time, false after
 */
export function trackPurchaseOnce(order: PurchaseEventOrder, userId: string): boolean {
  const sent = sentOrderIds();
  if (sent.includes(order.id)) return false;
  try {
    localStorage.setItem(SENT_KEY, JSON.stringify([...sent, order.id].slice(-REMEMBERED)));
  } catch {
    // Storage may be unavailable (private mode): the event is still sent, once per page view.
  }
  track(purchaseEvent(order, userId));
  return true;
}
