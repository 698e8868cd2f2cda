// The coin shop's loaders and actions, as plain functions of the request context, so the web routes
// (/shop, /shop/checkout/{method}, /shop/backfrom*) and the native app's routes (/app/checkout/{method},
// /app/return) share them. The rules themselves live in modules/payments; this file only reads the
// request, calls them, and turns refusals into the Japanese message with its HTTP status (never a 500).
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { SHOP_CLOSED_MESSAGE } from '~/components/shop/types';
import { signInPathFor } from '#modules/kernel/navigation';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from './forms.server';
import { carriedDrawOf } from './draw-context.server';
import { withDrawContext, type CarriedDraw } from '~/lib/draw-context';
import { getBalance } from '#modules/wallet';
import { describeRefusal } from '#modules/refusals';
import {
  coinPackIdSchema,
  METHOD_ORDER,
  ORDER_STATUS_LABELS,
  PAYMENT_METHOD_INFO,
  type PurchaseRefused,
  declareAge,
  openCheckoutIds,
  getPurchaseStanding,
  isPaymentMethod,
  listCoinPacks,
  listOrders,
  type CoinPackView,
  type OrderView,
  type PurchaseStanding,
} from '#modules/payments';
import type {
  PaymentMethodOption,
  PurchaseHistoryPage,
  PurchaseOrder,
  ShopRefusal,
  WalletView,
} from '~/components/shop/types';
import { maintenanceRefusal, refusalInit } from './maintenance.server';
import { exclusionLastDay, usageOf } from '#modules/limits';
import type { SelfLimitSummary } from '#server/context';

/** A coin pack id from the address, or null when it is not one. */
export const packIdOf = (value: string | null) => (coinPackIdSchema.safeParse(value).success ? value : null);
/** A history cursor is an order's creation time exactly as the list hands it out (ISO 8601, UTC). */
const HISTORY_CURSOR = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

export { SHOP_CLOSED_MESSAGE };
export const CLOSED: ShopRefusal = {
  code: 'SHOP_CLOSED',
  message: `${SHOP_CLOSED_MESSAGE}。販売開始まで今しばらくお待ちください。`,
  status: 503,
};
export const SIGNED_OUT: ShopRefusal = {
  code: 'SIGN_IN_REQUIRED',
  message: 'ログイン状態を確認できませんでした。ログインしてからもう一度お試しください。',
  status: 401,
};
/** The return page's answer for an unknown order and for another member's (not found, not forbidden). */
export const ORDER_NOT_FOUND_MESSAGE = 'ご注文が見つかりません';

/** Without JavaScript the pending return page reloads itself every 3 s, at most this many times (2 minutes). */
export const NO_JS_REFRESHES = 40;
export const REFRESH_PARAM = 'refresh';

export const pathOf = (request: Request) => {
  const url = new URL(request.url);
  return url.pathname + url.search;
};

/** A refused purchase as the pages show it: the catalogue's status and Japanese message, as the API answers it. */
export const refusalOf = (error: PurchaseRefused): ShopRefusal => {
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

export const walletOf = (balance: { paid: number; free: number; total: number }): WalletView => ({
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
