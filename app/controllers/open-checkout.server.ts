// A checkout the member left open (decision 058): /shop/orders/:orderId/resume goes back to the
// provider's page where the member left off, /shop/orders/:orderId/cancel asks first and then cancels
// (the payments module asks the provider before it cancels, and a payment that still arrives later is
// credited or held for a refund by its late-payment rules). Only the order's own member reaches either:
// another member's order is the not-found page, as an unknown one.
import { data, redirect, redirectDocument } from 'react-router';
import type { ShopRequest } from '#server/context';
import { safeRedirectPath, signInPathFor } from '#modules/kernel/navigation';
import { notFound } from '~/lib/not-found';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from './forms.server';
import {
  cancelPendingOrder,
  getOrder,
  isPaymentMethod,
  openCheckoutOf,
  openFirstPurchaseCheckoutOf,
  ORDER_STATUS_LABELS,
  PAYMENT_METHOD_INFO,
  type OpenCheckoutView,
  type OrderView,
} from '#modules/payments';

/** Where a cancelled checkout's page goes when it was not told (the purchase history). */
export const PURCHASE_HISTORY_PATH = '/mypage?tab=purchases';
/** The query flag the page the member comes back to reads to say the cancel went through. */
export const CANCELED_PARAM = 'canceledCheckout';

function memberOf(shop: ShopRequest, request: Request) {
  if (!shop.member) {
    const url = new URL(request.url);
    throw redirect(signInPathFor(url.pathname + url.search));
  }
  return shop.member;
}

/** The provider's return page of an order: it shows the order as it now stands. */
const returnPageOf = (order: OrderView) =>
  `${isPaymentMethod(order.method) ? PAYMENT_METHOD_INFO[order.method].returnPath : '/shop/backfrompurchase'}?order=${order.id}`;

/** The member's open 初回限定 checkout, for the checkout page of a first-purchase pack (web only). */
export async function openFirstPurchaseFor(shop: ShopRequest): Promise<OpenCheckoutView | null> {
  if (!shop.member || !shop.services.payments) return null;
  return openFirstPurchaseCheckoutOf(shop.services.db, shop.member.id);
}

/** GET /shop/orders/:orderId/resume: the provider's page again, or the order's own page when it is settled. */
export async function resumeCheckoutLoader(shop: ShopRequest, request: Request, orderId: string) {
  const member = memberOf(shop, request);
  const open = await openCheckoutOf(shop.services.db, member.id, orderId);
  if (open) return redirectDocument(open.checkoutUrl, 303);
  const order = await getOrder(shop.services.db, member.id, orderId);
  if (!order) throw notFound(new URL(request.url).pathname);
  throw redirect(returnPageOf(order));
}

export interface CancelCheckoutData {
  order: { id: string; packName: string; amountJpy: number; methodLabel: string; statusLabel: string };
  /** Set while the checkout can still be paid or cancelled. */
  open: OpenCheckoutView | null;
  back: string;
}

/** GET /shop/orders/:orderId/cancel?back=…: the question before the cancel. */
export async function cancelCheckoutLoader(shop: ShopRequest, request: Request, orderId: string) {
  const member = memberOf(shop, request);
  const { db } = shop.services;
  const order = await getOrder(db, member.id, orderId);
  if (!order) throw notFound(new URL(request.url).pathname);
  const back = safeRedirectPath(new URL(request.url).searchParams.get('back'), PURCHASE_HISTORY_PATH);
  return {
    order: {
      id: order.id,
      packName: order.packName,
      amountJpy: order.amountJpy,
      methodLabel: order.methodLabel,
      statusLabel: ORDER_STATUS_LABELS[order.status],
    },
    open: order.status === 'pending' ? await openCheckoutOf(db, member.id, order.id) : null,
    back,
  } satisfies CancelCheckoutData;
}

/** POST /shop/orders/:orderId/cancel: cancel it at the provider and here, then back where the member was. */
export async function cancelCheckoutAction(shop: ShopRequest, request: Request, orderId: string) {
  const member = memberOf(shop, request);
  const payments = shop.services.payments;
  if (!payments) return data({ error: 'ただいまコインの購入を受け付けていません。' }, { status: 503 });
  const form = await readFormFields(request);
  if (!form || form.intent !== 'cancel') return data({ error: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  const back = safeRedirectPath(form.back, PURCHASE_HISTORY_PATH);
  let order: OrderView | null;
  try {
    order = await cancelPendingOrder(shop.services.db, payments.gateway, member.id, orderId, payments.rules);
  } catch (error) {
    shop.services.logger.warn({ err: error, orderId }, 'cancel could not reach the payment provider');
    return data(
      { error: '決済会社と通信できなかったため、キャンセルできませんでした。しばらくしてからもう一度お試しください。' },
      { status: 503 },
    );
  }
  if (!order) throw notFound(new URL(request.url).pathname);
  // Paid after all (or settled meanwhile): the order's own page says what happened.
  if (order.status !== 'canceled') throw redirect(returnPageOf(order));
  const [path, query = ''] = back.split('?', 2);
  const params = new URLSearchParams(query);
  params.set(CANCELED_PARAM, '1');
  throw redirect(`${path}?${params.toString()}`);
}
