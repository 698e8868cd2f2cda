// The prize choices (convert to coins / keep for shipping) as a form action, shared by the result
// page and the prize box. Ownership is checked by the module: another member's prize is a 404.
import { data } from 'react-router';
import type { ShopRequest } from '~/context';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from './forms.server';
import { convertPrizes, keepPrizes } from '../../modules/draw';
import { formatCoins } from './numbers';

export type PrizeActionData = { ok: true; message: string } | { ok: false; message: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function prizeChoiceAction(shop: ShopRequest, request: Request) {
  if (!shop.member) return data<PrizeActionData>({ ok: false, message: 'ログインしてください。' }, { status: 401 });
  const form = await readFormFields(request);
  if (!form) return data<PrizeActionData>({ ok: false, message: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  const ids = String(form.prizeIds ?? '').split(',').map((id) => id.trim()).filter(Boolean);
  if (ids.length === 0 || ids.length > 200 || !ids.every((id) => UUID.test(id))) {
    return data<PrizeActionData>({ ok: false, message: 'カードを選び直してください。' }, { status: 400 });
  }
  const { db } = shop.services;
  if (form.intent === 'convert') {
    const outcome = await convertPrizes(db, shop.member.id, ids, { freeCoinDays: shop.services.config.FREE_COIN_EXPIRY_DAYS });
    if (!outcome.ok) return data<PrizeActionData>({ ok: false, message: outcome.message }, { status: outcome.status });
    return { ok: true, message: `${outcome.converted.length}枚を${formatCoins(outcome.total)}コインに交換しました。` } satisfies PrizeActionData;
  }
  if (form.intent === 'keep') {
    const outcome = await keepPrizes(db, shop.member.id, ids);
    if (!outcome.ok) return data<PrizeActionData>({ ok: false, message: outcome.message }, { status: outcome.status });
    return { ok: true, message: `${outcome.kept}枚を発送用に保管しました。発送の申し込みは獲得商品から行えます。` } satisfies PrizeActionData;
  }
  return data<PrizeActionData>({ ok: false, message: '操作を選び直してください。' }, { status: 400 });
}
