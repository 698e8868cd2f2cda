// /admin/orders: coin purchases for the operators. The list (status, payment method, member by id or
// email, receipt number, JST days; the review queue's count always in view), one order with its
// provider events, and the whole-order refund (orders:refund, asks first, audited by the admin module
// with the provider's refund outside the transaction, like the command line's orders:refund).
import type { ShopRequest } from '#server/context';
import { actionOk, actionRefused, type AdminActionResult } from '~/lib/admin-action';
import { requireOperator } from '~/controllers/admin.server';
import { memberIdFromFilter, memberTagsFor } from '~/controllers/member-tags.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { notFound } from '~/lib/not-found';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { decideReviewedOrderAsOperator, refundOrderAsOperator, type Operator } from '#modules/admin';
import { findMemberByIdOrEmail } from '#modules/identity';
import { isUuid, type Refusal } from '#modules/kernel';
import {
  ORDER_STATUS_LABELS,
  PAYMENT_METHOD_INFO,
  PAYMENT_METHODS,
  listOrdersForDesk,
  orderForOperator,
  orderListFilterSchema,
  orderStatuses,
  REVIEW_DECISIONS,
  reviewDecisionsFor,
  reviewReasonText,
  type PaymentMethod,
  type ReviewDecision,
} from '#modules/payments';

/** What the order page's actions answer (the admin result, decision 067). */
export type OrderActionData = AdminActionResult;

const methodLabel = (method: string) => PAYMENT_METHOD_INFO[method as PaymentMethod]?.label ?? method;

export async function ordersPageLoader(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'orders:read');
  const url = new URL(request.url);
  const parsed = orderListFilterSchema.safeParse(Object.fromEntries(url.searchParams));
  const filterError = parsed.success ? null : (parsed.error.issues[0]?.message ?? '絞り込みの条件を確認してください。');
  const filter = parsed.success ? parsed.data : orderListFilterSchema.parse({});
  // A member named by the address they write from or the member number they read out; an unknown one
  // lists nothing.
  const member = filter.memberId?.includes('@') ? await findMemberByIdOrEmail(shop.services.db, filter.memberId) : null;
  const listed = await listOrdersForDesk(shop.services.db, {
    ...filter,
    memberId: member
      ? member.id
      : filter.memberId
        ? await memberIdFromFilter(shop.services.db, filter.memberId)
        : filter.memberId,
  });
  return {
    filter: {
      status: filter.status ?? '',
      method: filter.method ?? '',
      memberId: filter.memberId ?? '',
      receiptNo: filter.receiptNo ?? '',
      from: filter.from ?? '',
      to: filter.to ?? '',
      page: filter.page,
    },
    filterError,
    reviewCount: listed.reviewCount,
    page: listed.page,
    hasNext: listed.hasNext,
    orders: listed.items.map((o) => ({
      id: o.id,
      receiptNo: o.receiptNo,
      memberId: o.memberId,
      status: o.status,
      statusLabel: ORDER_STATUS_LABELS[o.status],
      method: methodLabel(o.method),
      amountJpy: o.amountJpy,
      coins: o.paidCoins + o.bonusCoins + o.rankBonusCoins,
      createdAt: o.createdAt.toISOString(),
      failureReason: o.failureReason,
    })),
    statuses: orderStatuses.map((s) => ({ id: s, label: ORDER_STATUS_LABELS[s] })),
    methods: PAYMENT_METHODS.map((m) => ({ id: m, label: methodLabel(m) })),
    members: await memberTagsFor(
      shop.services.db,
      operator,
      listed.items.map((o) => o.memberId),
    ),
  };
}

export async function orderPageLoader(shop: ShopRequest, request: Request, orderId: string) {
  const operator = await requireOperator(shop, request, 'orders:read');
  const shown = await orderForOperator(shop.services.db, orderId);
  if (!shown) throw notFound(new URL(request.url).pathname);
  const o = shown.order;
  const refundable = (o.status === 'paid' || o.status === 'review') && Boolean(o.providerPaymentId);
  return {
    order: {
      id: o.id,
      receiptNo: o.receiptNo,
      memberId: o.memberId,
      status: o.status,
      statusLabel: ORDER_STATUS_LABELS[o.status],
      method: methodLabel(o.method),
      channel: o.channel,
      packName: o.packName,
      amountJpy: o.amountJpy,
      paidCoins: o.paidCoins,
      bonusCoins: o.bonusCoins,
      rankBonusCoins: o.rankBonusCoins,
      rankBonusPercent: o.rankBonusPercent,
      providerRef: o.providerRef,
      providerPaymentId: o.providerPaymentId,
      failureReason: o.failureReason,
      refundedJpy: o.refundedJpy,
      reversedPaid: o.reversedPaid,
      reversedFree: o.reversedFree,
      unrecoveredCoins: o.unrecoveredCoins,
      createdAt: o.createdAt.toISOString(),
      creditedAt: o.creditedAt?.toISOString() ?? null,
      reversedAt: o.reversedAt?.toISOString() ?? null,
    },
    events: shown.events,
    canRefund: refundable && operator.permissions.has('orders:refund'),
    refundable,
    reviewReason: o.status === 'review' ? reviewReasonText(o.failureReason) : null,
    reviewDecisions: operator.permissions.has('orders:refund') ? reviewDecisionsFor(o) : [],
    members: await memberTagsFor(shop.services.db, operator, [o.memberId]),
  };
}

export async function orderPageAction(shop: ShopRequest, request: Request, orderId: string) {
  const operator = await requireOperator(shop, request, 'orders:refund');
  if (!isUuid(orderId)) throw notFound(new URL(request.url).pathname);
  const form = await readFormFields(request);
  if (!form) return actionRefused(UNREADABLE_FORM_MESSAGE);
  if (form.intent === 'review') return reviewDecisionAction(shop, operator, orderId, form);
  if (form.intent !== 'refund') return actionRefused('操作を選び直してください。');
  const reason = (form.reason ?? '').trim();
  if (!reason || reason.length > 500) return actionRefused('返金の理由を500文字以内で入力してください。');
  // Only a paid order (or one in review) is refunded; the answer says why another is not.
  const current = await orderForOperator(shop.services.db, orderId);
  if (!current) throw notFound(new URL(request.url).pathname);
  if (current.order.status !== 'paid' && current.order.status !== 'review')
    return actionRefused(`この注文は「${ORDER_STATUS_LABELS[current.order.status]}」のため返金できません。`, {
      status: 409,
    });
  const payments = shop.services.payments;
  if (!payments)
    return actionRefused('決済事業者の設定を読み込めていないため、返金できません。時間をおいてお試しください。', {
      status: 503,
    });
  const done = await refundOrderAsOperator(shop.services.db, operator, {
    gateway: payments.gateway,
    rules: payments.rules,
    orderId,
    reason,
  });
  if (!done.ok) {
    const described = describeRefusal(done as Refusal<RefusalCode>);
    return actionRefused(described.message, { status: described.status });
  }
  return actionOk(
    `返金しました（${done.value.refundedJpy.toLocaleString('ja-JP')}円）。残っていたコインは取り消しました。`,
  );
}

const REVIEW_DONE: Record<ReviewDecision, string> = {
  credit: 'コインを付与して「支払い済み」にしました。',
  keep: 'コインはそのままで「支払い済み」にしました。',
};

/** The review queue's decisions other than a refund (orders:refund, with a reason for the audit log). */
async function reviewDecisionAction(
  shop: ShopRequest,
  operator: Operator,
  orderId: string,
  form: Record<string, string>,
) {
  const decision = form.decision as ReviewDecision;
  if (!(REVIEW_DECISIONS as readonly string[]).includes(decision)) return actionRefused('判断を選び直してください。');
  const reason = (form.reason ?? '').trim();
  if (!reason || reason.length > 500) return actionRefused('判断の理由を500文字以内で入力してください。');
  const payments = shop.services.payments;
  if (!payments)
    return actionRefused('決済の設定を読み込めていないため、判断を記録できません。時間をおいてお試しください。', {
      status: 503,
    });
  const done = await decideReviewedOrderAsOperator(shop.services.db, operator, {
    orderId,
    decision,
    reason,
    rules: payments.rules,
  });
  if (!done.ok) {
    const described = describeRefusal(done as Refusal<RefusalCode>);
    return actionRefused(described.message, { status: described.status });
  }
  return actionOk(REVIEW_DONE[decision]);
}
