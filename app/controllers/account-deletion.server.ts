// /mypage/settings/delete (退会): what the member loses and what the shop keeps, then the deletion
// itself (identity's deleteOwnAccount: re-authentication, the notice mail, the tombstone). Decision 016.
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { cookieHeaders, callAuth } from '~/controllers/auth-call.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { setOneTimeNotice } from '~/controllers/one-time-notice.server';
import { describeRefusal } from '#modules/refusals';
import { getBalance } from '#modules/wallet';
import { countPrizesByStatus } from '#modules/draw';
import { eraseMemberData, finishMemberErasure, mediaStoreOf, type ErasureFollowUp } from '#server/context';
import { DELETION_CONFIRMATION_PHRASE, deleteOwnAccount, hasPassword } from '#modules/identity/server';
import { closurePhase, closureRefundOf, closureTimeText, readClosure } from '#modules/shop';
import { maintenanceRefusal } from './maintenance.server';

export const DELETE_ACCOUNT_PATH = '/mypage/settings/delete';

export type DeletionPageData =
  | { signedIn: false }
  | {
      signedIn: true;
      /** Coins that are forfeited (paid and free). */
      coins: { paid: number; free: number; total: number };
      /** Prizes not yet decided (未選択) and kept for shipping (保管中): forfeited with the account. */
      prizes: { pending: number; kept: number; shipping: number };
      hasPassword: boolean;
      phrase: string;
      reauthMinutes: number;
      /**
       * While the shop closes (decision 085): the 払戻し of unused paid coins the member would give up, its deadline
       * and whether they have applied; null when there is nothing to refund.
       */
      closureRefund: { deadlineText: string; applied: boolean } | null;
    };

export type DeletionActionData = { message: string };

/** @example export const loader = ({ context }) => deletionPageLoader(context.get(shopRequestContext)) */
export async function deletionPageLoader(shop: ShopRequest): Promise<DeletionPageData> {
  if (!shop.member) return { signedIn: false };
  const { db, config } = shop.services;
  const [balance, prizes, password, refund] = await Promise.all([
    getBalance(db, shop.member.id),
    countPrizesByStatus(db, shop.member.id),
    hasPassword(db, shop.member.id),
    pendingClosureRefund(shop),
  ]);
  return {
    closureRefund: balance.paid > 0 ? refund : null,
    signedIn: true,
    coins: { paid: balance.paid, free: balance.free, total: balance.total },
    prizes: { pending: prizes.pending, kept: prizes.kept, shipping: prizes.shipping },
    hasPassword: password,
    phrase: DELETION_CONFIRMATION_PHRASE,
    reauthMinutes: config.REAUTH_MAX_AGE_MINUTES,
  };
}

const failed = (message: string, status: number) => data<DeletionActionData>({ message }, { status });

/**
 * The closure's 払戻し still open to the member (decision 085): a live closure whose refund deadline has not passed
 * and no transfer recorded for them yet, with whether they have applied; else null.
 */
async function pendingClosureRefund(shop: ShopRequest): Promise<{ deadlineText: string; applied: boolean } | null> {
  const { db } = shop.services;
  const closure = await readClosure(db);
  if (!closure || closurePhase(closure, new Date()) === 'refunds_over') return null;
  const refund = await closureRefundOf(db, closure.id, shop.member!.id);
  if (refund?.paidAt) return null;
  return { deadlineText: closureTimeText(closure.refundDeadline), applied: refund !== null };
}

/**
 * 「退会する」: fields `confirmation` (the phrase) and `password` (when the member has one). The member
 * is the one signed in by the request's session; no form field names a member. Success signs out
 * (the sessions are gone; the cookies are cleared) and lands on / with a one-time notice.
 */
export async function deletionPageAction(shop: ShopRequest, request: Request) {
  if (!shop.member) return failed('ログインしてください。', 401);
  const closed = await maintenanceRefusal(shop);
  if (closed) return failed(closed.message, closed.status);
  const form = await readFormFields(request);
  if (!form) return failed(UNREADABLE_FORM_MESSAGE, 400);
  // An applied 払戻し not yet transferred: 退会 would forfeit the paid coins it is counted from (decision 085).
  const refund = await pendingClosureRefund(shop);
  if (refund?.applied && (await getBalance(shop.services.db, shop.member.id)).paid > 0)
    return failed(
      '閉店に伴う払戻しをお申し込み済みです。お振込みが済むまで退会できません（退会すると有償コインが失効し、払戻しを受け取れなくなります）。',
      409,
    );
  const { auth, db, config, messenger, logger } = shop.services;
  if (!messenger) {
    logger.error('account deletion: no messenger in the services');
    return failed('現在、退会のお手続きを受け付けられません。時間をおいてお試しください。', 503);
  }
  const followUp: ErasureFollowUp = { inquiryImages: [] };
  const outcome = await deleteOwnAccount({
    auth,
    db,
    messenger,
    headers: request.headers,
    confirmation: form.confirmation ?? '',
    password: form.password || null,
    reauthMaxAgeMinutes: config.REAUTH_MAX_AGE_MINUTES,
    attemptsPerMinute: config.SIGN_IN_ATTEMPTS_PER_MINUTE,
    // Every module's part (docs/personal-data.md), in the tombstone's transaction.
    eraseWith: (tx, member) => eraseMemberData(tx, config, member, followUp),
  });
  if (!outcome.ok) {
    const { status, message } = describeRefusal(outcome);
    return failed(message, status);
  }
  logger.info({ memberId: outcome.memberId }, 'member deleted the account (tombstone)');
  // Images outside the database go once the rows are gone; a failure here is swept by the job later.
  await finishMemberErasure(mediaStoreOf(shop.services), followUp).catch((error: unknown) =>
    logger.error({ err: error, memberId: outcome.memberId }, 'account deletion: inquiry images left for the sweep'),
  );
  // The sessions are deleted already; sign-out clears the cookies (better-auth's own names and flags).
  const signedOut = await callAuth(shop, request, '/sign-out', {});
  const headers = cookieHeaders(signedOut.setCookies);
  headers.append('Set-Cookie', setOneTimeNotice('account-deleted'));
  return redirect('/', { headers });
}
