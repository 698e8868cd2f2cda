// Confirmation: the return page and the webhook both come here. Coins are credited exactly once when
// the provider confirms; a refund or chargeback reverses them (decision 008).
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { grantCoins } from '#modules/wallet';
import { isUuid } from '#modules/kernel';
import { notifyMember } from '#modules/mailbox';
import { limitsInForce, purchaseSelfLimitRefusal } from '#modules/limits';
import { paymentOrders, purchaseProfiles } from './schema';
import { type PaymentMethod } from './methods';
import { type ProviderPayment } from './providers/types';
import { type OrderView, toOrderView } from './orders';
import { monthlyCommittedJpy } from './packs';
import { findOrder } from './purchase-inputs';
import {
  type PaymentGateway,
  type PaymentOutcome,
  PurchaseRefused,
  type ShopPaymentRules,
  reportOutcome,
  rowsOf,
  yen,
} from './rules';

export type SyncResult = { order: OrderView; credited: boolean };

/**
 * Asks the provider how the order's payment stands (outside any transaction) and applies the answer.
 * Safe to call any number of times, from the return page and the webhook at once: the order row is
 * locked while the answer is applied and the grants carry one key per order.
 */
export async function syncOrder(
  db: Database,
  gateway: PaymentGateway,
  orderId: string,
  options: { returnParams?: URLSearchParams; rules: ShopPaymentRules; now?: Date; eventHint?: string },
): Promise<SyncResult | null> {
  const order = await findOrder(db, orderId);
  if (!order) return null;
  if (isSettled(order)) return { order: toOrderView(order), credited: false };
  const provider = gateway.providers[order.method as PaymentMethod];
  if (!provider || !order.providerRef) return { order: toOrderView(order), credited: false };
  let payment = await provider.fetchPayment(
    { orderId: order.id, providerRef: order.providerRef, amountJpy: order.amountJpy },
    options.returnParams,
  );
  // Amazon Pay keeps a disputed charge "Captured" and has no call that lists a charge's disputes: its
  // verified dispute notification (re-read from Amazon's API when it arrived) is the only word on it.
  // Every other provider's own answer says charged_back itself, so only this one trusts the event.
  if (payment.status === 'paid' && options.eventHint === 'charged_back' && order.method === 'amazonpay') {
    payment = { status: 'charged_back', amountJpy: payment.amountJpy, providerPaymentId: payment.providerPaymentId };
  }
  if ('providerPaymentId' in payment && order.providerRef.startsWith('pending:'))
    await adoptProviderRef(db, order.id, payment.providerPaymentId);
  return applyProviderPayment(db, order.id, payment, options.rules, options.now);
}

/** Records the provider's payment id on an order that had only a placeholder ("pending:<order>"). */
export async function adoptProviderRef(db: Database, orderId: string, providerRef: string) {
  await db
    .update(paymentOrders)
    .set({ providerRef, updatedAt: new Date() })
    .where(and(eq(paymentOrders.id, orderId), sql`${paymentOrders.providerRef} like 'pending:%'`));
}

/** Nothing more can happen to these (a refund or chargeback of a paid order still can). */
const isSettled = (o: typeof paymentOrders.$inferSelect) =>
  o.status === 'charged_back' || (o.status === 'refunded' && o.reversedAt !== null && o.refundedJpy >= o.amountJpy);

/**
 * Applies what the provider said, under the order's row lock. Crediting is once per order (the
 * order's credited_at, and the grants' idempotency keys underneath); events may come in any order.
 */
export async function applyProviderPayment(
  db: Database,
  orderId: string,
  payment: ProviderPayment,
  rules: ShopPaymentRules,
  now = new Date(),
): Promise<SyncResult> {
  let changed: { method: string; status: PaymentOutcome } | undefined;
  const result = await db.transaction(async (tx) => {
    const t: Database = tx;
    const [order] = await t.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)).for('update');
    if (!order) throw new Error(`order ${orderId} vanished`);
    let credited = false;
    const update: Partial<typeof paymentOrders.$inferInsert> = {};
    switch (payment.status) {
      case 'pending':
        break;
      case 'paid': {
        // Credited already, or a refund/chargeback read meanwhile (this answer is older): nothing to do.
        // An order held for review waits for an operator, whatever the provider says later.
        if (
          order.creditedAt ||
          order.status === 'refunded' ||
          order.status === 'charged_back' ||
          order.status === 'review'
        )
          break;
        update.providerPaymentId = payment.providerPaymentId;
        if (order.status !== 'pending') {
          // Paid after the order was canceled or expired (another tab, a late wallet): the caps and
          // the first-purchase rule are checked again, since the order stopped counting meanwhile.
          const problem = await latePaymentProblem(t, order, rules, now);
          if (problem) {
            update.status = 'review';
            update.failureReason = problem;
            break;
          }
        }
        if (payment.amountJpy !== order.amountJpy) {
          // Money moved, but not the amount we asked for: nothing is credited until an operator looks.
          update.status = 'review';
          update.failureReason = `amount_mismatch:${payment.amountJpy}`;
          break;
        }
        Object.assign(update, await creditOrder(t, order, rules, now));
        credited = true;
        break;
      }
      case 'failed':
      case 'canceled':
        if (order.status === 'pending') {
          update.status = payment.status;
          if (payment.status === 'failed') update.failureReason = payment.reason;
        }
        break;
      case 'refunded':
      case 'charged_back': {
        update.providerPaymentId = payment.providerPaymentId;
        const refunded = payment.status === 'refunded' ? payment.refundedJpy : order.amountJpy;
        update.refundedJpy = Math.max(order.refundedJpy, refunded);
        if (!order.creditedAt) {
          // Refunded before we ever credited (events out of order, or an order held for review): it
          // never will be. A partial refund of a held order leaves it held.
          if (!(payment.status === 'refunded' && refunded < payment.amountJpy)) update.status = payment.status;
          break;
        }
        if (payment.status === 'refunded' && refunded < payment.amountJpy) {
          // A partial refund made at the provider: coins are not guessed at; an operator decides.
          update.status = 'review';
          update.failureReason = `partial_refund:${refunded}`;
          break;
        }
        if (!order.reversedAt) Object.assign(update, await reverseOrder(t, order, payment.status, now));
        update.status = payment.status;
        break;
      }
    }
    if (Object.keys(update).length === 0) return { order: toOrderView(order), credited };
    update.updatedAt = now;
    const [saved] = await t.update(paymentOrders).set(update).where(eq(paymentOrders.id, orderId)).returning();
    if (update.status && update.status !== order.status)
      changed = { method: order.method, status: update.status as PaymentOutcome };
    return { order: toOrderView(saved!), credited };
  });
  // Counted once it is written (the counters hear nothing of a rolled-back change).
  if (changed) reportOutcome(rules, changed.method, changed.status);
  return result;
}

/** Why a payment that arrived after its order stopped counting cannot be credited as is, or null. */
async function latePaymentProblem(
  t: Database,
  order: typeof paymentOrders.$inferSelect,
  rules: ShopPaymentRules,
  now: Date,
): Promise<string | null> {
  await t.execute(sql`select 1 from purchase_profiles where member_id = ${order.memberId} for update`);
  const [profile] = await t.select().from(purchaseProfiles).where(eq(purchaseProfiles.memberId, order.memberId));
  const cap = profile?.declaredMinor ? rules.minorMonthlyCapJpy : rules.monthlyCapJpy;
  // The month the order was made in is the month it counts against.
  const committed = await monthlyCommittedJpy(t, order.memberId, now, order.createdAt);
  if (committed + order.amountJpy > cap) return 'late_payment_over_cap';
  // The member's own limit or exclusion as it stands when the payment arrives (docs/decisions/035).
  if (purchaseSelfLimitRefusal(await limitsInForce(t, order.memberId, now), committed, order.amountJpy)) {
    return 'late_payment_over_self_limit';
  }
  if (order.firstPurchaseOnly) {
    const [other] = await t
      .select({ n: sql<number>`count(*)::int` })
      .from(paymentOrders)
      .where(and(eq(paymentOrders.memberId, order.memberId), isNotNull(paymentOrders.creditedAt)));
    if ((other?.n ?? 0) > 0) return 'late_payment_first_purchase_used';
  }
  return null;
}

async function creditOrder(t: Database, order: typeof paymentOrders.$inferSelect, rules: ShopPaymentRules, now: Date) {
  const paid = await grantCoins(t, {
    memberId: order.memberId,
    kind: 'paid',
    amount: order.paidCoins,
    reason: 'purchase',
    counterAccount: 'purchase',
    idempotencyKey: `purchase:${order.id}:paid`,
    ref: order.id,
    memo: order.receiptNo,
    now,
    lifetimeDays: { paid: rules.paidCoinDays, free: rules.freeCoinDays },
  });
  const bonus = order.bonusCoins + order.rankBonusCoins;
  const free =
    bonus > 0
      ? await grantCoins(t, {
          memberId: order.memberId,
          kind: 'free',
          amount: bonus,
          reason: 'purchase_bonus',
          counterAccount: 'promotion',
          idempotencyKey: `purchase:${order.id}:bonus`,
          ref: order.id,
          memo: order.receiptNo,
          now,
          lifetimeDays: { paid: rules.paidCoinDays, free: rules.freeCoinDays },
        })
      : null;
  // The mailbox's receipt, in the crediting transaction: once per order (a retried webhook writes nothing more).
  await notifyMember(t, {
    memberId: order.memberId,
    category: 'purchase_complete',
    dedupeKey: `purchase:${order.id}`,
    subject: 'コインの購入が完了しました',
    body: [
      `「${order.packName}」のご購入ありがとうございます（受付番号 ${order.receiptNo}）。`,
      `${order.paidCoins.toLocaleString('ja-JP')}コイン${bonus > 0 ? `と、ボーナス${bonus.toLocaleString('ja-JP')}コイン（無償コイン）` : ''}をお届けしました。`,
      `お支払い金額: ${yen(order.amountJpy)}`,
    ].join('\n'),
    sendAt: now,
  });
  return {
    status: 'paid' as const,
    creditedAt: now,
    paidGrantId: paid.grantId,
    bonusGrantId: free?.grantId ?? null,
    failureReason: null,
  };
}

/**
 * Why an order is held for review, in the operators' words.
 * @example reviewReasonText('amount_mismatch:5000') === '支払われた金額が注文と違う（¥5,000）'
 */
export function reviewReasonText(reason: string | null): string {
  if (!reason) return '理由の記録なし';
  const [code, amount] = reason.split(':');
  const money = amount && /^\d+$/.test(amount) ? yen(Number(amount)) : '';
  switch (code) {
    case 'late_payment_over_cap':
      return '期限後に届いた支払いで、月の購入上限を超える';
    case 'late_payment_over_self_limit':
      return '期限後に届いた支払いで、会員ご本人が設定した購入上限または自己除外にかかる';
    case 'late_payment_first_purchase_used':
      return '期限後に届いた支払いで、初回限定パックはすでに購入済み';
    case 'amount_mismatch':
      return `支払われた金額が注文と違う（${money}）`;
    case 'partial_refund':
      return `決済事業者で一部返金された（${money}）`;
    default:
      return reason;
  }
}

/** What an operator may decide on an order held for review, besides refunding it. */
export const REVIEW_DECISIONS = ['credit', 'keep'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/**
 * The decisions an order held for review allows, from why it was held: a payment that arrived late
 * (over the monthly cap, or a first-purchase pack already used) may be credited as it is; a partial
 * refund made at the provider on a credited order may be closed with the coins kept. An amount that
 * did not match is only ever refunded.
 * @example reviewDecisionsFor({ status: 'review', creditedAt: null, failureReason: 'late_payment_over_cap' }) // ['credit']
 */
export function reviewDecisionsFor(order: {
  status: string;
  creditedAt: Date | null;
  failureReason: string | null;
  providerPaymentId?: string | null;
}): ReviewDecision[] {
  if (order.status !== 'review') return [];
  const reason = order.failureReason ?? '';
  if (!order.creditedAt && reason.startsWith('late_payment') && order.providerPaymentId) return ['credit'];
  if (order.creditedAt && reason.startsWith('partial_refund')) return ['keep'];
  return [];
}

/**
 * An operator's decision on an order held for review, under the order's row lock: `credit` grants the
 * order's coins once (the same grants and keys as an ordinary crediting) and marks it paid; `keep`
 * closes a credited order after a partial refund with its coins as they are. Refused when the order
 * is not in review (ORDER_NOT_IN_REVIEW) or the decision does not fit why it was held.
 * @example await decideReviewedOrder(tx, orderId, 'credit', rules)
 */
export async function decideReviewedOrder(
  db: Database,
  orderId: string,
  decision: ReviewDecision,
  rules: ShopPaymentRules,
  now = new Date(),
): Promise<{ before: Record<string, unknown>; after: Record<string, unknown> }> {
  const decided = await db.transaction(async (tx) => {
    const t: Database = tx;
    const [order] = isUuid(orderId)
      ? await t.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)).for('update')
      : [];
    if (!order) throw new PurchaseRefused('ORDER_NOT_FOUND', { orderId });
    if (order.status !== 'review') throw new PurchaseRefused('ORDER_NOT_IN_REVIEW', { status: order.status });
    if (!reviewDecisionsFor(order).includes(decision))
      throw new PurchaseRefused('REVIEW_DECISION_NOT_ALLOWED', { decision, reason: order.failureReason });
    const before = { status: order.status, failureReason: order.failureReason, creditedAt: order.creditedAt };
    const update =
      decision === 'credit'
        ? await creditOrder(t, order, rules, now)
        : { status: 'paid' as const, failureReason: order.failureReason };
    await t
      .update(paymentOrders)
      .set({ ...update, updatedAt: now })
      .where(eq(paymentOrders.id, orderId));
    return {
      method: order.method,
      before,
      after: { status: update.status, decision, creditedAt: decision === 'credit' ? now : order.creditedAt },
    };
  });
  reportOutcome(rules, decided.method, 'paid');
  return { before: decided.before, after: decided.after };
}

/**
 * Takes back what is left of the order's coins (decision 008). Coins already spent stay spent: the
 * shortfall is recorded on the order and, for a chargeback, the member's purchases are held until
 * an operator settles it.
 */
async function reverseOrder(
  t: Database,
  order: typeof paymentOrders.$inferSelect,
  kind: 'refunded' | 'charged_back',
  now: Date,
) {
  const revoke = async (grantId: number | null, part: string) => {
    if (!grantId) return 0;
    const result = await t.execute(
      sql`select wallet_revoke_grant(${grantId}::bigint, 'purchase_reversal', 'purchase', ${`reversal:${order.id}:${part}`}::text, ${order.id}::text, ${now.toISOString()}::timestamptz) as r`,
    );
    return Number(rowsOf<{ r: { revoked: number } }>(result)[0]!.r.revoked);
  };
  const reversedPaid = await revoke(order.paidGrantId, 'paid');
  const reversedFree = await revoke(order.bonusGrantId, 'bonus');
  const unrecovered = order.paidCoins + order.bonusCoins + order.rankBonusCoins - reversedPaid - reversedFree;
  if (kind === 'charged_back' && unrecovered > 0) {
    await t
      .insert(purchaseProfiles)
      .values({ memberId: order.memberId, declaredMinor: false, holdReason: `chargeback:${order.id}`, holdAt: now })
      .onConflictDoUpdate({
        target: purchaseProfiles.memberId,
        set: { holdReason: `chargeback:${order.id}`, holdAt: now },
      });
  }
  await notifyMember(t, {
    memberId: order.memberId,
    category: 'purchase_reversed',
    dedupeKey: `purchase-reversed:${order.id}`,
    subject: kind === 'refunded' ? 'コインの購入を返金しました' : 'コインの購入が取り消されました',
    body: [
      `「${order.packName}」のご購入（受付番号 ${order.receiptNo}）は、${kind === 'refunded' ? '返金' : '決済事業者によるチャージバック'}により取り消されました。`,
      `残っていたコイン ${(reversedPaid + reversedFree).toLocaleString('ja-JP')}コインを取り消しました。`,
      kind === 'charged_back' && unrecovered > 0
        ? 'すでに使われたコインがあるため、確認が済むまでコインの購入をお止めしています。お問い合わせください。'
        : '',
    ].join('\n'),
    sendAt: now,
  });
  return { reversedPaid, reversedFree, unrecoveredCoins: unrecovered, reversedAt: now };
}
