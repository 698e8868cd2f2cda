// /mypage/refund and /closure (decision 085): the member's 払戻し application for the closing shop — their own
// balances, the refundable yen, their application (the account masked) and its transfer — and the public notice.
// The member is always the session's, or (a banned member's /standing/<token>) the link's: another member's
// application is never read.
import { data, redirect } from 'react-router';
import { applyForRefund, closureRefundView, type ClosureRefundView, type ShopRequest } from '#server/context';
import { signInPathFor } from '#modules/kernel/navigation';
import { visitorAnswer } from '~/controllers/members-only.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from './forms.server';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import type { Refusal } from '#modules/kernel';
import { getBalance } from '#modules/wallet';
import {
  BANK_ACCOUNT_TYPES,
  closurePhase,
  closureRefundOf,
  closureTimeText,
  readClosure,
  type ClosurePhase,
} from '#modules/shop';

export const REFUND_PAGE_PATH = '/mypage/refund';

export interface ClosureView {
  phase: ClosurePhase;
  notice: string;
  announcedText: string;
  salesStopText: string;
  refundDeadlineText: string;
}

export interface RefundPageData {
  closure: ClosureView | null;
  paid: number;
  free: number;
  refund: ClosureRefundView | null;
  accountTypes: readonly string[];
}

export interface RefundActionData {
  formError?: string;
  done?: string;
  typed?: Record<string, string>;
}

const closureView = (closure: NonNullable<Awaited<ReturnType<typeof readClosure>>>, now: Date): ClosureView => ({
  phase: closurePhase(closure, now),
  notice: closure.notice,
  announcedText: closureTimeText(closure.announcedAt),
  salesStopText: closureTimeText(closure.salesStopAt),
  refundDeadlineText: closureTimeText(closure.refundDeadline),
});

export async function refundPageLoader(shop: ShopRequest, request: Request): Promise<RefundPageData> {
  if (!shop.member) throw visitorAnswer(request);
  return refundDataOf(shop, shop.member.id);
}

/** One member's balances, the closure and their application (the member is the caller's: session or link). */
export async function refundDataOf(shop: ShopRequest, memberId: string): Promise<RefundPageData> {
  const { db, config } = shop.services;
  const now = new Date();
  const [closure, balance] = await Promise.all([readClosure(db), getBalance(db, memberId, now)]);
  const refund = closure ? await closureRefundOf(db, closure.id, memberId) : null;
  return {
    closure: closure ? closureView(closure, now) : null,
    paid: balance.paid,
    free: balance.free,
    refund: refund ? closureRefundView(config.addressKeyring, refund) : null,
    accountTypes: BANK_ACCOUNT_TYPES,
  };
}

const FIELDS = ['bankName', 'branchName', 'accountType', 'accountNumber', 'accountHolder'] as const;

export async function refundPageAction(shop: ShopRequest, request: Request) {
  if (!shop.member) throw redirect(signInPathFor(REFUND_PAGE_PATH));
  const form = await readFormFields(request);
  if (!form) return data<RefundActionData>({ formError: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  return applyForRefundOf(shop, shop.member.id, form);
}

/** One member's application from a read form (the member is the caller's: session or link). */
export async function applyForRefundOf(shop: ShopRequest, memberId: string, form: Record<string, string>) {
  const typed = Object.fromEntries(FIELDS.map((f) => [f, typeof form[f] === 'string' ? form[f] : '']));
  const { db, config } = shop.services;
  const closure = await readClosure(db);
  if (!closure)
    return data<RefundActionData>({ formError: '現在、払戻しは受け付けていません。', typed }, { status: 409 });
  const outcome = await applyForRefund(db, config.addressKeyring, closure, memberId, typed);
  if (!outcome.ok) {
    if ('refusal' in outcome) {
      const refused = describeRefusal(outcome.refusal as Refusal<RefusalCode>);
      return data<RefundActionData>({ formError: refused.message, typed }, { status: refused.status });
    }
    return data<RefundActionData>({ formError: outcome.message, typed }, { status: 422 });
  }
  return data<RefundActionData>({
    done: outcome.created
      ? new Date() < closure.salesStopAt
        ? '払戻しのお申し込みを受け付けました。販売終了後、ご登録の口座へお振込みします。'
        : '払戻しのお申し込みを受け付けました。ご登録の口座へ順次お振込みします。'
      : '振込先の口座を変更しました。',
  });
}

export async function closureNoticeLoader(shop: ShopRequest) {
  const closure = await readClosure(shop.services.db);
  if (!closure) throw data('現在、閉店の公告はありません。', { status: 404 });
  return { closure: closureView(closure, new Date()), siteName: shop.services.config.SITE_NAME };
}
