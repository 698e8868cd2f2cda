// /admin/closure's server side (decision 085): the closure as stored (read fresh), its figures, the applications
// with their bank accounts (each view audited), and the intents — review (the confirmation before announcing,
// nothing written), announce (an admin, with the typed words), cancel (before the sales stop) and refundPaid
// (orders:refund, the amount the operator confirmed) — through the admin module's audited actions.
import type { ShopRequest } from '#server/context';
import { openRefundAccount } from '#server/context';
import { requireOperator } from '~/controllers/admin.server';
import { actionOk, actionRefused, type AdminActionResult } from '~/lib/admin-action';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { parseWithMessage, refuse, type Refusal } from '#modules/kernel';
import {
  announceClosureAsOperator,
  cancelClosureAsOperator,
  recordClosureRefundPaidAsOperator,
  recordRefundAccountsViewed,
} from '#modules/admin';
import {
  CLOSURE_CONFIRMATION_WORDS,
  CLOSURE_MIN_REFUND_DAYS,
  CLOSURE_NOTICE_MAX_LENGTH,
  closureAnnouncementRefusal,
  closureAnnouncementSchema,
  closurePhase,
  closureSummary,
  closureTimeText,
  listClosureRefunds,
  readClosure,
  refundPaidSchema,
} from '#modules/shop';
import { getBalance } from '#modules/wallet';

/** Applications listed per page. */
const REFUNDS_PER_PAGE = 50;

interface ClosureTyped {
  salesStopAt: string;
  refundDeadline: string;
  notice: string;
}

export interface ClosureReview {
  salesStopText: string;
  refundDeadlineText: string;
  notice: string;
  fields: ClosureTyped;
}

export type ClosureActionData =
  | AdminActionResult<{ typed?: ClosureTyped; review?: undefined }>
  | { review: ClosureReview; ok?: undefined; error?: undefined; typed?: undefined; form?: undefined };

export async function closurePageLoader(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, ['shop:write', 'orders:refund']);
  const { db, config } = shop.services;
  const now = new Date();
  const closure = await readClosure(db);
  const mayRefund = operator.permissions.has('orders:refund');
  const page = Math.max(1, Number(new URL(request.url).searchParams.get('page')) || 1);
  const refunds =
    closure && mayRefund
      ? await listClosureRefunds(db, closure.id, { limit: REFUNDS_PER_PAGE, offset: (page - 1) * REFUNDS_PER_PAGE })
      : [];
  const rows = await Promise.all(
    refunds.map(async (r) => {
      const account = r.paidAt ? null : openRefundAccount(config.addressKeyring, r);
      const balance = r.paidAt ? null : await getBalance(db, r.memberId, now);
      return {
        id: r.id,
        memberId: r.memberId,
        appliedText: closureTimeText(r.appliedAt),
        account: account
          ? `${account.bankName} ${account.branchName} ${account.accountType} ${account.accountNumber} ${account.accountHolder}`
          : null,
        paidNow: balance?.paid ?? null,
        paidText: r.paidAt ? closureTimeText(r.paidAt) : null,
        refundJpy: r.refundJpy,
        reference: r.transferReference,
      };
    }),
  );
  // Every opened account is personal data seen by staff: recorded, as a decrypted address is (decision 019).
  await recordRefundAccountsViewed(
    db,
    operator,
    rows.filter((r) => r.account).map((r) => r.id),
  );
  return {
    closure: closure
      ? {
          phase: closurePhase(closure, now),
          notice: closure.notice,
          announcedText: closureTimeText(closure.announcedAt),
          announcedBy: closure.announcedBy,
          salesStopText: closureTimeText(closure.salesStopAt),
          refundDeadlineText: closureTimeText(closure.refundDeadline),
        }
      : null,
    summary: closure ? await closureSummary(db, closure.id) : null,
    refunds: rows,
    page,
    morePages: refunds.length === REFUNDS_PER_PAGE,
    mayAnnounce: operator.role === 'admin' && operator.permissions.has('shop:write'),
    mayRefund,
    mayReport: operator.permissions.has('reports:read'),
    minDays: CLOSURE_MIN_REFUND_DAYS,
    noticeMaxLength: CLOSURE_NOTICE_MAX_LENGTH,
    confirmationWords: CLOSURE_CONFIRMATION_WORDS,
  };
}

function refused(refusal: Refusal<string>, extra: { typed?: ClosureTyped; form?: string } = {}) {
  const { status, message } = describeRefusal(refusal as Refusal<RefusalCode>);
  return actionRefused<{ typed?: ClosureTyped }>(message, { ...extra, status });
}

export async function closurePageAction(shop: ShopRequest, request: Request) {
  const form = await readFormFields(request);
  if (!form) {
    await requireOperator(shop, request, ['shop:write', 'orders:refund']);
    return actionRefused(UNREADABLE_FORM_MESSAGE);
  }
  const { db } = shop.services;
  const intent = form.intent;
  if (intent === 'refundPaid') {
    const operator = await requireOperator(shop, request, 'orders:refund');
    const formId = `refundPaid-${form.refundId ?? ''}`;
    const parsed = parseWithMessage(refundPaidSchema, {
      reference: form.reference ?? '',
      confirmedCoins: form.confirmedCoins ?? '',
    });
    if (!parsed.ok) return actionRefused(parsed.message, { form: formId, status: 422 });
    const done = await recordClosureRefundPaidAsOperator(db, operator, form.refundId ?? '', parsed.data);
    if (!done.ok) return refused(done, { form: formId });
    return actionOk(
      `払戻しを記録しました（${(done.value.refundJpy ?? 0).toLocaleString('ja-JP')}円、参照番号 ${done.value.transferReference}）。会員の有償コインから差し引き、メールボックスでお知らせしました。`,
      { form: formId },
    );
  }
  const operator = await requireOperator(shop, request, 'shop:write');
  if (intent === 'cancel') {
    const done = await cancelClosureAsOperator(db, operator);
    if (!done.ok) return refused(done, { form: 'cancel' });
    await shop.services.maintenance.refresh();
    return actionOk('閉店の告知を取り消しました。販売はいつもどおり続きます。', { form: 'cancel' });
  }
  if (intent !== 'review' && intent !== 'announce')
    return actionRefused('操作を読み取れませんでした。ページを再読み込みしてください。');
  const typed: ClosureTyped = {
    salesStopAt: form.salesStopAt ?? '',
    refundDeadline: form.refundDeadline ?? '',
    notice: form.notice ?? '',
  };
  const parsed = parseWithMessage(closureAnnouncementSchema, typed);
  if (!parsed.ok) return actionRefused<{ typed?: ClosureTyped }>(parsed.message, { typed, status: 422 });
  const announcement = { ...parsed.data, refundDeadline: parsed.data.refundDeadline! };
  const now = new Date();
  if (intent === 'review') {
    const invalid = closureAnnouncementRefusal(announcement, now);
    if (invalid) return refused(invalid, { typed });
    const review: ClosureReview = {
      salesStopText: announcement.salesStopAt ? closureTimeText(announcement.salesStopAt) : '告知と同時（すぐに停止）',
      refundDeadlineText: closureTimeText(announcement.refundDeadline),
      notice: announcement.notice,
      fields: typed,
    };
    return { review } satisfies ClosureActionData;
  }
  if ((form.confirmWords ?? '').trim() !== CLOSURE_CONFIRMATION_WORDS)
    return refused(refuse('CLOSURE_CONFIRMATION_MISSING'), { typed });
  const done = await announceClosureAsOperator(db, operator, announcement, now);
  if (!done.ok) return refused(done, { typed });
  await shop.services.maintenance.refresh();
  return actionOk(
    `閉店を告知しました。販売停止：${closureTimeText(done.value.salesStopAt)}、払戻しの申出期限：${closureTimeText(done.value.refundDeadline)}。残高のある会員への通知を順に送ります。`,
  );
}
