// Local stand-in for Stripe: the v1 API endpoints our adapter calls, a Checkout look-alike page, and signed webhooks.
//
// What it imitates (sources in providers/stripe.md):
// - `Authorization: Bearer sk_…` (or HTTP Basic with the key as user name); a wrong or missing key gets
//   401 `{ error: { type: 'invalid_request_error', message } }` like api.stripe.com.
// - Form-encoded request bodies with bracket keys (`line_items[0][price_data][currency]=jpy`), JSON
//   responses, `expand[]`, `Idempotency-Key` replay (and 400 idempotency_error for a reused key with other
//   parameters), `Request-Id` headers, Stripe's error shape.
// - POST/GET /v1/checkout/sessions, GET /v1/checkout/sessions/:id, POST …/:id/expire,
//   GET /v1/payment_intents/:id, GET /v1/charges/:id, POST /v1/refunds, GET /v1/refunds/:id, GET /v1/disputes.
// - The hosted Checkout page at /c/pay/<session id>: approving completes the session and 303s the browser
//   to success_url with {CHECKOUT_SESSION_ID} filled in; declining is a card decline (the session stays
//   open, as on Stripe); cancelling goes to cancel_url (the session stays open until it expires).
// - Webhook events `{ id, object: 'event', api_version, data: { object }, type, … }` signed with
//   `Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.body")` via the SDK's generateTestHeaderString.

import { listenStandin } from '#devtools/standins/shared';
import { controlsOf } from './controls';
import { createStripeApp } from './routing';
import type { StripeState } from './state';

export interface StripeStandinOptions {
  port?: number;
  host?: string;
  /** Where to POST webhook events (our /api/webhooks/stripe); none are delivered when unset. */
  webhookUrl?: string;
  /** The secret API key the stand-in accepts (the adapter's secretKey). */
  secretKey: string;
  /** The endpoint signing secret webhooks are signed with (the adapter's webhookSecret). */
  webhookSecret: string;
  /** Base URL the stand-in is reached at from the browser, when it differs from http://host:port. */
  publicUrl?: string;
  /** Event types the webhook endpoint is subscribed to (others are recorded, not delivered). */
  enabledEvents?: string[];
  /** Business name shown on the Checkout page. */
  businessName?: string;
}

/** The events providers/stripe.md tells operators to subscribe to. */
export const STRIPE_DEFAULT_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'charge.refunded',
  'charge.dispute.created',
  'charge.dispute.closed',
] as const;

export type Metadata = Record<string, string>;

export interface StandinSession {
  id: string;
  object: 'checkout.session';
  allowed_payment_method_types: string[];
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: 'jpy';
  customer_details: { email: string | null } | null;
  customer_email: string | null;
  expires_at: number;
  livemode: false;
  locale: string | null;
  metadata: Metadata;
  mode: 'payment';
  payment_intent: string | null;
  payment_method_types: string[];
  payment_status: 'paid' | 'unpaid';
  status: 'open' | 'complete' | 'expired';
  success_url: string;
  ui_mode: 'hosted_page';
  url: string | null;
}

export interface StandinPaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  canceled_at: number | null;
  cancellation_reason: string | null;
  capture_method: 'automatic';
  created: number;
  currency: 'jpy';
  description: string | null;
  last_payment_error: { type: string; code: string; decline_code?: string; message: string; charge?: string } | null;
  latest_charge: string | null;
  livemode: false;
  metadata: Metadata;
  payment_method_types: string[];
  status: 'requires_payment_method' | 'processing' | 'succeeded' | 'canceled';
}

export interface StandinCharge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  captured: boolean;
  created: number;
  currency: 'jpy';
  description: string | null;
  disputed: boolean;
  failure_code: string | null;
  failure_message: string | null;
  livemode: false;
  metadata: Metadata;
  paid: boolean;
  payment_intent: string;
  refunded: boolean;
  status: 'succeeded' | 'failed';
}

export interface StandinRefund {
  id: string;
  object: 'refund';
  amount: number;
  charge: string;
  created: number;
  currency: 'jpy';
  metadata: Metadata;
  payment_intent: string;
  reason: string | null;
  status: 'succeeded';
}

export interface StandinDispute {
  id: string;
  object: 'dispute';
  amount: number;
  charge: string;
  created: number;
  currency: 'jpy';
  is_charge_refundable: boolean;
  livemode: false;
  metadata: Metadata;
  payment_intent: string;
  reason: string;
  status: 'needs_response' | 'under_review' | 'won' | 'lost';
}

/** One event as created (a snapshot, like Stripe's) and every delivery attempt made for it. */
export interface StandinEvent {
  id: string;
  type: string;
  /** The exact JSON body Stripe would POST; resends send the same bytes. */
  rawBody: string;
  /** HTTP status of each delivery attempt (null: network error); empty when never delivered. */
  deliveries: (number | null)[];
}

/** What a webhook request carries, to hand straight to verifyWebhook. */
export interface SignedWebhook {
  headers: Headers;
  rawBody: string;
}

export interface StripeStandin {
  url: string;
  close(): Promise<void>;
  /** Copies of the stored objects, as the API returns them unexpanded. */
  getSession(id: string): StandinSession | undefined;
  getPaymentIntent(id: string): StandinPaymentIntent | undefined;
  getCharge(id: string): StandinCharge | undefined;
  /** The member pays by card on the Checkout page (without a browser). Sends checkout.session.completed. */
  approve(sessionId: string): Promise<StandinSession>;
  /** The card is declined: the PaymentIntent records last_payment_error; the session stays open. */
  decline(sessionId: string, message?: string): Promise<StandinSession>;
  /** A delayed-notification payment: complete but unpaid (PaymentIntent processing). */
  submitAsync(sessionId: string): Promise<StandinSession>;
  /** Settles a delayed payment: async_payment_succeeded or async_payment_failed. */
  settleAsync(sessionId: string, outcome: 'succeeded' | 'failed'): Promise<StandinSession>;
  /** The session times out (or is expired in the Dashboard). Sends checkout.session.expired. */
  expire(sessionId: string): Promise<StandinSession>;
  /** A refund made in the Dashboard (default: everything not yet refunded). Sends charge.refunded. */
  refund(sessionId: string, amountJpy?: number): Promise<StandinCharge>;
  /** The card holder disputes the charge. Sends charge.dispute.created. */
  chargeBack(sessionId: string): Promise<StandinDispute>;
  /** Closes the dispute. Sends charge.dispute.closed. */
  closeDispute(sessionId: string, outcome: 'won' | 'lost'): Promise<StandinDispute>;
  /** Every event created so far, oldest first (including ones the endpoint is not subscribed to). */
  events(): StandinEvent[];
  /** The newest event of a type. */
  lastEvent(type: string): StandinEvent | undefined;
  /**
   * Signs an event as Stripe would. For tests: `secret` / `timestamp` sign differently, and `rawBody`
   * replaces the body while the signature still covers the original (a tampered delivery).
   */
  signWebhook(eventId: string, opts?: { secret?: string; timestamp?: number; rawBody?: string }): SignedWebhook;
  /** (Re)sends an event to webhookUrl (or `url`); returns the HTTP status (null: network error). */
  sendWebhook(eventId: string, opts?: { url?: string }): Promise<number | null>;
  /** The next `count` API requests answer `status` (default 500) with an api_error, to test retries. */
  failNextRequests(count: number, status?: number): void;
}

/** Starts the Stripe stand-in on a free port (or `port`). */
export async function startStripeStandin(options: StripeStandinOptions): Promise<StripeStandin> {
  const state: StripeState = {
    options,
    sessions: new Map(),
    productNames: new Map(),
    intentData: new Map(),
    intents: new Map(),
    charges: new Map(),
    refunds: new Map(),
    disputes: new Map(),
    events: [],
    idempotent: new Map(),
    inFlight: new Set(),
    enabled: new Set<string>(options.enabledEvents ?? STRIPE_DEFAULT_EVENTS),
    businessName: options.businessName ?? 'オリパショップ',
    failures: { count: 0, status: 500 },
    baseUrl: '',
  };
  const listening = await listenStandin(createStripeApp(state).fetch, options);
  state.baseUrl = (options.publicUrl ?? listening.url).replace(/\/+$/, '');
  return controlsOf(state, listening.server);
}

export { parseStripeForm } from './protocol';
