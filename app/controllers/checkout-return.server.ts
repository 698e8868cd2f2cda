// The coin shop's return pages (/shop/backfrom*, /app/return): the pending order asked of the provider
// once more, then the page that shows how it ended; the shared reading of the request is in shop.server.ts.
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { signInPathFor } from '#modules/kernel/navigation';
import { resolveCarriedDraw } from './draw-context.server';
import { getBalance } from '#modules/wallet';
import { isUuid } from '#modules/kernel';
import { getOrder, syncOrder, cancelPendingOrder } from '#modules/payments';
import type { ReturnLoaderData } from '~/components/shop/types';

import {
  SIGNED_OUT,
  pathOf,
  walletOf,
  NO_JS_REFRESHES,
  REFRESH_PARAM,
  withStatusLabel,
  ORDER_NOT_FOUND_MESSAGE,
} from './shop.server';

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
