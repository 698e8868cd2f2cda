// 特典コード for members (/mypage/tokutencode and the app's API): the redemption with the shop's coin
// lifetimes and the client's address, the member's history, and the page's loader and action.
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { signInPathFor } from '#modules/kernel/navigation';
import { visitorAnswer } from '~/controllers/members-only.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from './forms.server';
import { maintenanceRefusal, refusalInit } from './maintenance.server';
import { describeRefusal } from '#modules/refusals';
import { CLIENT_IP_HEADER } from '#modules/identity';
import { listMemberRedemptions, PROMO_CODE_MAX_LENGTH, redeemPromoCode, type RedemptionView } from '#modules/promo';

export const PROMO_PAGE_PATH = '/mypage/tokutencode';

export interface PromoPageData {
  redemptions: RedemptionView[];
}

export interface PromoActionData {
  /** What the member typed, kept on a refusal so it can be corrected. */
  code?: string;
  formError?: string;
  granted?: { label: string; coins: number };
}

/**
 * One redemption for the signed-in member: the shop's coin lifetimes, and the client's address counted
 * with the member against guessing (docs/decisions/032). Answers the module's outcome.
 */
export function redeemForMember(shop: ShopRequest, request: Request, memberId: string, code: string) {
  const { db, config } = shop.services;
  // A typed code is at most 32 characters once normalised; anything far longer is refused unread.
  const typed = code.slice(0, PROMO_CODE_MAX_LENGTH * 4);
  return redeemPromoCode(db, {
    memberId,
    code: typed,
    address: request.headers.get(CLIENT_IP_HEADER) || null,
    lifetimeDays: { paid: config.PAID_COIN_EXPIRY_DAYS, free: config.FREE_COIN_EXPIRY_DAYS },
  });
}

export async function promoPageLoader(shop: ShopRequest, request: Request) {
  if (!shop.member) throw visitorAnswer(request);
  return { redemptions: await listMemberRedemptions(shop.services.db, shop.member.id) } satisfies PromoPageData;
}

export async function promoPageAction(shop: ShopRequest, request: Request) {
  if (!shop.member) throw redirect(signInPathFor(PROMO_PAGE_PATH));
  const closed = await maintenanceRefusal(shop);
  if (closed) return data<PromoActionData>({ formError: closed.message }, refusalInit(closed));
  const form = await readFormFields(request);
  if (!form) return data<PromoActionData>({ formError: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  const code = typeof form.code === 'string' ? form.code : '';
  if (code.trim() === '')
    return data<PromoActionData>({ code, formError: '特典コードを入力してください。' }, { status: 400 });
  const done = await redeemForMember(shop, request, shop.member.id, code);
  if (!done.ok) {
    const refused = describeRefusal(done);
    return data<PromoActionData>({ code, formError: refused.message }, refusalInit(refused));
  }
  return data<PromoActionData>({ granted: { label: done.label, coins: done.coins } });
}
