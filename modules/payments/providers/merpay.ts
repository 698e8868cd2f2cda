// メルペイ (Merpay) adapter over REST with fetch; the API shape is an assumption awaiting Merpay's partner documentation (see merpay.md).
//
// Merpay's merchant API for online payments is only given to contracted merchants; nothing authoritative
// was public. What is public (merpay is a redirect wallet payment, JPY only, partial refunds, no
// chargebacks) shaped the flow; the request/response fields, the auth header and the webhook signature
// scheme follow the common Japanese payment-gateway pattern and are marked as assumptions in merpay.md.
// They are isolated here so the partner spec only changes this file and the stand-in.
//
// Flow: createCheckout creates a payment (merchant_payment_id = our order id, manual capture) and
// redirects the member to its checkout_url; fetchPayment reads it (GET) and captures it while
// AUTHORIZED (idempotently, with an Idempotency-Key); cancel and refund are POSTs; webhooks are
// HMAC-SHA256 signed over `timestamp.body`, checked with a tolerance, then confirmed by reading the
// payment back before anything is trusted.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ProviderError, WebhookRejected, assertWholeYen, isRetryableStatus } from './types';
import type {
  CheckoutRequest,
  CheckoutStart,
  OrderRef,
  PaymentProvider,
  ProviderPayment,
  VerifiedWebhookEvent,
  WebhookRequest,
} from './types';

export interface MerpayProviderOptions {
  /** Merpay API base URL from the partner documentation (no public default exists); the stand-in's URL in tests. */
  apiBase: string;
  /** Merchant id issued by Merpay (sent as X-Merpay-Merchant-Id). */
  merchantId: string;
  /** API secret key issued by Merpay (sent as a Bearer token). */
  apiKey: string;
  /** Shared secret for webhook signatures. */
  webhookSecret: string;
  /** How far a webhook's timestamp may be from our clock, in seconds (default 300). */
  webhookToleranceSec?: number;
  /** Per-request timeout in milliseconds. */
  timeoutMs?: number;
  /** Injected fetch (tests); defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Clock in milliseconds (tests). */
  now?: () => number;
}

export type MerpayStatus = 'created' | 'authorized' | 'captured' | 'partially_refunded' | 'refunded' | 'canceled' | 'failed' | 'expired';

/** The payment resource as this adapter expects it from Merpay (assumed shape, see merpay.md). */
export interface MerpayPayment {
  id: string;
  merchant_payment_id: string;
  amount: number;
  currency: string;
  status: MerpayStatus;
  captured_amount: number;
  refunded_amount: number;
  checkout_url?: string;
  failure_reason?: string | null;
  refunds?: { id: string; amount: number; merchant_refund_id?: string | null }[];
}

interface MerpayWebhookBody {
  id?: unknown;
  type?: unknown;
  created_at?: unknown;
  data?: { payment_id?: unknown; merchant_payment_id?: unknown; status?: unknown; amount?: unknown };
}

export const MERPAY_SIGNATURE_HEADER = 'x-merpay-signature';
export const MERPAY_TIMESTAMP_HEADER = 'x-merpay-timestamp';

/** Computes the (assumed) webhook signature: lowercase hex HMAC-SHA256 of `${timestamp}.${rawBody}`. */
export function merpaySignature(secret: string, timestamp: string, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
}

const PAYMENT_ID = /^mpay_[A-Za-z0-9]{1,64}$/;
// The event types the stand-in sends and the adapter understands; anything else is refused.
const EVENT_STATUS: Record<string, MerpayStatus> = {
  'payment.authorized': 'authorized',
  'payment.captured': 'captured',
  'payment.canceled': 'canceled',
  'payment.failed': 'failed',
  'payment.expired': 'expired',
  'payment.refunded': 'refunded',
};
// States a payment can be in after having been in the key state (the event may be older than the read).
const REACHABLE: Record<MerpayStatus, readonly MerpayStatus[]> = {
  created: ['created', 'authorized', 'captured', 'partially_refunded', 'refunded', 'canceled', 'failed', 'expired'],
  authorized: ['authorized', 'captured', 'partially_refunded', 'refunded', 'canceled', 'expired'],
  captured: ['captured', 'partially_refunded', 'refunded'],
  partially_refunded: ['partially_refunded', 'refunded'],
  refunded: ['partially_refunded', 'refunded'],
  canceled: ['canceled'],
  failed: ['failed'],
  expired: ['expired'],
};

/** Creates the Merpay adapter. */
export function createMerpayProvider(options: MerpayProviderOptions): PaymentProvider {
  for (const key of ['apiBase', 'merchantId', 'apiKey', 'webhookSecret'] as const) {
    if (!options[key]) throw new Error(`merpay: ${key} is required`);
  }
  const apiBase = options.apiBase.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 15_000;
  const toleranceSec = options.webhookToleranceSec ?? 300;
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown, idempotencyKey?: string): Promise<T> {
    let response: Response;
    try {
      response = await doFetch(`${apiBase}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${options.apiKey}`,
          'X-Merpay-Merchant-Id': options.merchantId,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new ProviderError(`merpay: ${method} ${path} failed to reach Merpay`, true, error);
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) throw new MerpayApiError(response.status, text, `${method} ${path}`);
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new ProviderError(`merpay: ${method} ${path} answered with a body that is not JSON`, true, error);
    }
  }

  const getPayment = (id: string) => call<MerpayPayment>('GET', `/v1/payments/${encodeURIComponent(id)}`);

  function paymentIdOf(order: OrderRef): string {
    if (!PAYMENT_ID.test(order.providerRef)) throw new ProviderError(`merpay: ${JSON.stringify(order.providerRef)} is not a Merpay payment id`, false);
    return order.providerRef;
  }

  function assertOurs(payment: MerpayPayment, orderId: string): void {
    if (payment.merchant_payment_id !== orderId) {
      throw new ProviderError(`merpay: payment ${payment.id} does not belong to order ${orderId}`, false);
    }
  }

  async function cancelPayment(payment: MerpayPayment, orderId: string): Promise<void> {
    try {
      await call<MerpayPayment>('POST', `/v1/payments/${encodeURIComponent(payment.id)}/cancel`, {}, `cancel:${orderId}`);
    } catch (error) {
      if (!(error instanceof MerpayApiError) || error.retryable) throw error;
      const fresh = await getPayment(payment.id);
      if (fresh.status === 'created' || fresh.status === 'authorized') throw error;
    }
  }

  return {
    method: 'merpay',

    async createCheckout(request: CheckoutRequest): Promise<CheckoutStart> {
      assertWholeYen('merpay', request.amountJpy);
      const payment = await call<MerpayPayment>(
        'POST',
        '/v1/payments',
        {
          merchant_payment_id: request.orderId,
          amount: request.amountJpy,
          currency: 'JPY',
          order_description: request.description,
          capture_mode: 'manual',
          redirect_url: request.returnUrl,
          cancel_url: request.cancelUrl,
          notification_url: request.webhookUrl,
          metadata: { member_id: request.memberId },
        },
        // One order, one payment: a retried create returns the payment made the first time.
        `create:${request.orderId}`,
      );
      assertOurs(payment, request.orderId);
      if (!payment.checkout_url || !PAYMENT_ID.test(payment.id)) throw new ProviderError('merpay: create answered without checkout_url or id', false);
      return { redirectUrl: payment.checkout_url, providerRef: payment.id };
    },

    // returnParams are not needed: the payment id is known from createCheckout, and what the return
    // URL says (payment_id, status) is never trusted over the API.
    async fetchPayment(order: OrderRef): Promise<ProviderPayment> {
      let payment = await getPayment(paymentIdOf(order));
      assertOurs(payment, order.orderId);
      if (payment.status === 'authorized') {
        if (payment.amount !== order.amountJpy || payment.currency !== 'JPY') {
          await cancelPayment(payment, order.orderId);
          return { status: 'failed', reason: `金額が一致しません（注文 ${order.amountJpy}円 / メルペイ ${payment.amount}円）` };
        }
        try {
          payment = await call<MerpayPayment>('POST', `/v1/payments/${encodeURIComponent(payment.id)}/capture`, { amount: order.amountJpy }, `capture:${order.orderId}`);
        } catch (error) {
          if (!(error instanceof MerpayApiError) || error.retryable) throw error;
          payment = await getPayment(payment.id);
          if (payment.status === 'authorized') throw error;
        }
      }
      return mapPayment(payment);
    },

    async cancel(order: OrderRef): Promise<void> {
      const payment = await getPayment(paymentIdOf(order));
      assertOurs(payment, order.orderId);
      if (payment.status === 'created' || payment.status === 'authorized') return cancelPayment(payment, order.orderId);
      if (payment.status === 'canceled' || payment.status === 'failed' || payment.status === 'expired') return;
      throw new ProviderError(`merpay: payment ${payment.id} is ${payment.status}; refund it instead`, false);
    },

    async refund(order, amountJpy, reason): Promise<void> {
      assertWholeYen('merpay', amountJpy);
      if (!PAYMENT_ID.test(order.providerPaymentId)) throw new ProviderError(`merpay: ${order.providerPaymentId} is not a Merpay payment id`, false);
      const merchantRefundId = `${order.orderId}:${amountJpy}`;
      const payment = await getPayment(order.providerPaymentId);
      assertOurs(payment, order.orderId);
      // Already refunded this (order, amount): done, whatever reason text the first call carried.
      if ((payment.refunds ?? []).some((r) => r.merchant_refund_id === merchantRefundId)) return;
      await call<MerpayPayment>(
        'POST',
        `/v1/payments/${encodeURIComponent(order.providerPaymentId)}/refunds`,
        { amount: amountJpy, reason, merchant_refund_id: merchantRefundId },
        // Idempotent per (order, amount), as the interface asks.
        `refund:${order.orderId}:${amountJpy}`,
      );
    },

    async verifyWebhook(request: WebhookRequest): Promise<VerifiedWebhookEvent[]> {
      const signature = request.headers.get(MERPAY_SIGNATURE_HEADER);
      const timestamp = request.headers.get(MERPAY_TIMESTAMP_HEADER);
      if (!signature || !timestamp) throw new WebhookRejected('merpay: webhook signature headers are missing', 401);
      if (!/^[0-9]{1,12}$/.test(timestamp)) throw new WebhookRejected('merpay: webhook timestamp is not a number', 401);
      if (Math.abs(now() / 1000 - Number(timestamp)) > toleranceSec) {
        throw new WebhookRejected('merpay: webhook timestamp is outside the tolerance', 401);
      }
      const expected = Buffer.from(merpaySignature(options.webhookSecret, timestamp, request.rawBody), 'hex');
      const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new WebhookRejected('merpay: webhook signature does not match', 401);
      }
      let body: MerpayWebhookBody;
      try {
        body = JSON.parse(request.rawBody) as MerpayWebhookBody;
      } catch {
        throw new WebhookRejected('merpay: webhook body is not JSON', 400);
      }
      const eventId = typeof body?.id === 'string' ? body.id : '';
      const type = typeof body?.type === 'string' ? body.type : '';
      const paymentId = typeof body?.data?.payment_id === 'string' ? body.data.payment_id : '';
      if (!eventId || !PAYMENT_ID.test(paymentId)) throw new WebhookRejected('merpay: webhook lacks id or payment_id', 400);
      const announced = EVENT_STATUS[type];
      if (!announced) throw new WebhookRejected(`merpay: unknown event type ${JSON.stringify(type)}`, 422);
      // Signed is not enough to act on: read the payment back and refuse events the API contradicts.
      let payment: MerpayPayment;
      try {
        payment = await getPayment(paymentId);
      } catch (error) {
        if (error instanceof MerpayApiError && error.status === 404) throw new WebhookRejected(`merpay: payment ${paymentId} does not exist`, 404);
        throw error;
      }
      if (body.data?.merchant_payment_id !== payment.merchant_payment_id) throw new WebhookRejected('merpay: merchant_payment_id disagrees with the payment', 422);
      if (body.data?.amount !== undefined && body.data.amount !== payment.amount) throw new WebhookRejected('merpay: amount disagrees with the payment', 422);
      if (!REACHABLE[announced].includes(payment.status)) {
        throw new WebhookRejected(`merpay: ${type} contradicts the payment's status ${payment.status}`, 422);
      }
      return [
        {
          eventId,
          type,
          orderId: payment.merchant_payment_id,
          providerRef: payment.id,
          hint: hintFor(announced),
        },
      ];
    },
  };
}

/** Maps a Merpay payment to what the shop understands. */
function mapPayment(payment: MerpayPayment): ProviderPayment {
  switch (payment.status) {
    case 'created':
    case 'authorized':
      return { status: 'pending' };
    case 'captured':
      return { status: 'paid', amountJpy: payment.captured_amount, providerPaymentId: payment.id };
    case 'partially_refunded':
    case 'refunded':
      return { status: 'refunded', amountJpy: payment.captured_amount, refundedJpy: payment.refunded_amount, providerPaymentId: payment.id };
    case 'canceled':
      return { status: 'canceled' };
    case 'failed':
      return { status: 'failed', reason: payment.failure_reason || 'メルペイで決済できませんでした' };
    case 'expired':
      return { status: 'failed', reason: 'お支払いの有効期限が切れました' };
    default:
      throw new ProviderError(`merpay: unknown payment status ${JSON.stringify(payment.status)}`, false);
  }
}

function hintFor(status: MerpayStatus): VerifiedWebhookEvent['hint'] {
  switch (status) {
    // Authorised completes the payment here: fetchPayment captures it right away.
    case 'authorized':
    case 'captured':
      return 'paid';
    case 'partially_refunded':
    case 'refunded':
      return 'refunded';
    case 'canceled':
      return 'canceled';
    case 'failed':
    case 'expired':
      return 'failed';
    case 'created':
      return 'pending';
  }
}

/** A non-2xx answer from the Merpay API, keeping the HTTP status. */
class MerpayApiError extends ProviderError {
  constructor(readonly status: number, body: string, what: string) {
    super(`merpay: ${what} answered ${status}${describeError(body)}`, isRetryableStatus(status));
  }
}

/** Errors are assumed to be `{ error: { code, message } }`. */
function describeError(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } };
    const parts = [parsed.error?.code, parsed.error?.message].filter((p): p is string => typeof p === 'string');
    return parts.length ? `: ${parts.join(' — ')}` : '';
  } catch {
    return '';
  }
}
