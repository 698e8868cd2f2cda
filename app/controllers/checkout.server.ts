// The coin shop's final confirmation (特定商取引法 第12条の6) and the start of a checkout, for the web
// routes (/shop/checkout/{method}) and the native app's (/app/checkout/{method}); the shared reading of
// the request is in shop.server.ts.
import { randomUUID } from 'node:crypto';
import { data, redirect, redirectDocument } from 'react-router';
import type { ShopRequest } from '#server/context';
import { signInPathFor } from '#modules/kernel/navigation';
import { numberField, readFormFields, UNREADABLE_FORM_MESSAGE } from './forms.server';
import { carriedDrawOf, resolveCarriedDraw } from './draw-context.server';
import { type CarriedDraw } from '~/lib/draw-context';
import { parseWithMessage } from '#modules/kernel';
import {
  checkoutConfirmationSchema,
  PAYMENT_METHOD_INFO,
  PurchaseRefused,
  openFirstPurchaseCheckoutOf,
  quotePurchase,
  startCheckout,
  type PaymentMethod,
  type Quote,
} from '#modules/payments';
import type { CheckoutActionData, CheckoutConfirmView, CheckoutLoaderData, ShopRefusal } from '~/components/shop/types';
import { maintenanceRefusal } from './maintenance.server';
import { CANCELED_PARAM } from './open-checkout.server';

import { CLOSED, SIGNED_OUT, refusalOf, pathOf, packIdOf } from './shop.server';

// ---------------------------------------------------------------------------------------------
// The final confirmation (特定商取引法 第12条の6) and the start of the checkout

/** 支払時期 of each method. */
function paymentTimingOf(method: PaymentMethod): string {
  switch (method) {
    case 'paidy':
      return '翌月まとめてお支払い（ご利用月の翌月にペイディからご請求。お支払い期限はペイディの規約によります）';
    case 'stripe':
      return 'ご注文の確定時（即時決済）。口座からの引き落とし日はカード会社の規約によります';
    default:
      return 'ご注文の確定時（即時決済）';
  }
}

function confirmViewOf(
  shop: ShopRequest,
  quote: Quote,
  channel: 'web' | 'app',
  draw: CarriedDraw | null,
): CheckoutConfirmView {
  const info = PAYMENT_METHOD_INFO[quote.method];
  return {
    channel,
    method: quote.method,
    methodLabel: info.label,
    methodNote: info.note,
    packId: quote.pack.id,
    packName: quote.pack.name,
    priceJpy: quote.priceJpy,
    paidCoins: quote.paidCoins,
    bonusCoins: quote.bonusCoins,
    rankName: quote.standing.rank.name,
    rankBonusPercent: quote.rankBonusPercent,
    rankBonusCoins: quote.rankBonusCoins,
    totalCoins: quote.totalCoins,
    paidCoinDays: quote.paidCoinDays,
    freeCoinDays: quote.freeCoinDays,
    paymentTiming: paymentTimingOf(quote.method),
    sellerName: shop.services.config.SELLER_NAME,
    capJpy: quote.standing.capJpy,
    selfLimit:
      quote.standing.selfLimitJpy === null
        ? null
        : { limitJpy: quote.standing.selfLimitJpy, usedJpy: quote.standing.usedJpy },
    remainingJpy: quote.standing.remainingJpy,
    declaredMinor: quote.standing.declaredMinor,
    endsFirstPurchaseOffer: quote.endsFirstPurchaseOffer,
    draw,
  };
}

const refusedCheckout = (refusal: ShopRefusal, draw: CarriedDraw | null = null) =>
  data<CheckoutLoaderData>({ state: 'refused', refusal, draw }, { status: refusal.status });

/**
 * The confirmation screen's data for `?pack=ID` and the method in the path, with a fresh order key
 * for the confirm button. A refusal (unknown method or pack, cap, age, hold) comes back as
 * `{ state: 'refused' }` with its HTTP status.
 * @example export const loader = ({ request, params, context }) => checkoutLoader(context.get(shopRequestContext), request, params.paymentMethod, 'web')
 */
export async function checkoutLoader(shop: ShopRequest, request: Request, method: string, channel: 'web' | 'app') {
  if (!shop.member) {
    if (channel === 'web') throw redirect(signInPathFor(pathOf(request)));
    return refusedCheckout(SIGNED_OUT);
  }
  const payments = shop.services.payments;
  if (!payments) return refusedCheckout(CLOSED);
  const closed = await maintenanceRefusal(shop);
  if (closed) return refusedCheckout(closed);
  const params = new URL(request.url).searchParams;
  const packParam = params.get('pack') ?? '';
  // The app's web view ends at /app/return, which offers no draw: only the web carries one.
  const draw = channel === 'web' ? await carriedDrawOf(shop.services.db, params) : null;
  try {
    const quote = await quotePurchase(
      shop.services.db,
      payments.gateway,
      {
        memberId: shop.member.id,
        packId: packIdOf(packParam) ?? '',
        method,
      },
      payments.rules,
    );
    // A 初回限定 pack waits on the member's open checkout of one (decision 058): shown with its way on.
    const openFirstPurchase =
      channel === 'web' && quote.pack.firstPurchaseOnly
        ? await openFirstPurchaseCheckoutOf(shop.services.db, shop.member.id)
        : null;
    const here = new URL(request.url);
    here.searchParams.delete(CANCELED_PARAM);
    return data<CheckoutLoaderData>({
      state: 'confirm',
      checkout: confirmViewOf(shop, quote, channel, draw),
      orderKey: randomUUID(),
      openFirstPurchase,
      selfHref: here.pathname + here.search,
      canceledCheckout: params.get(CANCELED_PARAM) === '1',
    });
  } catch (error) {
    if (error instanceof PurchaseRefused) return refusedCheckout(refusalOf(error), draw);
    throw error;
  }
}

const refusedAction = (refusal: ShopRefusal) =>
  data<CheckoutActionData>({ error: refusal, orderKey: randomUUID() }, { status: refusal.status });

/**
 * 「購入を確定する」: opens the provider's checkout and answers a 303 to its page (a document
 * redirect, so it also leaves a client-side navigation for another origin or the sandbox).
 * Form fields: `pack`, `orderKey`, and the carried draw `gacha` and `count` (checked again here;
 * a wrong one is dropped, the purchase goes on). A refusal answers `{ error, orderKey }` with its status.
 */
export async function checkoutAction(shop: ShopRequest, request: Request, method: string, channel: 'web' | 'app') {
  if (!shop.member) return refusedAction(SIGNED_OUT);
  const payments = shop.services.payments;
  if (!payments) return refusedAction(CLOSED);
  // From the cache (fast, on the page); startCheckout checks again inside its transaction (exact).
  const closed = await maintenanceRefusal(shop);
  if (closed) return refusedAction(closed);
  const form = await readFormFields(request);
  if (!form) return refusedAction({ code: 'INVALID_FORM', message: UNREADABLE_FORM_MESSAGE, status: 400 });
  // The screen's hidden fields, read as text and checked by the payments module's own schema.
  const parsed = parseWithMessage(checkoutConfirmationSchema, {
    packId: form.pack,
    orderKey: form.orderKey,
    expected: { priceJpy: numberField(form.price), totalCoins: numberField(form.coins) },
  });
  if (!parsed.ok) return refusedAction({ code: 'INVALID_FORM', message: parsed.message, status: 400 });
  const { packId, orderKey, expected } = parsed.data;
  try {
    const draw = channel === 'web' ? await resolveCarriedDraw(shop.services.db, form.gacha, form.count) : null;
    const { redirectUrl } = await startCheckout(
      shop.services.db,
      payments.gateway,
      {
        memberId: shop.member.id,
        email: shop.member.email,
        packId,
        method,
        channel,
        orderKey,
        origin: shop.services.config.PUBLIC_ORIGIN,
        expected,
        drawContext: draw ? { gachaId: draw.gachaId, count: draw.count } : null,
      },
      payments.rules,
    );
    return redirectDocument(redirectUrl, 303);
  } catch (error) {
    if (error instanceof PurchaseRefused) {
      if (error.code === 'PROVIDER_UNAVAILABLE')
        shop.services.logger.warn(
          { err: error, details: error.refusal.details, method },
          'checkout could not reach the payment provider',
        );
      return refusedAction(refusalOf(error));
    }
    throw error;
  }
}
