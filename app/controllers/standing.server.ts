// A restricted member's statement and appeal (issue 34 item 6, decision 084): /mypage/standing for a member
// who signs in (a hold), /standing/:token for a banned member's mailed link (a ban has no session). Both show
// the same statement (server/standing.ts) and take one appeal per restriction: by session the restriction
// must be the member's own, by link it must be the link's restriction. While a closing shop takes 払戻し
// applications (decision 085), the link's page also shows and takes that member's application, since a banned
// member has no session to reach /mypage/refund with. Nothing else is reachable by a link.
import { data } from 'react-router';
import { memberStatementOf, supportRulesOf, type MemberStatement, type ShopRequest } from '#server/context';
import { restrictionByLink } from '#modules/identity';
import { appealInputSchema, submitAppeal } from '#modules/support';
import { describeRefusal } from '#modules/refusals';
import { parseWithMessage } from '#modules/kernel';
import { visitorAnswer } from '~/controllers/members-only.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from './forms.server';
import { REFUND_INTENT } from '~/lib/standing-forms';
import { applyForRefundOf, refundDataOf, type RefundPageData } from './closure-refund.server';

export type StandingActionData =
  { ok: true; message: string; restrictionId: string } | { ok: false; message: string; restrictionId: string | null };

const NO_STORE = { 'Cache-Control': 'no-store' };

/** /mypage/standing: the signed-in member's statement. */
export async function standingPageLoader(shop: ShopRequest, request: Request) {
  if (!shop.member) throw visitorAnswer(request);
  const statement = await memberStatementOf(shop.services.db, shop.member.id);
  return data({ via: 'session' as const, statement }, { headers: NO_STORE });
}

/** /standing/:token: the statement a banned member's link opens, or why the link no longer works (404). */
export async function standingLinkLoader(shop: ShopRequest, token: string) {
  const restriction = await restrictionByLink(shop.services.db, token);
  if (!restriction)
    return data(
      { via: 'link' as const, statement: null as MemberStatement | null, refund: null as RefundPageData | null },
      { status: 404, headers: NO_STORE },
    );
  const [statement, refund] = await Promise.all([
    memberStatementOf(shop.services.db, restriction.memberId),
    refundDataOf(shop, restriction.memberId),
  ]);
  // The link shows the statement of its own member, and offers the appeal of its own restriction only.
  statement.restrictions = statement.restrictions.map((r) =>
    r.id === restriction.id ? r : { ...r, canAppeal: false },
  );
  return data({ via: 'link' as const, statement, refund: refund.closure ? refund : null }, { headers: NO_STORE });
}

async function appealFrom(
  shop: ShopRequest,
  form: Record<string, string> | null,
  owner: { memberId: string; restrictionId?: string },
) {
  const refused = (message: string, status: number, restrictionId: string | null) =>
    data<StandingActionData>({ ok: false, message, restrictionId }, { status });
  if (!form) return refused(UNREADABLE_FORM_MESSAGE, 400, null);
  const restrictionId = form.restrictionId ?? '';
  if (form.intent !== 'appeal' || !restrictionId) return refused('操作を選び直してください。', 400, null);
  if (owner.restrictionId && owner.restrictionId !== restrictionId)
    return refused('このリンクからは、お知らせした利用制限への異議だけを送れます。', 404, restrictionId);
  const parsed = parseWithMessage(appealInputSchema, { message: form.message });
  if (!parsed.ok) return refused(parsed.message, 400, restrictionId);
  const sent = await submitAppeal(shop.services.db, supportRulesOf(shop.services).site, {
    memberId: owner.memberId,
    restrictionId,
    message: parsed.data.message,
  });
  if (!sent.ok) {
    const words = describeRefusal(sent);
    return refused(words.message, words.status, restrictionId);
  }
  return data<StandingActionData>({
    ok: true,
    restrictionId,
    message: `異議申し立てを受け付けました（受付番号 ${sent.reference}）。確認のメールをお送りしました。結果はメールとこのページでお知らせします。`,
  });
}

/** /mypage/standing's appeal. */
export async function standingPageAction(shop: ShopRequest, request: Request) {
  if (!shop.member) throw visitorAnswer(request);
  return appealFrom(shop, await readFormFields(request), { memberId: shop.member.id });
}

/**
 * /standing/:token's posts, while the link lives: the appeal of the link's own restriction only, or (intent
 * `refund`) the 払戻し application of the link's member.
 */
export async function standingLinkAction(shop: ShopRequest, request: Request, token: string) {
  const restriction = await restrictionByLink(shop.services.db, token);
  if (!restriction)
    return data<StandingActionData>(
      { ok: false, message: 'このリンクは無効です。お問い合わせフォームからご連絡ください。', restrictionId: null },
      { status: 404 },
    );
  const form = await readFormFields(request);
  if (form?.intent === REFUND_INTENT) return applyForRefundOf(shop, restriction.memberId, form);
  return appealFrom(shop, form, { memberId: restriction.memberId, restrictionId: restriction.id });
}
