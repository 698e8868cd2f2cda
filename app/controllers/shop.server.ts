// The coin shop's loaders and actions, as plain functions of the request context, so the web routes
// (/shop, /shop/checkout/{method}, /shop/backfrom*) and the native app's routes (/app/checkout/{method},
// /app/return) share them. The rules themselves live in modules/payments; this file only reads the
// request, calls them, and turns refusals into the Japanese message with its HTTP status (never a 500).
import { randomUUID } from 'node:crypto';
import { data, redirect, redirectDocument } from 'react-router';
import type { ShopRequest } from '#server/context';
import { SHOP_CLOSED_MESSAGE } from '~/components/shop/types';
import { signInPathFor } from '#modules/kernel/navigation';
import { numberField, readFormFields, UNREADABLE_FORM_MESSAGE } from './forms.server';
import { carriedDrawOf, resolveCarriedDraw } from './draw-context.server';
import { withDrawContext, type CarriedDraw } from '~/lib/draw-context';
import { getBalance } from '#modules/wallet';
import { isUuid } from '#modules/kernel';
import { describeRefusal } from '#modules/refusals';
import { parseWithMessage } from '#modules/kernel';
import {
  checkoutConfirmationSchema,
  coinPackIdSchema,
  METHOD_ORDER,
  ORDER_STATUS_LABELS,
  PAYMENT_METHOD_INFO,
  PurchaseRefused,
  declareAge,
  getOrder,
  openCheckoutIds,
  openFirstPurchaseCheckoutOf,
  getPurchaseStanding,
  isPaymentMethod,
  listCoinPacks,
  listOrders,
  quotePurchase,
  startCheckout,
  syncOrder,
  cancelPendingOrder,
  type CoinPackView,
  type OrderView,
  type PaymentMethod,
  type PurchaseStanding,
  type Quote,
} from '#modules/payments';
import type {
  CheckoutActionData,
  CheckoutConfirmView,
  CheckoutLoaderData,
  PaymentMethodOption,
  PurchaseHistoryPage,
  PurchaseOrder,
  ReturnLoaderData,
  ShopRefusal,
  WalletView,
} from '~/components/shop/types';
import { maintenanceRefusal, refusalInit } from './maintenance.server';
import { CANCELED_PARAM } from './open-checkout.server';
import { exclusionLastDay, usageOf } from '#modules/limits';
import type { SelfLimitSummary } from '#server/context';

/** A coin pack id from the address, or null when it is not one. */
const packIdOf = (value: string | null) => (coinPackIdSchema.safeParse(value).success ? value : null);
/** A history cursor is an order's creation time exactly as the list hands it out (ISO 8601, UTC). */
const HISTORY_CURSOR = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

export { SHOP_CLOSED_MESSAGE };
const CLOSED: ShopRefusal = {
  code: 'SHOP_CLOSED',
  message: `${SHOP_CLOSED_MESSAGE}。販売開始まで今しばらくお待ちください。`,
  status: 503,
};
const SIGNED_OUT: ShopRefusal = {
  code: 'SIGN_IN_REQUIRED',
  message: 'ログイン状態を確認できませんでした。ログインしてからもう一度お試しください。',
  status: 401,
};
/** The return page's answer for an unknown order and for another member's (not found, not forbidden). */
export const ORDER_NOT_FOUND_MESSAGE = 'ご注文が見つかりません';

/** Without JavaScript the pending return page reloads itself every 3 s, at most this many times (2 minutes). */
const NO_JS_REFRESHES = 40;
const REFRESH_PARAM = 'refresh';

const pathOf = (request: Request) => {
  const url = new URL(request.url);
  return url.pathname + url.search;
};

/** A refused purchase as the pages show it: the catalogue's status and Japanese message, as the API answers it. */
const refusalOf = (error: PurchaseRefused): ShopRefusal => {
  const { code, message, status } = describeRefusal(error.refusal);
  return { code, message, status };
};

/** The payment methods this shop instance can take, in the shop's order. */
export function enabledPaymentMethods(shop: ShopRequest): PaymentMethodOption[] {
  const payments = shop.services.payments;
  if (!payments) return [];
  return METHOD_ORDER.filter((m) => payments.gateway.providers[m]).map((m) => ({
    method: m,
    label: PAYMENT_METHOD_INFO[m].label,
    note: PAYMENT_METHOD_INFO[m].note,
  }));
}

/** @example withStatusLabel(order).statusLabel === '購入完了' */
export const withStatusLabel = (order: OrderView): PurchaseOrder => ({
  ...order,
  statusLabel: ORDER_STATUS_LABELS[order.status] ?? order.status,
});

/**
 * The `before` cursor of the purchase history: an ISO timestamp, or null (the first page) for
 * anything else.
 * @example parseHistoryCursor('2026-11-22T03:04:05.678Z') === '2026-11-22T03:04:05.678Z'; parseHistoryCursor('yesterday') === null
 */
export function parseHistoryCursor(text: string | null | undefined): string | null {
  if (!text || !HISTORY_CURSOR.test(text)) return null;
  return Number.isNaN(new Date(text).getTime()) ? null : text;
}

/** One page of the member's purchase history, newest first. */
export async function loadPurchaseHistory(
  shop: ShopRequest,
  memberId: string,
  options: { before?: string | null; limit?: number } = {},
): Promise<PurchaseHistoryPage> {
  const page = await listOrders(shop.services.db, memberId, {
    limit: options.limit ?? 20,
    before: parseHistoryCursor(options.before),
  });
  // Checkouts left open can be resumed or cancelled from their row (decision 058).
  const pending = page.items.filter((o) => o.status === 'pending').map((o) => o.id);
  const open = await openCheckoutIds(shop.services.db, memberId, pending);
  return {
    items: page.items.map((o) => ({ ...withStatusLabel(o), ...(open.has(o.id) ? { openCheckout: true } : {}) })),
    nextCursor: page.nextCursor,
    sellerName: shop.services.config.SELLER_NAME,
  };
}

const walletOf = (balance: { paid: number; free: number; total: number }): WalletView => ({
  paid: balance.paid,
  free: balance.free,
  total: balance.total,
});

// ---------------------------------------------------------------------------------------------
// /shop

export interface ShopRulesView {
  paidCoinDays: number;
  freeCoinDays: number;
  monthlyCapJpy: number;
  minorMonthlyCapJpy: number;
}

export type ShopPageData =
  | { state: 'closed'; wallet: WalletView; history: PurchaseHistoryPage; rules: ShopRulesView }
  | {
      state: 'open';
      wallet: WalletView;
      history: PurchaseHistoryPage;
      rules: ShopRulesView;
      standing: PurchaseStanding;
      packs: CoinPackView[];
      methods: PaymentMethodOption[];
      /** The pack and method chosen before (kept when the choice was incomplete). */
      selected: { pack: string | null; method: string | null };
      /** Set when the purchase form came back incomplete (no JavaScript). */
      selectionError: string | null;
      /** The draw the member came for from a pack's 「コインを購入する」 (checked), and the coins still missing. */
      draw: CarriedDraw | null;
      shortfall: number;
      /** The member's own purchase limit and exclusion (decision 035), from the standing: the notice and the picker. */
      selfLimits: SelfLimitSummary;
    };

export type ShopActionData = { ok: boolean; message: string };

/**
 * /shop. A GET of the purchase form (`?pack=…&method=…`) goes on to that checkout: the form works
 * without JavaScript although the method is part of the checkout's path.
 */
export async function shopPageLoader(shop: ShopRequest, request: Request): Promise<ShopPageData> {
  if (!shop.member) throw redirect(signInPathFor(pathOf(request)));
  const url = new URL(request.url);
  const { db, config } = shop.services;
  const packParam = url.searchParams.get('pack');
  const methodParam = url.searchParams.get('method');
  const pack = packIdOf(packParam);
  const method = methodParam && isPaymentMethod(methodParam) ? methodParam : null;
  const draw = await carriedDrawOf(db, url.searchParams);
  if (pack && method)
    throw redirect(withDrawContext(`/shop/checkout/${method}?pack=${encodeURIComponent(pack)}`, draw));
  const selectionError =
    packParam !== null || methodParam !== null
      ? !pack
        ? 'コインパックを選んでください。'
        : 'お支払い方法を選んでください。'
      : null;

  const payments = shop.services.payments;
  const rules: ShopRulesView = {
    paidCoinDays: config.PAID_COIN_EXPIRY_DAYS,
    freeCoinDays: config.FREE_COIN_EXPIRY_DAYS,
    monthlyCapJpy: payments?.rules.monthlyCapJpy ?? config.PURCHASE_MONTHLY_CAP_JPY,
    minorMonthlyCapJpy: payments?.rules.minorMonthlyCapJpy ?? config.MINOR_PURCHASE_MONTHLY_CAP_JPY,
  };
  const [balance, history] = await Promise.all([
    getBalance(db, shop.member.id),
    loadPurchaseHistory(shop, shop.member.id, { limit: 10 }),
  ]);
  const wallet = walletOf(balance);
  if (!payments) return { state: 'closed', wallet, history, rules };
  const standing = await getPurchaseStanding(db, shop.member.id, payments.rules);
  const packs = await listCoinPacks(db, standing);
  return {
    state: 'open',
    wallet,
    history,
    rules,
    standing,
    packs,
    methods: enabledPaymentMethods(shop),
    selected: { pack, method },
    selectionError,
    draw,
    shortfall: draw ? Math.max(0, draw.cost - wallet.total) : 0,
    selfLimits: selfLimitsOfStanding(standing),
  };
}

/** The purchase side of the member's own limits, from the standing the shop already read (no extra query). */
export function selfLimitsOfStanding(standing: PurchaseStanding): SelfLimitSummary {
  return {
    purchase: usageOf(standing.usedJpy, standing.selfLimitJpy),
    draw: null,
    excludedLastDay: standing.excludedUntil ? exclusionLastDay(new Date(standing.excludedUntil)) : null,
  };
}

/** /shop's form posts: `intent=declare-age` with `age=adult|minor`. */
export async function shopPageAction(shop: ShopRequest, request: Request) {
  if (!shop.member) return data<ShopActionData>({ ok: false, message: SIGNED_OUT.message }, { status: 401 });
  const closed = await maintenanceRefusal(shop);
  if (closed) return data<ShopActionData>({ ok: false, message: closed.message }, refusalInit(closed));
  const form = await readFormFields(request);
  if (!form) return data<ShopActionData>({ ok: false, message: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  if (form.intent !== 'declare-age')
    return data<ShopActionData>(
      { ok: false, message: '操作を読み取れませんでした。ページを再読み込みしてください。' },
      { status: 400 },
    );
  if (form.age !== 'adult' && form.age !== 'minor') {
    return data<ShopActionData>(
      { ok: false, message: '「18歳以上です」か「18歳未満です」のどちらかを選んでください。' },
      { status: 400 },
    );
  }
  const { declaredMinor } = await declareAge(shop.services.db, shop.member.id, form.age === 'minor');
  const message = declaredMinor
    ? '年齢の確認を受け付けました。18歳未満の方は1か月のご購入に上限があります。保護者の方の同意を得てからご購入ください。'
    : '年齢の確認を受け付けました。コインパックを選んでください。';
  return data<ShopActionData>({ ok: true, message });
}

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

// ---------------------------------------------------------------------------------------------
// The return pages

/**
 * The return pages' middleware: the member's pending order is asked of the provider once more (or
 * canceled there when the member canceled on the provider's page); a provider error leaves it pending,
 * and the webhook or the page's polling finishes it. It runs before every loader of the request, so
 * the root loader's balance — the header's coins — already includes what this step credited (run
 * inside the page's loader, beside the root loader, the header showed the balance from before).
 * @example export const middleware: Route.MiddlewareFunction[] = [({ request, context }) => syncReturnedOrder(context.get(shopRequestContext), request)];
 */
export async function syncReturnedOrder(shop: ShopRequest, request: Request): Promise<void> {
  const payments = shop.services.payments;
  if (!shop.member || !payments) return;
  const url = new URL(request.url);
  const orderId = url.searchParams.get('order') ?? '';
  if (!isUuid(orderId)) return;
  const { db, logger } = shop.services;
  const order = await getOrder(db, shop.member.id, orderId);
  if (!order || order.status !== 'pending') return;
  const returnParams = new URLSearchParams(url.searchParams);
  returnParams.delete(REFRESH_PARAM);
  try {
    if (url.searchParams.get('canceled') === '1') {
      // The member canceled on the provider's page: cancel there too (unless it was paid after all).
      await cancelPendingOrder(db, payments.gateway, shop.member.id, order.id, payments.rules);
    } else {
      await syncOrder(db, payments.gateway, order.id, { returnParams, rules: payments.rules });
    }
  } catch (error) {
    // The provider did not answer: the order stays pending, and the webhook or a later look settles it.
    logger.warn({ err: error, orderId: order.id }, 'return page could not sync the order');
  }
}

/**
 * /shop/backfrom{provider}?order=… (and /app/return): the member's order as the middleware
 * (`syncReturnedOrder`) left it. Another member's or an unknown order is a 404.
 */
export async function returnLoader(shop: ShopRequest, request: Request) {
  const url = new URL(request.url);
  if (!shop.member) {
    if (!url.pathname.startsWith('/app/')) throw redirect(signInPathFor(pathOf(request)));
    // The app's web view without a session (exempt from the members redirect): a page, not an error.
    return data<ReturnLoaderData>({ state: 'not-found', message: SIGNED_OUT.message, status: 200 });
  }
  const notFound = data<ReturnLoaderData>(
    { state: 'not-found', message: ORDER_NOT_FOUND_MESSAGE, status: 404 },
    { status: 404 },
  );
  const orderId = url.searchParams.get('order') ?? '';
  if (!isUuid(orderId)) return notFound;
  const { db } = shop.services;
  const order = await getOrder(db, shop.member.id, orderId);
  if (!order) return notFound;
  const balance = await getBalance(db, shop.member.id);
  const canceledByMember = url.searchParams.get('canceled') === '1';
  const refreshText = url.searchParams.get(REFRESH_PARAM) ?? '';
  const refreshes = /^\d{1,3}$/.test(refreshText) ? Math.min(Number(refreshText), NO_JS_REFRESHES) : 0;
  const waiting = order.status === 'pending' && !canceledByMember;
  let refreshUrl: string | null = null;
  if (waiting && refreshes < NO_JS_REFRESHES) {
    const next = new URLSearchParams(url.searchParams);
    next.set(REFRESH_PARAM, String(refreshes + 1));
    refreshUrl = `${url.pathname}?${next.toString()}`;
  }
  // Checked again: the pack may have been withdrawn or its options changed since the order was made.
  const continueDraw =
    order.drawContext && order.channel === 'web' && !url.pathname.startsWith('/app/')
      ? await resolveCarriedDraw(db, order.drawContext.gachaId, order.drawContext.count)
      : null;
  return data<ReturnLoaderData>({
    state: 'order',
    order: withStatusLabel(order),
    canceledByMember,
    balance: walletOf(balance),
    userId: shop.member.id,
    refreshUrl,
    waitedTooLong: waiting && refreshes >= NO_JS_REFRESHES,
    continueDraw,
  });
}
