// Stripe adapter (クレジットカード): Checkout Sessions in payment mode through the official `stripe` SDK.
//
// How a purchase runs (see providers/stripe.md for the documentation this follows):
// - createCheckout makes a hosted Checkout Session (JPY, card only) whose client_reference_id and
//   metadata.orderId are our order id; the PaymentIntent gets the same metadata so charge/dispute
//   events can be matched too. The idempotency key `checkout:<orderId>` makes a retried create return
//   the same session.
// - fetchPayment re-reads the session with its PaymentIntent and latest charge expanded and maps
//   Stripe's state to ours (disputes first, then refunds, then paid). Nothing needs capturing: Checkout
//   in payment mode captures automatically.
// - cancel expires an open session; refund creates a Refund on the PaymentIntent.
// - verifyWebhook checks `Stripe-Signature` with the SDK (HMAC-SHA256 over `${t}.${body}`, 300 s).
import Stripe from 'stripe';
import {
  ProviderError,
  WebhookRejected,
  type CheckoutRequest,
  type CheckoutStart,
  type OrderRef,
  type PaymentProvider,
  type ProviderPayment,
  type VerifiedWebhookEvent,
  type WebhookRequest,
} from '../types';

export interface StripeProviderOptions {
  /** Secret (sk_live_… / sk_test_…) or restricted (rk_…) API key. */
  secretKey: string;
  /** Signing secret of our webhook endpoint (whsec_…), shown per endpoint in the Dashboard. */
  webhookSecret: string;
  /** API base URL; only set it to point the SDK at the local stand-in (e.g. http://127.0.0.1:4242). */
  apiBaseUrl?: string;
  /** Oldest webhook timestamp accepted, in seconds (Stripe's libraries default to 300). */
  webhookToleranceSeconds?: number;
  /** SDK retries for network errors, 409 and 5xx (POSTs carry idempotency keys). Default 2. */
  maxNetworkRetries?: number;
  /** Per-request timeout in milliseconds. Default 20 000 (the SDK's own default is 80 s). */
  timeoutMs?: number;
}

/** Dispute states in which the money has been taken back from us (or the shop lost). */
const DISPUTE_HOLDS_FUNDS = new Set([
  'needs_response',
  'under_review',
  'lost',
  'appeal_needs_response',
  'appeal_under_review',
]);

/** Creates the Stripe Checkout adapter. */
export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  if (!options.secretKey) throw new Error('Stripe: secretKey is required');
  if (!options.webhookSecret) throw new Error('Stripe: webhookSecret is required');

  const config: Stripe.StripeConfig = {
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    timeout: options.timeoutMs ?? 20_000,
    appInfo: { name: 'oripa-shop' },
  };
  if (options.apiBaseUrl) {
    const base = new URL(options.apiBaseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('Stripe: apiBaseUrl must be http(s)');
    config.host = base.hostname;
    config.protocol = base.protocol === 'http:' ? 'http' : 'https';
    config.port = base.port || (base.protocol === 'http:' ? 80 : 443);
  }
  const stripe = new Stripe(options.secretKey, config);
  const tolerance = options.webhookToleranceSeconds ?? 300;

  async function retrieveSession(sessionId: string): Promise<Stripe.Checkout.Session> {
    try {
      return await stripe.checkout.sessions.retrieve(sessionId, {
        expand: ['payment_intent', 'payment_intent.latest_charge'],
      });
    } catch (err) {
      throw toProviderError(err, 'Checkout Session の取得');
    }
  }

  /** Finds the Checkout Session behind a PaymentIntent (charge and dispute events only name the PaymentIntent). */
  async function sessionForPaymentIntent(paymentIntentId: string): Promise<Stripe.Checkout.Session | null> {
    try {
      const list = await stripe.checkout.sessions.list({ payment_intent: paymentIntentId, limit: 1 });
      return list.data[0] ?? null;
    } catch (err) {
      throw toProviderError(err, 'Checkout Session の検索');
    }
  }

  return {
    method: 'stripe',

    async createCheckout(request: CheckoutRequest): Promise<CheckoutStart> {
      assertYen(request.amountJpy);
      const metadata = { orderId: request.orderId, memberId: request.memberId };
      try {
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            // Card only: this method is shown to members as クレジットカード. (payment_method_types was
            // removed from Checkout Sessions in API 2026-09-30.endive; allowed_payment_method_types replaces it.)
            allowed_payment_method_types: ['card'],
            line_items: [
              {
                quantity: 1,
                // JPY is zero-decimal: unit_amount 1000 is ¥1,000.
                price_data: {
                  currency: 'jpy',
                  unit_amount: request.amountJpy,
                  product_data: { name: request.description },
                },
              },
            ],
            client_reference_id: request.orderId,
            metadata,
            payment_intent_data: { metadata, description: request.description },
            customer_email: request.email ?? undefined,
            locale: 'ja',
            success_url: withSessionIdPlaceholder(request.returnUrl),
            cancel_url: request.cancelUrl,
          },
          // Same order, same key: a retry (ours or the SDK's) gets the session created the first time.
          { idempotencyKey: `checkout:${request.orderId}` },
        );
        if (!session.url) throw new ProviderError('Stripe: Checkout Session has no url', false);
        return { redirectUrl: session.url, providerRef: session.id };
      } catch (err) {
        throw toProviderError(err, 'Checkout Session の作成');
      }
    },

    async fetchPayment(order: OrderRef, _returnParams?: URLSearchParams): Promise<ProviderPayment> {
      // The return URL's session_id is not trusted (anyone can edit it): we always read the session
      // stored on the order, so returnParams are not needed here.
      const session = await retrieveSession(order.providerRef);
      const sessionOrderId = session.metadata?.orderId ?? session.client_reference_id;
      if (sessionOrderId !== order.orderId) {
        throw new ProviderError(
          `Stripe: session ${session.id} belongs to order ${String(sessionOrderId)}, not ${order.orderId}`,
          false,
        );
      }
      if (session.currency !== 'jpy')
        throw new ProviderError(`Stripe: session ${session.id} is in ${String(session.currency)}, not jpy`, false);

      if (session.status === 'expired') return { status: 'canceled' };
      // An open session is still payable: a declined card leaves it open for another try on the page.
      if (session.status !== 'complete') return { status: 'pending' };

      const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
      const intentId = intent?.id ?? (typeof session.payment_intent === 'string' ? session.payment_intent : session.id);
      const amountJpy = session.amount_total ?? 0;

      if (session.payment_status === 'paid') {
        const charge = intent && typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
        if (charge?.disputed && (await disputeHoldsFunds(intentId))) {
          return { status: 'charged_back', amountJpy, providerPaymentId: intentId };
        }
        if (charge && charge.amount_refunded > 0) {
          return { status: 'refunded', amountJpy, refundedJpy: charge.amount_refunded, providerPaymentId: intentId };
        }
        return { status: 'paid', amountJpy, providerPaymentId: intentId };
      }
      if (session.payment_status === 'unpaid') {
        // Complete but unpaid: a delayed-notification payment still settling, or one that failed.
        if (intent && (intent.status === 'requires_payment_method' || intent.status === 'canceled')) {
          return { status: 'failed', reason: intent.last_payment_error?.message ?? `async payment ${intent.status}` };
        }
        return { status: 'pending' };
      }
      return { status: 'failed', reason: `unexpected payment_status ${session.payment_status}` };
    },

    async cancel(order: OrderRef): Promise<void> {
      const session = await retrieveSession(order.providerRef);
      if (session.status === 'expired') return;
      if (session.status === 'complete')
        throw new ProviderError(`Stripe: session ${session.id} is already complete; it cannot be canceled`, false);
      try {
        await stripe.checkout.sessions.expire(session.id);
      } catch (err) {
        // Lost a race with the member (paid) or with another cancel (expired): decide from a fresh read.
        const again = await retrieveSession(order.providerRef);
        if (again.status === 'expired') return;
        if (again.status === 'complete')
          throw new ProviderError(`Stripe: session ${session.id} completed while canceling`, false, err);
        throw toProviderError(err, 'Checkout Session の失効');
      }
    },

    async refund(order, amountJpy, reason): Promise<void> {
      assertYen(amountJpy);
      try {
        await stripe.refunds.create(
          {
            payment_intent: order.providerPaymentId,
            amount: amountJpy,
            reason: 'requested_by_customer',
            metadata: { orderId: order.orderId, reason: reason.slice(0, 500) },
          },
          { idempotencyKey: `refund:${order.orderId}:${amountJpy}` },
        );
      } catch (err) {
        throw toProviderError(err, '返金');
      }
    },

    async verifyWebhook(request: WebhookRequest): Promise<VerifiedWebhookEvent[]> {
      const header = request.headers.get('stripe-signature');
      if (!header) throw new WebhookRejected('Stripe-Signature header is missing', 400);
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(request.rawBody, header, options.webhookSecret, tolerance);
      } catch (err) {
        if (err instanceof Stripe.errors.StripeSignatureVerificationError)
          throw new WebhookRejected(`Stripe signature rejected: ${err.message.split('\n')[0]}`, 400);
        throw new WebhookRejected(
          `Stripe webhook body rejected: ${err instanceof Error ? err.message : String(err)}`,
          400,
        );
      }
      if (!event || typeof event.id !== 'string' || typeof event.type !== 'string' || !event.data?.object) {
        throw new WebhookRejected('Stripe webhook is not an event', 400);
      }
      return [await describeEvent(event)];
    },
  };

  async function disputeHoldsFunds(paymentIntentId: string): Promise<boolean> {
    try {
      const disputes = await stripe.disputes.list({ payment_intent: paymentIntentId, limit: 10 });
      return disputes.data.some((d) => DISPUTE_HOLDS_FUNDS.has(d.status));
    } catch (err) {
      throw toProviderError(err, 'チャージバックの取得');
    }
  }

  async function describeEvent(event: Stripe.Event): Promise<VerifiedWebhookEvent> {
    const base = { eventId: event.id, type: event.type };
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
      case 'checkout.session.async_payment_failed':
      case 'checkout.session.expired': {
        const session = event.data.object;
        const hint: VerifiedWebhookEvent['hint'] =
          event.type === 'checkout.session.expired'
            ? 'canceled'
            : event.type === 'checkout.session.async_payment_failed'
              ? 'failed'
              : session.payment_status === 'paid'
                ? 'paid'
                : 'pending';
        return {
          ...base,
          orderId: session.metadata?.orderId ?? session.client_reference_id ?? null,
          providerRef: session.id,
          hint,
        };
      }
      case 'charge.refunded': {
        const charge = event.data.object;
        const { orderId, providerRef } = await matchPaymentIntent(charge.payment_intent, charge.metadata?.orderId);
        return { ...base, orderId, providerRef, hint: 'refunded' };
      }
      case 'charge.dispute.created':
      case 'charge.dispute.closed': {
        const dispute = event.data.object;
        const { orderId, providerRef } = await matchPaymentIntent(dispute.payment_intent, dispute.metadata?.orderId);
        const hint: VerifiedWebhookEvent['hint'] =
          event.type === 'charge.dispute.created' || DISPUTE_HOLDS_FUNDS.has(dispute.status)
            ? 'charged_back'
            : 'unknown';
        return { ...base, orderId, providerRef, hint };
      }
      default: {
        // Not one we subscribe to; recorded once by the caller, nothing to do.
        const object = event.data.object as { metadata?: Record<string, string> | null };
        return { ...base, orderId: object.metadata?.orderId ?? null, providerRef: null, hint: 'unknown' };
      }
    }
  }

  /** Our order id and session id for a charge/dispute event: the session behind its PaymentIntent. */
  async function matchPaymentIntent(
    paymentIntent: string | Stripe.PaymentIntent | null,
    metadataOrderId: string | undefined,
  ): Promise<{ orderId: string | null; providerRef: string | null }> {
    const intentId = typeof paymentIntent === 'string' ? paymentIntent : (paymentIntent?.id ?? null);
    if (!intentId) return { orderId: metadataOrderId ?? null, providerRef: null };
    const session = await sessionForPaymentIntent(intentId);
    if (!session) return { orderId: metadataOrderId ?? null, providerRef: null };
    return {
      orderId: session.metadata?.orderId ?? session.client_reference_id ?? metadataOrderId ?? null,
      providerRef: session.id,
    };
  }
}

/**
 * Appends Stripe's `{CHECKOUT_SESSION_ID}` template to the return URL (Stripe substitutes it on redirect),
 * keeping any fragment last.
 * @example withSessionIdPlaceholder('https://shop/backfrompurchase?order=1') === 'https://shop/backfrompurchase?order=1&session_id={CHECKOUT_SESSION_ID}'
 */
export function withSessionIdPlaceholder(returnUrl: string): string {
  const hashAt = returnUrl.indexOf('#');
  const head = hashAt === -1 ? returnUrl : returnUrl.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : returnUrl.slice(hashAt);
  const joiner = head.includes('?') ? (head.endsWith('?') || head.endsWith('&') ? '' : '&') : '?';
  return `${head}${joiner}session_id={CHECKOUT_SESSION_ID}${fragment}`;
}

function assertYen(amountJpy: number): void {
  if (!Number.isSafeInteger(amountJpy) || amountJpy <= 0)
    throw new ProviderError(`Stripe: amount must be a positive integer of yen, got ${amountJpy}`, false);
}

/** Maps SDK errors to ProviderError: network trouble, 409 (concurrent idempotent request), 429 and 5xx are worth retrying. */
function toProviderError(err: unknown, action: string): ProviderError {
  if (err instanceof ProviderError) return err;
  if (err instanceof Stripe.errors.StripeError) {
    const status = err.statusCode;
    const retryable =
      err instanceof Stripe.errors.StripeConnectionError ||
      err instanceof Stripe.errors.StripeRateLimitError ||
      status === undefined ||
      status === 409 ||
      status === 429 ||
      status >= 500;
    const detail = [status, err.code, err.message].filter((part) => part !== undefined && part !== '').join(' ');
    return new ProviderError(`Stripe: ${action}に失敗しました (${detail})`, retryable, err);
  }
  return new ProviderError(
    `Stripe: ${action}に失敗しました (${err instanceof Error ? err.message : String(err)})`,
    true,
    err,
  );
}
