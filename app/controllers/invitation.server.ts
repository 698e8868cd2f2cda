// Invitations on the pages (decision 038): /mypage/invitation's data (the member's code, link, share
// addresses, this month's count, the invitees) and its one action (a new member typing a code by hand).
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { signInPathFor } from '#modules/kernel/navigation';
import { isStaffRole } from '#modules/identity';
import {
  INVITATION_COOKIE,
  attachInvitation,
  inviterOfCode,
  normaliseInvitationCode,
  settleInvitation,
} from '#modules/invitation';
import { describeRefusal } from '#modules/refusals';
import { cookieValue, invitationRulesOf, invitationViewOf } from '#server/context';

export const INVITATION_PAGE_PATH = '/mypage/invitation';

export async function invitationPageLoader(shop: ShopRequest, request: Request) {
  const url = new URL(request.url);
  const { config } = shop.services;
  // /mypage is not behind the members-only rule (specification section 6): a visitor reads the rules.
  if (!shop.member)
    return {
      signedIn: false as const,
      rules: {
        rewardCoins: config.INVITATION_REWARD_COINS,
        claimDays: config.INVITATION_CLAIM_DAYS,
        freeCoinDays: config.FREE_COIN_EXPIRY_DAYS,
        month: { cap: config.INVITATION_MONTHLY_CAP },
      },
    };
  if (isStaffRole(shop.member.role)) return { signedIn: true as const, staff: true as const };
  const view = await invitationViewOf(shop.services, shop.member.id);
  return {
    signedIn: true as const,
    staff: false as const,
    ...view,
    freeCoinDays: config.FREE_COIN_EXPIRY_DAYS,
    // /r/ow?code=… (a member who signed up before opening the link) fills the form.
    typedCode: view.canEnterCode ? (normaliseInvitationCode(url.searchParams.get('code')) ?? '') : '',
  };
}

export type InvitationActionData =
  | { ok: true; message: string; event: { invitee: string; inviter: string } }
  | {
      ok: false;
      message: string;
    };

/** A new member types the code of the friend who invited them. */
export async function invitationPageAction(shop: ShopRequest, request: Request) {
  if (!shop.member) throw redirect(signInPathFor(INVITATION_PAGE_PATH));
  const form = await request.formData();
  const outcome = await attachInvitation(shop.services.db, {
    inviteeId: shop.member.id,
    code: String(form.get('code') ?? ''),
    lateEntry: true,
  });
  if (!outcome.ok) {
    const refused = describeRefusal(outcome);
    return data<InvitationActionData>({ ok: false, message: refused.message }, { status: refused.status });
  }
  return data<InvitationActionData>({
    ok: true,
    message: '招待コードを登録しました。電話番号認証と初回購入をすると、特典のコインがメールボックスに届きます。',
    event: { invitee: shop.member.id, inviter: outcome.inviterId },
  });
}

export interface InvitationNotice {
  code: string;
  /** The code belongs to a member (an unknown one is said so, and the sign-up goes on without it). */
  valid: boolean;
  rewardCoins: number;
}

/**
 * For a visitor who opened an invitation link (/r?code=…): the code the sign-up will attach, for the
 * home and sign-up pages to say so. Null for members and visitors without the cookie.
 */
export async function invitationNoticeOf(shop: ShopRequest, request: Request): Promise<InvitationNotice | null> {
  if (shop.member) return null;
  const code = cookieValue(request.headers.get('cookie'), INVITATION_COOKIE);
  if (!code) return null;
  const inviter = await inviterOfCode(shop.services.db, code);
  return { code, valid: inviter !== null, rewardCoins: shop.services.config.INVITATION_REWARD_COINS };
}

/** The invitation cookies a sign-up answered (cleared code, the analytics event), to pass on to the browser. */
export const invitationCookiesOf = (setCookies: string[]) =>
  setCookies.filter(
    (cookie) => cookie.startsWith(`${INVITATION_COOKIE}=`) || cookie.startsWith(`${INVITATION_COOKIE}_`),
  );

/**
 * Right after a member proves a phone number: settles their invitation at once when the purchase is
 * there too (the job would within a minute or so). Never fails the verification.
 */
export async function settleInvitationNow(shop: ShopRequest) {
  if (!shop.member) return;
  try {
    await settleInvitation(shop.services.db, shop.member.id, invitationRulesOf(shop.services.config));
  } catch (error) {
    shop.services.logger.warn({ err: error, memberId: shop.member.id }, 'invitation: settle after phone failed');
  }
}
