// The operators' actions on orders (refund, the decision on a reviewed order), each through runAdminAction:
// the change and its audit entry commit together or not at all.
import type { Database } from '#db/client';
import { refuse, RefusalError } from '#modules/kernel';
import {
  applyProviderPayment,
  decideReviewedOrder,
  type ReviewDecision,
  orderForOperator,
  refundAtProvider,
  type OrderView,
  type PaymentGateway,
  type ShopPaymentRules,
} from '#modules/payments';
import { auditTextDigest, runAdminAction, type Operator } from './audit';
import { memberNotes } from './schema';
import type { OperatorOutcome } from './operations';

/**
 * Refunds a whole order (`order.refund`). The permission is checked first; the provider refunds
 * outside any transaction (a network call must not hold the database), then the coins are reversed
 * and the entry recorded together. If that last step fails, the provider's refund stands and the
 * reconciliation job applies it later, without an entry: the log shows it from the provider's side.
 * The reason is kept as a staff note on the member; the entry keeps its digest (decision 053).
 * @example await refundOrderAsOperator(db, operator, { gateway, rules, orderId, reason: 'お客様都合' })
 */
export async function refundOrderAsOperator(
  db: Database,
  operator: Operator,
  input: { gateway: PaymentGateway; rules: ShopPaymentRules; orderId: string; reason: string },
): Promise<OperatorOutcome<OrderView>> {
  if (!operator.permissions.has('orders:refund')) return refuse('PERMISSION_DENIED', { permission: 'orders:refund' });
  let refunded: Awaited<ReturnType<typeof refundAtProvider>>;
  try {
    refunded = await refundAtProvider(db, input.gateway, input.orderId, input.reason);
  } catch (error) {
    if (error instanceof RefusalError) return error.refusal;
    throw error;
  }
  return runAdminAction(db, operator, 'orders:refund', async (tx) => {
    const { order } = await applyProviderPayment(tx, input.orderId, refunded.payment, input.rules);
    return {
      value: order,
      audit: {
        action: 'order.refund',
        target: { type: 'payment_order', id: input.orderId },
        before: { status: refunded.before.status, refundedJpy: refunded.before.refundedJpy },
        after: {
          status: order.status,
          refundedJpy: order.refundedJpy,
          reason: auditTextDigest(input.reason),
          noteId: await noteOnOrderMember(
            tx,
            operator,
            input.orderId,
            (receiptNo) => `注文 ${receiptNo} の返金の理由: ${input.reason}`,
          ),
        },
      },
    };
  });
}

/**
 * Keeps an order action's reason as a staff note on the order's member (its own row, which 退会 redacts);
 * the audit entry keeps the reason's digest and the note's id (decision 053). Null without the order.
 */
async function noteOnOrderMember(
  tx: Database,
  operator: Operator,
  orderId: string,
  text: (receiptNo: string) => string,
): Promise<number | null> {
  const shown = await orderForOperator(tx, orderId);
  if (!shown) return null;
  const [note] = await tx
    .insert(memberNotes)
    .values({
      memberId: shown.order.memberId,
      authorId: operator.memberId,
      authorLabel: operator.label,
      text: text(shown.order.receiptNo),
    })
    .returning({ id: memberNotes.id });
  return note!.id;
}

/**
 * An operator's decision on an order held for review (`order.review.credit` / `order.review.keep`),
 * with the reason as a staff note on the member and its digest in the entry: the payments module
 * decides under the order's row lock.
 * @example await decideReviewedOrderAsOperator(db, operator, { orderId, decision: 'credit', reason: '本人確認済み', rules })
 */
export async function decideReviewedOrderAsOperator(
  db: Database,
  operator: Operator,
  input: { orderId: string; decision: ReviewDecision; reason: string; rules: ShopPaymentRules },
): Promise<OperatorOutcome<null>> {
  return runAdminAction(db, operator, 'orders:refund', async (tx) => {
    const { before, after } = await decideReviewedOrder(tx, input.orderId, input.decision, input.rules);
    return {
      value: null,
      audit: {
        action: `order.review.${input.decision}`,
        target: { type: 'payment_order', id: input.orderId },
        before,
        after: {
          ...after,
          reason: auditTextDigest(input.reason),
          noteId: await noteOnOrderMember(
            tx,
            operator,
            input.orderId,
            (receiptNo) => `注文 ${receiptNo} の審査（${input.decision}）の理由: ${input.reason}`,
          ),
        },
      },
    };
  });
}

/** Corrects a member's age declaration (`member.age`); members cannot change it themselves. */
