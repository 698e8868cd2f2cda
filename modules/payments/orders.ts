// Orders as members and pages see them: the view of an order, receipt numbers, a member's history.
import { randomBytes } from 'node:crypto';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { type paymentOrders, type OrderStatus } from './schema';
import { PAYMENT_METHOD_INFO, isPaymentMethod, purchaseEventLabel, type PaymentMethod } from './methods';
import { TOKYO } from './rules';

export interface OrderView {
  id: string;
  receiptNo: string;
  status: OrderStatus;
  method: PaymentMethod;
  methodLabel: string;
  channel: 'web' | 'app';
  coinPackId: string;
  packName: string;
  amountJpy: number;
  paidCoins: number;
  bonusCoins: number;
  rankBonusCoins: number;
  createdAt: string;
  creditedAt: string | null;
  failureReason: string | null;
  refundedJpy: number;
  /** The GA4 purchase event's label (specification section 9). */
  analyticsLabel: string;
  /** The draw this purchase was made for (see StartCheckoutInput.drawContext), or null. */
  drawContext: DrawContext | null;
}

export const toOrderView = (o: typeof paymentOrders.$inferSelect): OrderView => ({
  id: o.id,
  receiptNo: o.receiptNo,
  status: o.status,
  method: o.method as PaymentMethod,
  methodLabel: isPaymentMethod(o.method) ? PAYMENT_METHOD_INFO[o.method].label : o.method,
  channel: o.channel === 'app' ? 'app' : 'web',
  coinPackId: o.coinPackId,
  packName: o.packName,
  amountJpy: o.amountJpy,
  paidCoins: o.paidCoins,
  bonusCoins: o.bonusCoins,
  rankBonusCoins: o.rankBonusCoins,
  createdAt: o.createdAt.toISOString(),
  creditedAt: o.creditedAt?.toISOString() ?? null,
  failureReason: o.failureReason,
  refundedJpy: o.refundedJpy,
  analyticsLabel: purchaseEventLabel(o.bonusCoins + o.rankBonusCoins),
  drawContext: o.drawGachaId && o.drawCount ? { gachaId: o.drawGachaId, count: o.drawCount } : null,
});

/** Japanese status words for history rows and the return page. */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: '決済待ち',
  paid: '購入完了',
  failed: '決済失敗',
  canceled: 'キャンセル',
  expired: '期限切れ',
  refunded: '返金済み',
  charged_back: 'チャージバック',
  review: '確認中',
};

export function newReceiptNo(now: Date) {
  const day = format(new TZDate(now, TOKYO), 'yyyyMMdd');
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(8);
  let tail = '';
  for (const b of bytes) tail += alphabet[b % alphabet.length];
  return `R${day}-${tail}`;
}

/**
 * The draw a member was short of coins for when they came to the shop: the pack's id and the count.
 * The payments module stores it as given (its shape only is checked here); the shop's pages check
 * that the pack exists and offers the count, since packs belong to the gacha module.
 */
export interface DrawContext {
  gachaId: string;
  count: number;
}
