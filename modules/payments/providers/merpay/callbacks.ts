// Merpay's confirm and completion callbacks: unsigned, so each must carry the token only Merpay was given,
// and is then proved against Merpay's own record of the transaction (the why: the header of merpay.ts).
import { isUuid } from '#modules/kernel';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookRejected } from '../types';
import type { VerifiedWebhookEvent, WebhookRequest } from '../types';
import { call, derive, readTransaction, type MerpayClient } from './client';
import {
  MERPAY_BOUND_AMOUNT_PARAM,
  MERPAY_BOUND_ORDER_PARAM,
  MERPAY_CALLBACK_TOKEN_PARAM,
  MERPAY_PATHS,
  MerpayApiError,
  TRANSACTION_ID,
  isObject,
  toInt,
  type CallbackKind,
  type MerpayTransitionStatus,
} from './protocol';

/** The event a confirm or completion callback announces, once its token and Merpay's record agree. */
export async function verifyWebhook(client: MerpayClient, request: WebhookRequest): Promise<VerifiedWebhookEvent[]> {
  let body: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(request.rawBody);
    if (!isObject(parsed)) throw new Error('not an object');
    body = parsed;
  } catch {
    throw new WebhookRejected('merpay: callback body is not a JSON object', 400);
  }
  const kind = callbackKind(body);
  if (!kind) throw new WebhookRejected('merpay: not a confirm or completion callback', 422);
  const transactionId = typeof body.transactionId === 'string' ? body.transactionId : '';
  if (!TRANSACTION_ID.test(transactionId))
    throw new WebhookRejected('merpay: callback has no valid transactionId', 400);
  const orderId = typeof body.orderId === 'string' ? body.orderId : '';
  // Every order of this shop is a UUID: anything else is not ours.
  if (!isUuid(orderId)) throw new WebhookRejected('merpay: callback orderId is not one of our order ids', 422);
  const amount = toInt(body.amount);
  if (amount === null || amount <= 0) throw new WebhookRejected('merpay: callback has no valid amount', 400);
  // We never ask for shipping: a fee on top would change what the member pays.
  const shippingFee = body.shippingFee === undefined || body.shippingFee === null ? 0 : toInt(body.shippingFee);
  if (shippingFee !== 0)
    throw new WebhookRejected('merpay: callback carries a shipping fee this shop never asked for', 422);
  // The token of the URL Merpay was given for this order and amount: without it the callback may come
  // from anyone who knows the order (the member does), so it is refused before Merpay is asked anything.
  if (!hasCallbackToken([request.url, body.url], client.options.clientSecret, orderId, amount)) {
    throw new WebhookRejected('merpay: callback URL does not carry the token given to Merpay for this order', 401);
  }

  // Unsigned: only Merpay's API, asked with our credentials, can vouch for it.
  const read = await readOrReject(() => readTransaction(client, transactionId), transactionId);
  const state = derive(read);
  if (read.payment) {
    if (read.payment.orderId !== orderId)
      throw new WebhookRejected('merpay: callback orderId disagrees with the transaction', 422);
    const authorized = toInt(read.payment.authorizedAmount) ?? 0;
    if (authorized !== amount) throw new WebhookRejected('merpay: callback amount disagrees with the transaction', 422);
    if (kind === 'confirm' && state.kind === 'canceled')
      throw new WebhookRejected('merpay: confirm for a canceled transaction', 422);
  } else {
    if (kind === 'completion')
      throw new WebhookRejected('merpay: completion for a transaction Merpay shows no payment for', 422);
    // Before payment Merpay's public reads give no amount: check the binding we put in the returnUrl.
    const status = await readOrReject(
      () => call<MerpayTransitionStatus>(client, MERPAY_PATHS.transitionStatus, { transactionId }),
      transactionId,
    );
    const bound = boundOrder(status?.returnUrl);
    if (!bound) throw new WebhookRejected('merpay: the transaction was not created by this shop', 422);
    if (bound.orderId !== orderId)
      throw new WebhookRejected('merpay: callback orderId disagrees with the transaction', 422);
    if (bound.amount !== amount)
      throw new WebhookRejected('merpay: callback amount disagrees with the transaction', 422);
  }
  return [
    {
      eventId: `${kind}:${transactionId}`,
      type: kind,
      orderId,
      providerRef: transactionId,
      hint: kind === 'confirm' ? 'pending' : 'paid',
      // Merpay waits on this answer (the confirm decides whether it charges): a plain 200 with an
      // empty JSON object, which any response message parses, rather than our receipt fields.
      reply: { status: 200, json: {} },
    },
  ];
}

/**
 * Reads for a callback. An id Merpay does not know (404) or will not show us (400, 403) is a forged
 * callback; anything else (an outage, our own credentials refused) stays an error, so the route answers
 * 5xx, Merpay may retry, and the operator sees it.
 */
async function readOrReject<T>(read: () => Promise<T>, transactionId: string): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof MerpayApiError && error.notFound)
      throw new WebhookRejected(`merpay: transaction ${transactionId} does not exist at Merpay`, 404);
    if (error instanceof MerpayApiError && (error.status === 400 || error.status === 403)) {
      throw new WebhookRejected(
        `merpay: Merpay refused to show transaction ${transactionId} (${error.status})`,
        error.status,
      );
    }
    throw error;
  }
}

/** confirm or completion: from the `?kind=` of the URL Merpay called (the body's `url`), else from the body's shape. */
function callbackKind(body: Record<string, unknown>): CallbackKind | null {
  if (typeof body.url === 'string') {
    try {
      const kind = new URL(body.url).searchParams.get('kind');
      if (kind === 'confirm' || kind === 'completion') return kind;
    } catch {
      // Not a URL: fall back to the shape.
    }
  }
  // GetShippingFeeRequest carries `area`; this shop never registers a shippingFeeUrl.
  if ('area' in body) return null;
  const completionOnly = ['inquiryCode', 'orderName', 'buyer', 'paymentContractType', 'deliveryAddress'];
  return completionOnly.some((field) => field in body) ? 'completion' : 'confirm';
}

/**
 * The token the callback URLs carry: HMAC-SHA256 of the order id and amount, keyed by our client secret.
 * @example callbackToken('secret', '0b7c…', 1000) // 43 base64url characters
 */
export function callbackToken(clientSecret: string, orderId: string, amountJpy: number): string {
  return createHmac('sha256', clientSecret)
    .update(`merpay-callback\u0000${orderId.toLowerCase()}\u0000${amountJpy}`)
    .digest('base64url');
}

/**
 * Whether one of the URLs (the one the request came to, then the callback's own `url` field) carries the
 * token for this order and amount. The token is the secret, so either place proves the same.
 */
function hasCallbackToken(urls: unknown[], clientSecret: string, orderId: string, amountJpy: number): boolean {
  const expected = Buffer.from(callbackToken(clientSecret, orderId, amountJpy));
  return urls.some((url) => {
    if (typeof url !== 'string') return false;
    let given: string | null;
    try {
      given = new URL(url).searchParams.get(MERPAY_CALLBACK_TOKEN_PARAM);
    } catch {
      return false;
    }
    const candidate = Buffer.from(given ?? '');
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  });
}

/** The order id and amount createCheckout put into the returnUrl, or null when they are not there. */
function boundOrder(returnUrl: unknown): { orderId: string; amount: number } | null {
  if (typeof returnUrl !== 'string') return null;
  try {
    const params = new URL(returnUrl).searchParams;
    const orderId = params.get(MERPAY_BOUND_ORDER_PARAM);
    const amount = toInt(params.get(MERPAY_BOUND_AMOUNT_PARAM));
    return orderId && amount !== null ? { orderId, amount } : null;
  } catch {
    return null;
  }
}
