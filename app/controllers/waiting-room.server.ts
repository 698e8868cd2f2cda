// The waiting room's page (/gacha/{genreId}/{gachaId}/waiting, decision 087): the member's place, and the
// form's two actions, joining (with the shop's captcha when configured) and leaving. The same use cases as the API.
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { joinWaitingRoomAsMember, leaveWaitingRoomAsMember, memberWaitingRoom } from '#server/context';
import { getGachaDetail } from '#modules/gacha';
import { CAPTCHA_FORM_FIELD, CLIENT_IP_HEADER } from '#modules/identity/server';
import { describeRefusal } from '#modules/refusals';
import { notFound } from '~/lib/not-found';
import { captchaWidget } from './auth-call.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from './forms.server';

export type WaitingRoomActionData = { ok: true; left?: boolean } | { error: { code: string; message: string } };

/** The pack at this address with a waiting room, or the not-found page. */
async function roomPackAt(shop: ShopRequest, params: { genreId: string; gachaId: string }, path: string) {
  const pack = await getGachaDetail(shop.services.db, params.gachaId);
  if (!pack || pack.genreId !== params.genreId || !pack.waitingRoom) throw notFound(path);
  return pack;
}

/**
 * The page's data: the pack, the member's place (which also draws the order at the start and moves the queue
 * on), the captcha's widget. Members only: a visitor signs in first and comes back here.
 * @example export async function loader({ request, params, context }) { return waitingRoomLoader(context.get(shopRequestContext), request, params) }
 */
export async function waitingRoomLoader(
  shop: ShopRequest,
  request: Request,
  params: { genreId: string; gachaId: string },
) {
  const path = new URL(request.url).pathname;
  if (!shop.member) throw redirect(`/auth/sign_in?redirect=${encodeURIComponent(path)}`);
  const pack = await roomPackAt(shop, params, path);
  const room = await memberWaitingRoom(shop.services, { memberId: shop.member.id, gachaId: pack.id });
  return {
    pack: {
      id: pack.id,
      genreId: pack.genreId,
      title: pack.title,
      pricePerDraw: pack.pricePerDraw,
      drawOptions: pack.drawOptions,
      remainingLots: pack.remainingLots,
    },
    room,
    captcha: room.state === 'not_joined' ? captchaWidget(shop) : null,
  };
}

/**
 * Joins or leaves (the form's `intent`); a refusal in the shop's words.
 * @example export async function action({ request, params, context }) { return waitingRoomAction(context.get(shopRequestContext), request, params) }
 */
export async function waitingRoomAction(
  shop: ShopRequest,
  request: Request,
  params: { genreId: string; gachaId: string },
) {
  const path = new URL(request.url).pathname;
  if (!shop.member) throw redirect(`/auth/sign_in?redirect=${encodeURIComponent(path)}`);
  const pack = await roomPackAt(shop, params, path);
  const form = await readFormFields(request);
  if (!form)
    return data<WaitingRoomActionData>(
      { error: { code: 'INVALID_FORM', message: UNREADABLE_FORM_MESSAGE } },
      { status: 400 },
    );
  if (form.intent === 'leave') {
    await leaveWaitingRoomAsMember(shop.services, { memberId: shop.member.id, gachaId: pack.id });
    return data<WaitingRoomActionData>({ ok: true, left: true });
  }
  const joined = await joinWaitingRoomAsMember(shop.services, {
    memberId: shop.member.id,
    gachaId: pack.id,
    captchaToken: form[CAPTCHA_FORM_FIELD] ?? null,
    address: request.headers.get(CLIENT_IP_HEADER) ?? undefined,
  });
  if ('ok' in joined) {
    const refused = describeRefusal(joined);
    return data<WaitingRoomActionData>(
      { error: { code: joined.code, message: refused.message } },
      { status: refused.status },
    );
  }
  return data<WaitingRoomActionData>({ ok: true });
}
