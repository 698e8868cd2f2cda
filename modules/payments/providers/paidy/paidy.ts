// Paidy (あと払いペイディ) adapter: Paidy Checkout authorises in the browser, this adapter captures, closes and refunds over Paidy's REST API.
//
// How a Paidy payment flows here (see paidy.md):
// - Paidy has no hosted payment page: Paidy Checkout is a JavaScript widget (paidy.js) that runs on the
//   merchant's page and creates the payment itself. So createCheckout only points the member at OUR
//   page `/shop/checkout/paidy/widget?order=…`, which loads paidy.js (in local demo mode the stand-in
//   serves a look-alike at the same path). The payment id therefore is not known yet: providerRef is
//   `pending:<orderId>` and the real `pay_…` id arrives in the return URL's `payment_id` parameter.
// - fetchPayment reads the payment (GET /payments/{id}), proves it is ours (order.order_ref = our order id,
//   amount = the order's amount) and captures it while it is still AUTHORIZED. Paidy closes a payment
//   when it is captured, so "closed with a capture" is paid and "closed without one" is cancelled/expired.
// - Paidy's webhooks carry no signature, so verifyWebhook proves each event by reading the payment back
//   from the API with our secret key and rejecting events the API contradicts.
import { ProviderError, WebhookRejected, assertWholeYen, isRetryableStatus } from '../types';
import type {
  CheckoutRequest,
  CheckoutStart,
  OrderRef,
  PaymentProvider,
  ProviderPayment,
  VerifiedWebhookEvent,
  WebhookRequest,
} from '../types';

export interface PaidyProviderOptions {
  /** Paidy secret key (sk_live_… or sk_test_…); the API authenticates every call with it. */
  secretKey: string;
  /** Paidy API base URL; https://api.paidy.com in production, the stand-in's URL in tests and demos. */
  apiBase?: string;
  /** Value of the Paidy-Version header; the payment shapes below are those of 2018-04-10. */
  apiVersion?: string;
  /**
   * Origin that serves the Paidy Checkout page `/shop/checkout/paidy/widget`. In production that is the
   * shop itself (the default: the origin of the request's returnUrl); in demos and tests the stand-in.
   */
  widgetBase?: string;
  /** Per-request timeout in milliseconds. */
  timeoutMs?: number;
  /** Injected fetch (tests); defaults to the global fetch. */
  fetch?: typeof fetch;
}

/** The Paidy payment object (API version 2018-04-10), only the fields this adapter reads. */
export interface PaidyPayment {
  id: string;
  status: 'authorized' | 'closed' | 'rejected';
  amount: number;
  currency: string;
  created_at?: string;
  expires_at?: string;
  order?: { order_ref?: string | null };
  captures?: { id: string; amount: number; created_at?: string }[];
  refunds?: { id: string; capture_id: string; amount: number; reason?: string | null; created_at?: string }[];
}

/** Body of a Paidy payment webhook (https://paidy.com/docs/en/webhook.html). */
interface PaidyWebhookBody {
  payment_id?: unknown;
  capture_id?: unknown;
  event_type?: unknown;
  status?: unknown;
  order_ref?: unknown;
  timestamp?: unknown;
}

const DEFAULT_API_BASE = 'https://api.paidy.com';
const DEFAULT_API_VERSION = '2018-04-10';
const PENDING_PREFIX = 'pending:';
// Paidy ids are `pay_` plus letters and digits; anything else never reaches a URL path.
const PAYMENT_ID = /^pay_[A-Za-z0-9]{1,64}$/;
const WEBHOOK_STATUSES = [
  'authorize_success',
  'capture_success',
  'refund_success',
  'close_success',
  'update_success',
] as const;
type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** Creates the Paidy adapter. */
export function createPaidyProvider(options: PaidyProviderOptions): PaymentProvider {
  if (!options.secretKey) throw new Error('paidy: secretKey is required');
  const apiBase = (options.apiBase ?? DEFAULT_API_BASE).replace(/\/+$/, '');
  const apiVersion = options.apiVersion ?? DEFAULT_API_VERSION;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const doFetch = options.fetch ?? fetch;

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await doFetch(`${apiBase}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${options.secretKey}`,
          'Paidy-Version': apiVersion,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new ProviderError(`paidy: ${method} ${path} failed to reach Paidy`, true, error);
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) {
      throw new PaidyApiError(response.status, text, `${method} ${path}`);
    }
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new ProviderError(`paidy: ${method} ${path} answered with a body that is not JSON`, true, error);
    }
  }

  const getPayment = (id: string) => call<PaidyPayment>('GET', `/payments/${encodeURIComponent(id)}`);

  /** Captures an AUTHORIZED payment once; a lost race (already captured by a parallel call) is not an error. */
  async function captureOnce(payment: PaidyPayment, orderId: string): Promise<PaidyPayment> {
    try {
      return await call<PaidyPayment>('POST', `/payments/${encodeURIComponent(payment.id)}/captures`, {
        metadata: { order_id: orderId },
      });
    } catch (error) {
      if (!(error instanceof PaidyApiError) || error.retryable) throw error;
      // Paidy refuses to capture a payment that is no longer AUTHORIZED: read it back and report what it is.
      const fresh = await getPayment(payment.id);
      if (fresh.status === 'authorized') throw error;
      return fresh;
    }
  }

  async function closeOnce(id: string): Promise<void> {
    try {
      await call<PaidyPayment>('POST', `/payments/${encodeURIComponent(id)}/close`, {});
    } catch (error) {
      if (!(error instanceof PaidyApiError) || error.retryable) throw error;
      const fresh = await getPayment(id);
      if (fresh.status === 'authorized') throw error;
    }
  }

  return {
    method: 'paidy',

    async createCheckout(request: CheckoutRequest): Promise<CheckoutStart> {
      assertWholeYen('paidy', request.amountJpy);
      // No API call: the payment is created by Paidy Checkout in the browser. The page gets what it
      // needs in the query; our own page must take amount and description from the order, never from
      // the query — fetchPayment rejects payments whose amount or order_ref differ anyway.
      const base = options.widgetBase ?? new URL(request.returnUrl).origin;
      const url = new URL('/shop/checkout/paidy/widget', base);
      url.searchParams.set('order', request.orderId);
      url.searchParams.set('amount', String(request.amountJpy));
      url.searchParams.set('description', request.description);
      url.searchParams.set('return', request.returnUrl);
      url.searchParams.set('cancel', request.cancelUrl);
      return { redirectUrl: url.toString(), providerRef: `${PENDING_PREFIX}${request.orderId}` };
    },

    async fetchPayment(order: OrderRef, returnParams?: URLSearchParams): Promise<ProviderPayment> {
      const id = paymentIdFor(order, returnParams);
      // No payment id yet: the member has not finished Paidy Checkout (or closed it).
      if (!id) return { status: 'pending' };
      let payment = await getPayment(id);
      if ((payment.order?.order_ref ?? null) !== order.orderId) {
        // Someone else's payment (e.g. a payment_id pasted into our return URL): never touch it.
        throw new ProviderError(`paidy: payment ${id} does not belong to order ${order.orderId}`, false);
      }
      if (payment.status === 'rejected')
        return { status: 'failed', reason: 'ペイディの審査で決済が承認されませんでした' };
      if (payment.status === 'authorized') {
        if (payment.amount !== order.amountJpy || payment.currency !== 'JPY') {
          // The browser-side payload was altered: release the authorisation instead of capturing it.
          await closeOnce(payment.id);
          return {
            status: 'failed',
            reason: `金額が一致しません（注文 ${order.amountJpy}円 / ペイディ ${payment.amount}円）`,
          };
        }
        payment = await captureOnce(payment, order.orderId);
      }
      return mapClosed(payment);
    },

    async cancel(order: OrderRef): Promise<void> {
      const id = PAYMENT_ID.test(order.providerRef) ? order.providerRef : null;
      // Without a payment id there is nothing at Paidy to close (the widget never authorised one).
      if (!id) return;
      const payment = await getPayment(id);
      if (payment.status === 'rejected') return;
      if (payment.status === 'closed') {
        if ((payment.captures ?? []).length > 0) {
          throw new ProviderError(`paidy: payment ${id} is already captured; refund it instead`, false);
        }
        return;
      }
      await closeOnce(id);
    },

    async refund(order, amountJpy, reason): Promise<void> {
      assertWholeYen('paidy', amountJpy);
      if (!PAYMENT_ID.test(order.providerPaymentId)) {
        throw new ProviderError(`paidy: ${order.providerPaymentId} is not a Paidy payment id`, false);
      }
      const payment = await getPayment(order.providerPaymentId);
      if ((payment.order?.order_ref ?? null) !== order.orderId) {
        throw new ProviderError(`paidy: payment ${payment.id} does not belong to order ${order.orderId}`, false);
      }
      const capture = (payment.captures ?? [])[0];
      if (payment.status !== 'closed' || !capture) {
        throw new ProviderError(`paidy: payment ${payment.id} has no capture to refund`, false);
      }
      const refunds = payment.refunds ?? [];
      // Paidy takes no idempotency key: a refund of the same amount already on the payment is this one.
      if (refunds.some((r) => r.amount === amountJpy)) return;
      const refunded = refunds.reduce((sum, r) => sum + r.amount, 0);
      if (refunded + amountJpy > capture.amount) {
        throw new ProviderError(
          `paidy: refund of ${amountJpy} exceeds what is left (${capture.amount - refunded})`,
          false,
        );
      }
      await call<PaidyPayment>('POST', `/payments/${encodeURIComponent(payment.id)}/refunds`, {
        capture_id: capture.id,
        amount: amountJpy,
        reason,
        metadata: { order_id: order.orderId },
      });
    },

    async verifyWebhook(request: WebhookRequest): Promise<VerifiedWebhookEvent[]> {
      let body: PaidyWebhookBody;
      try {
        body = JSON.parse(request.rawBody) as PaidyWebhookBody;
      } catch {
        throw new WebhookRejected('paidy: webhook body is not JSON', 400);
      }
      if (!body || typeof body !== 'object') throw new WebhookRejected('paidy: webhook body is not an object', 400);
      const paymentId = typeof body.payment_id === 'string' ? body.payment_id : '';
      if (!PAYMENT_ID.test(paymentId)) throw new WebhookRejected('paidy: webhook has no valid payment_id', 400);
      const status = typeof body.status === 'string' ? body.status : '';
      if (!(WEBHOOK_STATUSES as readonly string[]).includes(status)) {
        throw new WebhookRejected(`paidy: unknown webhook status ${JSON.stringify(status)}`, 422);
      }
      // Paidy does not sign webhooks: the only proof is Paidy's own API answering for the payment.
      let payment: PaidyPayment;
      try {
        payment = await getPayment(paymentId);
      } catch (error) {
        if (error instanceof PaidyApiError && error.status === 404) {
          throw new WebhookRejected(`paidy: payment ${paymentId} does not exist at Paidy`, 404);
        }
        throw error;
      }
      const orderRef = payment.order?.order_ref ?? null;
      if (body.order_ref !== undefined && body.order_ref !== null && body.order_ref !== orderRef) {
        throw new WebhookRejected(`paidy: webhook order_ref disagrees with payment ${paymentId}`, 422);
      }
      const contradiction = contradicts(status as WebhookStatus, payment, body.capture_id);
      if (contradiction)
        throw new WebhookRejected(`paidy: webhook ${status} contradicts payment ${paymentId}: ${contradiction}`, 422);
      const captureId = typeof body.capture_id === 'string' ? body.capture_id : '';
      // Unsigned, so nothing the sender chooses (such as its timestamp) may make a new event: the id is
      // the payment's state as Paidy itself reports it (refunds counted), which a replay cannot change.
      const refunds = (payment.refunds ?? [])
        .map((r) => r.id)
        .sort()
        .join(',');
      return [
        {
          // Paidy sends no event id; these fields are what a redelivery of the same event repeats.
          eventId: `${paymentId}:${status}:${captureId}:${payment.status}:${refunds}`,
          type: status,
          orderId: orderRef,
          providerRef: paymentId,
          hint: hintFor(status as WebhookStatus, payment),
        },
      ];
    },
  };
}

/** The payment id to read: the return URL's `payment_id` (or the webhook processor's), else a stored `pay_…` providerRef. */
function paymentIdFor(order: OrderRef, returnParams?: URLSearchParams): string | null {
  const fromReturn = returnParams?.get('payment_id') ?? null;
  if (fromReturn !== null && fromReturn !== '') {
    if (!PAYMENT_ID.test(fromReturn))
      throw new ProviderError(`paidy: ${JSON.stringify(fromReturn)} is not a Paidy payment id`, false);
    return fromReturn;
  }
  return PAYMENT_ID.test(order.providerRef) ? order.providerRef : null;
}

/** Maps a payment Paidy no longer holds open (closed, or still authorised after a failed capture). */
function mapClosed(payment: PaidyPayment): ProviderPayment {
  if (payment.status === 'rejected') return { status: 'failed', reason: 'ペイディの審査で決済が承認されませんでした' };
  if (payment.status === 'authorized') return { status: 'pending' };
  const captured = (payment.captures ?? []).reduce((sum, c) => sum + c.amount, 0);
  // Closed with nothing captured: closed by us, or the authorisation expired.
  if (captured === 0) return { status: 'canceled' };
  const refunded = (payment.refunds ?? []).reduce((sum, r) => sum + r.amount, 0);
  if (refunded > 0)
    return { status: 'refunded', amountJpy: captured, refundedJpy: refunded, providerPaymentId: payment.id };
  return { status: 'paid', amountJpy: captured, providerPaymentId: payment.id };
}

/** Why the payment read back from Paidy cannot be in the state the webhook announces, or null. */
function contradicts(status: WebhookStatus, payment: PaidyPayment, captureId: unknown): string | null {
  const captures = payment.captures ?? [];
  switch (status) {
    case 'authorize_success':
      return payment.status === 'rejected' ? 'payment is rejected' : null;
    case 'capture_success':
      if (captures.length === 0) return 'payment has no capture';
      if (typeof captureId === 'string' && captureId !== '' && !captures.some((c) => c.id === captureId))
        return 'unknown capture_id';
      return null;
    case 'refund_success':
      return (payment.refunds ?? []).length === 0 ? 'payment has no refund' : null;
    case 'close_success':
      return payment.status !== 'closed' ? `payment is ${payment.status}` : null;
    case 'update_success':
      return null;
  }
}

function hintFor(status: WebhookStatus, payment: PaidyPayment): VerifiedWebhookEvent['hint'] {
  switch (status) {
    // Authorised is what completes a Paidy payment here: fetchPayment captures it right away.
    case 'authorize_success':
    case 'capture_success':
      return 'paid';
    case 'refund_success':
      return 'refunded';
    case 'close_success':
      return (payment.captures ?? []).length > 0
        ? (payment.refunds ?? []).length > 0
          ? 'refunded'
          : 'paid'
        : 'canceled';
    case 'update_success':
      return 'unknown';
  }
}

/** A non-2xx answer from the Paidy API; keeps the HTTP status so callers can tell 404 and 4xx apart. */
class PaidyApiError extends ProviderError {
  constructor(
    readonly status: number,
    body: string,
    what: string,
  ) {
    super(`paidy: ${what} answered ${status}${describeError(body)}`, isRetryableStatus(status));
  }
}

/** Paidy errors are `{ reference, status, code, title, description }`; keep code and title for the log. */
function describeError(body: string): string {
  try {
    const parsed = JSON.parse(body) as { code?: unknown; title?: unknown; description?: unknown };
    const parts = [parsed.code, parsed.title ?? parsed.description].filter((p): p is string => typeof p === 'string');
    return parts.length ? `: ${parts.join(' — ')}` : '';
  } catch {
    return '';
  }
}
