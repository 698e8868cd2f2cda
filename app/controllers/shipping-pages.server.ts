// The member's shipping pages, server side: choosing prizes and an address (/mypage/shipping/new), the
// confirmation with the fee and the 発送予定日 (step=confirm), the request itself (one Idempotency key
// per confirmation, so a double tap makes one request), the list, one request with its timeline, and
// the member's cancel. Everything goes through the shipping module (modules/shipping/requests.ts).
import { randomUUID } from 'node:crypto';
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { visitorAnswer } from '~/controllers/members-only.server';
import { notFound } from '~/lib/not-found';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { shippingRulesOf } from '#server/context';
import { listPrizes } from '#modules/draw';
import { idempotencyKeySchema } from '#modules/idempotency';
import type { Refusal } from '#modules/kernel';
import {
  SHIPPING_STATUS_LABELS,
  cancelShippingRequest,
  createShippingRequest,
  getShippingRequest,
  listAddresses,
  listShippingRequests,
  quoteShippingRequest,
  shippingQuoteInputSchema,
  shippingRequestInputSchema,
} from '#modules/shipping';
import { maintenanceRefusal, refusalInit } from './maintenance.server';
import {
  isPrerequisiteIntent,
  isPrerequisiteSheet,
  prerequisiteAction,
  prerequisitesOf,
} from './shipping-prerequisites.server';

/** The most prizes the choice page lists at once (the undecided and kept ones, newest first). */
const CHOICE_LIMIT = 100;

function memberOf(shop: ShopRequest, request: Request) {
  if (!shop.member) throw visitorAnswer(request);
  return shop.member;
}

const wordsOf = (refusal: Refusal<string>) => describeRefusal(refusal as Refusal<RefusalCode>);

/** Where a refusal sends the member to put it right. */
function remedyOf(code: string): { href: string; label: string } | null {
  if (code === 'SHIPPING_PHONE_UNVERIFIED') return { href: '?sheet=phone', label: '電話番号を認証する' };
  if (code === 'ADDRESS_NOT_FOUND') return { href: '?sheet=address', label: '住所を登録する' };
  if (code === 'INSUFFICIENT_COINS') return { href: '/shop', label: 'コインをチャージする' };
  return null;
}

/** The prizes chosen on the page, from repeated `prize` fields or one comma-separated list. */
const chosenPrizes = (values: string[]) =>
  [
    ...new Set(
      values
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ].slice(0, 200);

/**
 * /mypage/shipping/new: without step, the choice (prizes, address); with step=confirm, the quote.
 * @example export const loader = ({ request, context }) => newShippingLoader(context.get(shopRequestContext), request)
 */
export async function newShippingLoader(shop: ShopRequest, request: Request) {
  const member = memberOf(shop, request);
  const { db, config } = shop.services;
  const url = new URL(request.url);
  const chosen = chosenPrizes(url.searchParams.getAll('prize'));
  const book = await listAddresses(db, config.addressKeyring, member.id);
  const prerequisites = await prerequisitesOf(shop, member.id, book);
  const addresses = book.map((a) => ({
    id: a.id,
    isDefault: a.isDefault,
    name: a.name,
    line: `〒${a.postalCode.slice(0, 3)}-${a.postalCode.slice(3)} ${a.prefecture}${a.city}${a.town}${a.building ? ` ${a.building}` : ''}`,
  }));
  const addressId =
    addresses.find((a) => a.id === url.searchParams.get('address'))?.id ??
    addresses.find((a) => a.isDefault)?.id ??
    null;
  // 「保管中をすべて選ぶ」 without JavaScript submits the choice form: it adds to the choice, never confirms.
  if (url.searchParams.get('step') === 'confirm' && url.searchParams.get('pick') !== 'kept') {
    const parsed = shippingQuoteInputSchema.safeParse({ prizeIds: chosen });
    const problem = async (message: string, remedy: { href: string; label: string } | null = null) => ({
      step: 'choose' as const,
      ...(await choiceData()),
      problem: { message, remedy },
    });
    if (!parsed.success) return problem(parsed.error.issues[0]?.message ?? '発送する獲得商品を選んでください。');
    if (!addressId) return problem('配送先を選んでください。', { href: '?sheet=address', label: '住所を登録する' });
    const quote = await quoteShippingRequest(db, shippingRulesOf(config), member.id, parsed.data);
    if (!quote.ok) return problem(wordsOf(quote).message, remedyOf(quote.code));
    return {
      step: 'confirm' as const,
      quote: quote.quote,
      address: addresses.find((a) => a.id === addressId)!,
      idempotencyKey: randomUUID(),
      backHref: `/mypage/shipping/new?${new URLSearchParams([...chosen.map((id) => ['prize', id]), ['address', addressId]]).toString()}`,
    };
  }
  return { step: 'choose' as const, ...(await choiceData()), problem: null };

  async function choiceData() {
    const prizes = await listPrizes(db, member.id, { status: ['pending', 'kept'], limit: CHOICE_LIMIT });
    // 「保管中をすべて選ぶ」 without JavaScript: the kept cards join the choice.
    if (url.searchParams.get('pick') === 'kept')
      for (const p of prizes.items) if (p.status === 'kept' && !chosen.includes(p.prizeId)) chosen.push(p.prizeId);
    const sheet = url.searchParams.get('sheet');
    const done = url.searchParams.get('done');
    return {
      prerequisites,
      sheet: isPrerequisiteSheet(sheet) ? sheet : null,
      notice: done === 'address' ? 'お届け先を登録しました。' : done === 'phone' ? '電話番号を認証しました。' : null,
      prizes: prizes.items.map((p) => ({
        prizeId: p.prizeId,
        cardName: p.cardName,
        imagePath: p.imagePath,
        tierLabel: p.tierLabel,
        status: p.status,
        conversionValue: p.conversionValue,
      })),
      more: prizes.next !== null,
      chosen,
      addresses,
      addressId,
      feeCoins: config.SHIPPING_FEE_COINS,
      minPrizes: config.SHIPPING_MIN_PRIZES,
    };
  }
}

export interface NewShippingActionData {
  error: string;
  remedy: { href: string; label: string } | null;
}

/** The confirmation's button: one request per key, then the request's page. */
export async function newShippingAction(shop: ShopRequest, request: Request) {
  const member = memberOf(shop, request);
  const closed = await maintenanceRefusal(shop);
  if (closed) return data<NewShippingActionData>({ error: closed.message, remedy: null }, refusalInit(closed));
  const fields = await readFormFields(request);
  if (!fields) return data<NewShippingActionData>({ error: UNREADABLE_FORM_MESSAGE, remedy: null }, { status: 400 });
  // The sheets' forms (an address, the phone's code), with the cards chosen so far.
  if (isPrerequisiteIntent(fields.intent))
    return prerequisiteAction(shop, request, member.id, fields, chosenPrizes([fields.keep ?? '']));
  const key = idempotencyKeySchema.safeParse(fields.idempotencyKey);
  const parsed = shippingRequestInputSchema.safeParse({
    prizeIds: chosenPrizes([fields.prizeIds ?? '']),
    addressId: fields.addressId,
    feeCoins: fields.feeCoins === undefined || fields.feeCoins === '' ? undefined : Number(fields.feeCoins),
  });
  if (!key.success || !parsed.success)
    return data<NewShippingActionData>(
      {
        error: parsed.success ? UNREADABLE_FORM_MESSAGE : (parsed.error.issues[0]?.message ?? UNREADABLE_FORM_MESSAGE),
        remedy: null,
      },
      { status: 400 },
    );
  const { db, config } = shop.services;
  const outcome = await createShippingRequest(db, shippingRulesOf(config), {
    ...parsed.data,
    memberId: member.id,
    idempotencyKey: key.data,
  });
  if (!outcome.ok) {
    const { status, message } = wordsOf(outcome);
    return data<NewShippingActionData>({ error: message, remedy: remedyOf(outcome.code) }, { status });
  }
  throw redirect(`/mypage/shipping/${outcome.request.id}?done=requested`);
}

/** /mypage/shipping: the member's requests, newest first. */
export async function shippingListLoader(shop: ShopRequest, request: Request) {
  const member = memberOf(shop, request);
  const page = await listShippingRequests(shop.services.db, member.id, { limit: 50 });
  return {
    requests: page.items.map((r) => ({ ...r, statusLabel: SHIPPING_STATUS_LABELS[r.status] })),
  };
}

/** /mypage/shipping/:requestId: one of the member's requests (another's is the not-found page). */
export async function shippingRequestLoader(shop: ShopRequest, request: Request, requestId: string) {
  const member = memberOf(shop, request);
  const { db, config } = shop.services;
  const view = await getShippingRequest(db, shippingRulesOf(config), member.id, requestId);
  if (!view) throw notFound(new URL(request.url).pathname);
  const done = new URL(request.url).searchParams.get('done');
  return {
    request: {
      ...view,
      statusLabel: SHIPPING_STATUS_LABELS[view.status],
      events: view.events.map((e) => ({ ...e, statusLabel: SHIPPING_STATUS_LABELS[e.status] })),
    },
    // The answer to the member's own step, only while it is still the news (a bookmark or a reload
    // after the desk has moved the request shows the status alone).
    done: (done === 'requested' || done === 'canceled') && view.status === done ? done : null,
  };
}

/** The member's cancel (only while 受付済み; the cards go back to the box as kept, the fee comes back). */
export async function shippingRequestAction(shop: ShopRequest, request: Request, requestId: string) {
  const member = memberOf(shop, request);
  const closed = await maintenanceRefusal(shop);
  if (closed) return data({ error: closed.message }, refusalInit(closed));
  const fields = await readFormFields(request);
  if (!fields || fields.intent !== 'cancel') return data({ error: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  const { db, config } = shop.services;
  const outcome = await cancelShippingRequest(db, shippingRulesOf(config), member.id, requestId);
  if (!outcome.ok) {
    const { status, message } = wordsOf(outcome);
    return data({ error: message }, { status });
  }
  throw redirect(`/mypage/shipping/${requestId}?done=canceled`);
}
