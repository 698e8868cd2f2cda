// The operator's closure actions (decision 085, 資金決済法 第20条): announce the closure and cancel it before the
// sales stop (an admin only: it stops the shop), and record a refund's transfer (orders:refund), each audited in
// the same transaction. The command line and /admin/closure call the same functions.
import type { Database } from '#db/client';
import { refuse, RefusalError } from '#modules/kernel';
import {
  announceClosure,
  cancelClosure,
  recordClosureRefundPaid,
  type ClosureAnnouncement,
  type ClosureRefund,
  type RefundPaid,
  type ShopClosure,
} from '#modules/shop';
import { recordAudit, runAdminAction, type Operator } from './audit';
import type { OperatorOutcome } from './operations';

const closureView = (closure: ShopClosure) => ({
  id: closure.id,
  announcedAt: closure.announcedAt.toISOString(),
  salesStopAt: closure.salesStopAt.toISOString(),
  refundDeadline: closure.refundDeadline.toISOString(),
  noticeLength: closure.notice.length,
});

/** Only an admin (or the command line, which holds the database) stops the shop; staff with shop:write do not. */
function requireAdminRole(operator: Operator) {
  if (operator.role !== 'admin' && operator.role !== 'cli') throw new RefusalError(refuse('CLOSURE_ADMIN_ONLY'));
}

/**
 * Announces the closure (`shop.closure.announce`): the public notice, the sales stop (now when not given) and
 * the refund deadline (≥ 60 days after now). Members with a balance are told by the `shop.closure-notices` job.
 * @example await announceClosureAsOperator(db, operator, { salesStopAt: null, refundDeadline, notice })
 */
export async function announceClosureAsOperator(
  db: Database,
  operator: Operator,
  announcement: ClosureAnnouncement,
  now = new Date(),
): Promise<OperatorOutcome<ShopClosure>> {
  return runAdminAction(
    db,
    operator,
    'shop:write',
    async (tx) => {
      requireAdminRole(operator);
      const closure = await announceClosure(tx, announcement, operator.label, now);
      return {
        value: closure,
        audit: {
          action: 'shop.closure.announce',
          target: { type: 'shop_closure', id: String(closure.id) },
          before: null,
          after: closureView(closure),
        },
      };
    },
    {
      action: 'shop.closure.announce',
      target: { type: 'shop_closure', id: null },
      attempt: {
        salesStopAt: announcement.salesStopAt?.toISOString() ?? null,
        refundDeadline: announcement.refundDeadline.toISOString(),
      },
    },
  );
}

/**
 * Cancels the announced closure before its sales stop (`shop.closure.cancel`); after it, refused.
 * @example await cancelClosureAsOperator(db, operator)
 */
export async function cancelClosureAsOperator(
  db: Database,
  operator: Operator,
  now = new Date(),
): Promise<OperatorOutcome<ShopClosure>> {
  return runAdminAction(
    db,
    operator,
    'shop:write',
    async (tx) => {
      requireAdminRole(operator);
      const closure = await cancelClosure(tx, operator.label, now);
      return {
        value: closure,
        audit: {
          action: 'shop.closure.cancel',
          target: { type: 'shop_closure', id: String(closure.id) },
          before: closureView(closure),
          after: { cancelledAt: now.toISOString() },
        },
      };
    },
    { action: 'shop.closure.cancel', target: { type: 'shop_closure', id: null } },
  );
}

/**
 * Records a refund as transferred (`shop.closure.refund.paid`, orders:refund): the member's paid coins are
 * debited once, whoever else records it at the same moment.
 * @example await recordClosureRefundPaidAsOperator(db, operator, refundId, { reference: '振込0001', confirmedCoins: 5000 })
 */
export async function recordClosureRefundPaidAsOperator(
  db: Database,
  operator: Operator,
  refundId: string,
  paid: RefundPaid,
  now = new Date(),
): Promise<OperatorOutcome<ClosureRefund>> {
  return runAdminAction(
    db,
    operator,
    'orders:refund',
    async (tx) => {
      const { refund } = await recordClosureRefundPaid(tx, { refundId, ...paid }, operator.label, now);
      return {
        value: refund,
        audit: {
          action: 'shop.closure.refund.paid',
          target: { type: 'shop_closure_refund', id: refund.id },
          before: { paidAt: null },
          after: {
            memberId: refund.memberId,
            paidCoins: refund.paidCoins,
            refundJpy: refund.refundJpy,
            reference: refund.transferReference,
          },
        },
      };
    },
    { action: 'shop.closure.refund.paid', target: { type: 'shop_closure_refund', id: refundId }, attempt: paid },
  );
}

/**
 * Records that staff saw the bank accounts of some applications (decision 019's rule for addresses: every view
 * of sealed personal data is audited), in its own transaction.
 * @example await recordRefundAccountsViewed(db, operator, ['3f…'])
 */
export async function recordRefundAccountsViewed(db: Database, operator: Operator, refundIds: string[]) {
  if (refundIds.length === 0) return;
  await db.transaction((tx) =>
    recordAudit(tx, operator, 'orders:refund', {
      action: 'shop.closure.refund.accounts_viewed',
      target: { type: 'shop_closure_refund', id: refundIds.length === 1 ? refundIds[0]! : null },
      after: { refundIds },
    }),
  );
}
