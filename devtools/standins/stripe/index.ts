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

import { Hono } from 'hono';
import type { Context, Next } from 'hono';
import Stripe from 'stripe';
import { escapeHtml, isHttpUrl, isRecord, listenStandin, token } from '#devtools/standins/shared';

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

type Metadata = Record<string, string>;

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

const API_VERSION = Stripe.API_VERSION;
const MIN_JPY = 50; // Stripe's minimum charge amount for JPY.
const MAX_JPY = 99_999_999;
const SESSION_LIFETIME_S = 24 * 3600;
const CREATE_PARAMS = new Set([
  'allowed_payment_method_types',
  'cancel_url',
  'client_reference_id',
  'currency',
  'customer_email',
  'expand',
  'expires_at',
  'line_items',
  'locale',
  'metadata',
  'mode',
  'payment_intent_data',
  'success_url',
  'ui_mode',
]);
const PAYMENT_INTENT_DATA_PARAMS = new Set(['description', 'metadata', 'receipt_email', 'statement_descriptor_suffix']);
const REFUND_REASONS = new Set(['duplicate', 'fraudulent', 'requested_by_customer']);

type Vars = { Variables: { params: Record<string, unknown> } };

/** Everything the stand-in holds, passed explicitly to each handler and state change. */
interface StripeState {
  options: StripeStandinOptions;
  sessions: Map<string, StandinSession>;
  /** The line items' names per session, for the Checkout page. */
  productNames: Map<string, string>;
  /** payment_intent_data per session, applied when Checkout creates the PaymentIntent. */
  intentData: Map<string, { metadata: Metadata; description: string | null }>;
  intents: Map<string, StandinPaymentIntent>;
  charges: Map<string, StandinCharge>;
  refunds: Map<string, StandinRefund>;
  disputes: Map<string, StandinDispute>;
  events: StandinEvent[];
  /** Saved answers per Idempotency-Key. */
  idempotent: Map<string, { fingerprint: string; status: number; body: string }>;
  /** Webhook deliveries still running (close() waits for them). */
  inFlight: Set<Promise<unknown>>;
  /** Event types the endpoint is subscribed to. */
  enabled: Set<string>;
  businessName: string;
  /** Injected failures for the next API requests. */
  failures: { count: number; status: number };
  /** Where the browser reaches the stand-in (known once it listens). */
  baseUrl: string;
}

type ApiContext = Context<Vars>;
type Route<C> = {
  method: 'get' | 'post';
  path: string;
  handle: (state: StripeState, c: C) => Response | Promise<Response>;
};

const now = () => Math.floor(Date.now() / 1000);

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

/** What tests and the shop's wiring hold: the URL, close(), and the Dashboard-like controls. */
function controlsOf(state: StripeState, server: Awaited<ReturnType<typeof listenStandin>>['server']): StripeStandin {
  return {
    url: state.baseUrl,
    async close() {
      await Promise.allSettled([...state.inFlight]);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
    getSession: (id) => (state.sessions.has(id) ? structuredClone(state.sessions.get(id)!) : undefined),
    getPaymentIntent: (id) => (state.intents.has(id) ? structuredClone(state.intents.get(id)!) : undefined),
    getCharge: (id) => (state.charges.has(id) ? structuredClone(state.charges.get(id)!) : undefined),
    async approve(sessionId) {
      const session = openSession(state, sessionId);
      await deliverAll(state, doApprove(state, session));
      return structuredClone(session);
    },
    async decline(sessionId, message) {
      const session = openSession(state, sessionId);
      await deliverAll(state, doDecline(state, session, message));
      return structuredClone(session);
    },
    async submitAsync(sessionId) {
      const session = openSession(state, sessionId);
      const intent = ensureIntent(state, session);
      intent.status = 'processing';
      session.status = 'complete';
      session.payment_status = 'unpaid';
      session.url = null;
      session.customer_details = { email: session.customer_email ?? 'test@example.com' };
      await deliverAll(state, [
        emit(state, 'payment_intent.processing', intent),
        emit(state, 'checkout.session.completed', session),
      ]);
      return structuredClone(session);
    },
    async settleAsync(sessionId, outcome) {
      const session = mustSession(state, sessionId);
      const intent = session.payment_intent ? state.intents.get(session.payment_intent) : undefined;
      if (session.status !== 'complete' || session.payment_status !== 'unpaid' || intent?.status !== 'processing') {
        throw new Error(`stripe stand-in: session ${sessionId} has no delayed payment in progress`);
      }
      const list: StandinEvent[] = [];
      if (outcome === 'succeeded') {
        list.push(emit(state, 'charge.succeeded', newCharge(state, intent, true)));
        intent.status = 'succeeded';
        intent.amount_received = intent.amount;
        session.payment_status = 'paid';
        list.push(
          emit(state, 'payment_intent.succeeded', intent),
          emit(state, 'checkout.session.async_payment_succeeded', session),
        );
      } else {
        const charge = newCharge(state, intent, false, 'The payment was not completed in time.');
        intent.status = 'requires_payment_method';
        intent.last_payment_error = {
          type: 'card_error',
          code: 'payment_intent_payment_attempt_expired',
          message: charge.failure_message!,
          charge: charge.id,
        };
        list.push(
          emit(state, 'charge.failed', charge),
          emit(state, 'payment_intent.payment_failed', intent),
          emit(state, 'checkout.session.async_payment_failed', session),
        );
      }
      await deliverAll(state, list);
      return structuredClone(session);
    },
    async expire(sessionId) {
      const session = openSession(state, sessionId);
      await deliverAll(state, doExpire(state, session));
      return structuredClone(session);
    },
    async refund(sessionId, amountJpy) {
      const charge = paidCharge(state, mustSession(state, sessionId));
      const result = doRefund(state, charge, amountJpy, 'requested_by_customer', {});
      if ('error' in result) throw new Error(`stripe stand-in: ${result.error.message}`);
      await deliverAll(state, result.events);
      return structuredClone(charge);
    },
    async chargeBack(sessionId) {
      const charge = paidCharge(state, mustSession(state, sessionId));
      if (charge.disputed) throw new Error(`stripe stand-in: charge ${charge.id} is already disputed`);
      const dispute: StandinDispute = {
        id: `du_${token(24)}`,
        object: 'dispute',
        amount: charge.amount - charge.amount_refunded,
        charge: charge.id,
        created: now(),
        currency: 'jpy',
        is_charge_refundable: false,
        livemode: false,
        metadata: {},
        payment_intent: charge.payment_intent,
        reason: 'fraudulent',
        status: 'needs_response',
      };
      state.disputes.set(dispute.id, dispute);
      charge.disputed = true;
      await deliverAll(state, [emit(state, 'charge.dispute.created', dispute)]);
      return structuredClone(dispute);
    },
    async closeDispute(sessionId, outcome) {
      const dispute = disputeOf(state, mustSession(state, sessionId));
      dispute.status = outcome;
      await deliverAll(state, [emit(state, 'charge.dispute.closed', dispute)]);
      return structuredClone(dispute);
    },
    events: () => state.events.map((e) => ({ ...e, deliveries: [...e.deliveries] })),
    lastEvent(type) {
      const event = state.events.findLast((e) => e.type === type);
      return event ? { ...event, deliveries: [...event.deliveries] } : undefined;
    },
    signWebhook: (eventId, opts) => signWebhook(state, eventId, opts),
    async sendWebhook(eventId, opts = {}) {
      const url = opts.url ?? state.options.webhookUrl;
      if (!url) throw new Error('stripe stand-in: no webhook URL');
      return deliver(state, mustEvent(state, eventId), url);
    },
    failNextRequests(count, status = 500) {
      state.failures = { count, status };
    },
  };
}

// --- routing ------------------------------------------------------------------------------------------

/** The v1 API, one handler per operation. */
const API_ROUTES: readonly Route<ApiContext>[] = [
  { method: 'post', path: '/checkout/sessions', handle: createCheckoutSession },
  { method: 'get', path: '/checkout/sessions', handle: listCheckoutSessions },
  { method: 'get', path: '/checkout/sessions/:id', handle: retrieveCheckoutSession },
  { method: 'post', path: '/checkout/sessions/:id/expire', handle: expireCheckoutSession },
  { method: 'get', path: '/payment_intents/:id', handle: retrievePaymentIntent },
  { method: 'get', path: '/charges/:id', handle: retrieveCharge },
  { method: 'post', path: '/refunds', handle: createRefund },
  { method: 'get', path: '/refunds/:id', handle: retrieveRefund },
  { method: 'get', path: '/disputes', handle: listDisputes },
];

/** The hosted Checkout page. */
const PAGE_ROUTES: readonly Route<Context>[] = [
  { method: 'get', path: '/c/pay/:id', handle: showCheckoutPage },
  { method: 'post', path: '/c/pay/:id', handle: submitCheckoutPage },
];

/** The stand-in's HTTP app: the routing tables above, each handler given the state. */
function createStripeApp(state: StripeState): Hono {
  const api = new Hono<Vars>();
  api.use('*', (c, next) => authenticateAndParse(state, c, next));
  for (const route of API_ROUTES) api.on(route.method.toUpperCase(), route.path, (c) => route.handle(state, c));
  api.all('*', (c) => unrecognizedRequest(state, c));
  const app = new Hono();
  app.route('/v1', api);
  for (const route of PAGE_ROUTES) app.on(route.method.toUpperCase(), route.path, (c) => route.handle(state, c));
  return app;
}

// --- the API --------------------------------------------------------------------------------------------

/**
 * Every API request: the Request-Id and Stripe-Version headers, the secret key, injected failures, the
 * form-encoded parameters (kept on the context), and Idempotency-Key replay.
 */
async function authenticateAndParse(state: StripeState, c: ApiContext, next: Next): Promise<Response | void> {
  const requestId = `req_${token(14)}`;
  c.header('Request-Id', requestId);
  c.header('Stripe-Version', c.req.header('stripe-version') ?? API_VERSION);
  const key = apiKeyOf(c.req.header('authorization'));
  if (!key) {
    c.header('WWW-Authenticate', 'Basic realm="Stripe"');
    return stripeError(c, 401, {
      type: 'invalid_request_error',
      message:
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    });
  }
  if (key !== state.options.secretKey) {
    return stripeError(c, 401, {
      type: 'invalid_request_error',
      message: `Invalid API Key provided: ${redactKey(key)}`,
    });
  }
  if (state.failures.count > 0) {
    state.failures.count -= 1;
    return stripeError(c, state.failures.status as 500, {
      type: 'api_error',
      message: 'An unknown error occurred (stand-in injected failure).',
    });
  }
  const text = c.req.method === 'POST' ? await c.req.text() : new URL(c.req.url).search.slice(1);
  let params: Record<string, unknown>;
  try {
    params = parseStripeForm(text);
  } catch (err) {
    return stripeError(c, 400, {
      type: 'invalid_request_error',
      message: `Invalid request body: ${(err as Error).message}`,
    });
  }
  c.set('params', params);
  const idempotencyKey = c.req.method === 'POST' ? c.req.header('idempotency-key') : undefined;
  if (!idempotencyKey) return next();
  const fingerprint = `${c.req.method} ${new URL(c.req.url).pathname} ${text}`;
  const saved = state.idempotent.get(idempotencyKey);
  if (saved) {
    if (saved.fingerprint !== fingerprint) {
      return stripeError(c, 400, {
        type: 'idempotency_error',
        message: `Keys for state.idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
      });
    }
    return new Response(saved.body, {
      status: saved.status,
      headers: {
        'content-type': 'application/json',
        'Idempotent-Replayed': 'true',
        'Original-Request': saved.fingerprint.split(' ')[0],
        'Request-Id': requestId,
        'Idempotency-Key': idempotencyKey,
      },
    });
  }
  await next();
  // Stripe saves the status and body once an endpoint started executing (errors included); requests
  // whose parameters fail validation are not saved.
  const body = await c.res.clone().text();
  if (!isValidationFailure(c.res.status, body))
    state.idempotent.set(idempotencyKey, { fingerprint, status: c.res.status, body });
}

/** POST /v1/checkout/sessions: validates the parameters our adapter sends, as Stripe does, and opens a session. */
function createCheckoutSession(state: StripeState, c: ApiContext): Response {
  const p = c.get('params');
  for (const name of Object.keys(p)) if (!CREATE_PARAMS.has(name)) return unknownParam(c, name);
  if (p.mode !== 'payment') return invalid(c, 'mode', 'This stand-in supports only mode=payment.');
  const pid = p.payment_intent_data;
  if (pid !== undefined && !isRecord(pid)) return invalid(c, 'payment_intent_data', 'Invalid object');
  if (isRecord(pid))
    for (const name of Object.keys(pid))
      if (!PAYMENT_INTENT_DATA_PARAMS.has(name)) return unknownParam(c, `payment_intent_data[${name}]`);
  const allowed = p.allowed_payment_method_types;
  if (
    allowed !== undefined &&
    (!Array.isArray(allowed) || !allowed.includes('card') || allowed.some((t) => t !== 'card'))
  ) {
    return invalid(c, 'allowed_payment_method_types', 'This stand-in accepts only card payments.');
  }
  if (p.currency !== undefined && p.currency !== 'jpy')
    return invalid(c, 'currency', 'This stand-in accepts only jpy.');
  const items = p.line_items;
  if (!Array.isArray(items) || items.length === 0)
    return invalid(c, 'line_items', 'You must provide at least one line item.');
  let total = 0;
  const names: string[] = [];
  for (const [i, item] of items.entries()) {
    if (!isRecord(item) || !isRecord(item.price_data))
      return invalid(
        c,
        `line_items[${i}][price_data]`,
        'Provide price_data (prices by id are not supported by the stand-in).',
      );
    const pd = item.price_data;
    if (pd.currency !== 'jpy')
      return invalid(c, `line_items[${i}][price_data][currency]`, 'This stand-in accepts only jpy.');
    const unit = intParam(pd.unit_amount);
    const qty = intParam(item.quantity);
    if (unit === null || unit < 0)
      return invalid(c, `line_items[${i}][price_data][unit_amount]`, 'Invalid non-negative integer');
    if (qty === null || qty < 1) return invalid(c, `line_items[${i}][quantity]`, 'Invalid positive integer');
    const name = isRecord(pd.product_data) && typeof pd.product_data.name === 'string' ? pd.product_data.name : '';
    if (!name)
      return invalid(
        c,
        `line_items[${i}][price_data][product_data][name]`,
        'Missing required param: line_items[0][price_data][product_data][name].',
      );
    total += unit * qty;
    names.push(name);
  }
  if (total < MIN_JPY)
    return stripeError(c, 400, {
      type: 'invalid_request_error',
      code: 'amount_too_small',
      param: 'line_items',
      message: `The Checkout Session's total amount due must add up to at least ¥${MIN_JPY}`,
    });
  if (total > MAX_JPY)
    return stripeError(c, 400, {
      type: 'invalid_request_error',
      code: 'amount_too_large',
      param: 'line_items',
      message: `The Checkout Session's total amount due must be no more than ¥${MAX_JPY.toLocaleString('ja-JP')}`,
    });
  if (typeof p.success_url !== 'string' || !isHttpUrl(p.success_url.replaceAll('{CHECKOUT_SESSION_ID}', 'x')))
    return invalid(c, 'success_url', 'Not a valid URL');
  if (p.cancel_url !== undefined && (typeof p.cancel_url !== 'string' || !isHttpUrl(p.cancel_url)))
    return invalid(c, 'cancel_url', 'Not a valid URL');
  const metadata = metadataParam(p.metadata);
  if (typeof metadata === 'string') return invalid(c, 'metadata', metadata);
  const pidMetadata = metadataParam(isRecord(pid) ? pid.metadata : undefined);
  if (typeof pidMetadata === 'string') return invalid(c, 'payment_intent_data[metadata]', pidMetadata);
  if (
    p.client_reference_id !== undefined &&
    (typeof p.client_reference_id !== 'string' || p.client_reference_id.length > 200)
  ) {
    return invalid(c, 'client_reference_id', 'client_reference_id must be at most 200 characters');
  }
  const created = now();
  let expiresAt = created + SESSION_LIFETIME_S;
  if (p.expires_at !== undefined) {
    const at = intParam(p.expires_at);
    if (at === null || at < created + 1800 || at > created + SESSION_LIFETIME_S)
      return invalid(
        c,
        'expires_at',
        'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
      );
    expiresAt = at;
  }
  const id = `cs_test_${token(58)}`;
  const session: StandinSession = {
    id,
    object: 'checkout.session',
    allowed_payment_method_types: ['card'],
    amount_subtotal: total,
    amount_total: total,
    cancel_url: typeof p.cancel_url === 'string' ? p.cancel_url : null,
    client_reference_id: typeof p.client_reference_id === 'string' ? p.client_reference_id : null,
    created,
    currency: 'jpy',
    customer_details: null,
    customer_email: typeof p.customer_email === 'string' ? p.customer_email : null,
    expires_at: expiresAt,
    livemode: false,
    locale: typeof p.locale === 'string' ? p.locale : null,
    metadata,
    mode: 'payment',
    payment_intent: null,
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    status: 'open',
    success_url: p.success_url,
    ui_mode: 'hosted_page',
    url: `${state.baseUrl}/c/pay/${id}`,
  };
  state.sessions.set(id, session);
  state.productNames.set(id, names.join('、'));
  state.intentData.set(id, {
    metadata: pidMetadata,
    description: isRecord(pid) && typeof pid.description === 'string' ? pid.description : null,
  });
  return c.json(renderObject(state, session, expandParam(p)));
}

/** GET /v1/checkout/sessions (filters payment_intent, status), newest first. */
function listCheckoutSessions(state: StripeState, c: ApiContext): Response {
  const p = c.get('params');
  let list = [...state.sessions.values()];
  if (typeof p.payment_intent === 'string') list = list.filter((s) => s.payment_intent === p.payment_intent);
  if (typeof p.status === 'string') list = list.filter((s) => s.status === p.status);
  return listResponse(state, c, '/v1/checkout/sessions', list.reverse(), p);
}

/** GET /v1/checkout/sessions/:id. */
function retrieveCheckoutSession(state: StripeState, c: ApiContext): Response {
  const session = state.sessions.get(idParam(c));
  if (!session) return missing(c, 'checkout.session', idParam(c), 'session');
  lazyExpire(state, session);
  return c.json(renderObject(state, session, expandParam(c.get('params'))));
}

/** POST /v1/checkout/sessions/:id/expire: only an open session; sends checkout.session.expired. */
function expireCheckoutSession(state: StripeState, c: ApiContext): Response {
  const session = state.sessions.get(idParam(c));
  if (!session) return missing(c, 'checkout.session', idParam(c), 'session');
  lazyExpire(state, session);
  if (session.status !== 'open') {
    return invalid(
      c,
      undefined,
      `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
    );
  }
  deliverLater(state, doExpire(state, session));
  return c.json(renderObject(state, session, expandParam(c.get('params'))));
}

/** GET /v1/payment_intents/:id. */
function retrievePaymentIntent(state: StripeState, c: ApiContext): Response {
  const intent = state.intents.get(idParam(c));
  if (!intent) return missing(c, 'payment_intent', idParam(c), 'intent');
  return c.json(renderObject(state, intent, expandParam(c.get('params'))));
}

/** GET /v1/charges/:id. */
function retrieveCharge(state: StripeState, c: ApiContext): Response {
  const charge = state.charges.get(idParam(c));
  if (!charge) return missing(c, 'charge', idParam(c), 'charge');
  return c.json(renderObject(state, charge, expandParam(c.get('params'))));
}

/** POST /v1/refunds (by payment_intent or charge); sends refund.created and charge.refunded. */
function createRefund(state: StripeState, c: ApiContext): Response {
  const p = c.get('params');
  for (const name of Object.keys(p))
    if (!['amount', 'charge', 'expand', 'metadata', 'payment_intent', 'reason'].includes(name))
      return unknownParam(c, name);
  let charge: StandinCharge | undefined;
  if (typeof p.payment_intent === 'string') {
    const intent = state.intents.get(p.payment_intent);
    if (!intent) return missing(c, 'payment_intent', p.payment_intent, 'payment_intent');
    charge =
      intent.status === 'succeeded' && intent.latest_charge ? state.charges.get(intent.latest_charge) : undefined;
    if (!charge)
      return stripeError(c, 400, {
        type: 'invalid_request_error',
        code: 'charge_not_refundable',
        message: `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
      });
  } else if (typeof p.charge === 'string') {
    charge = state.charges.get(p.charge);
    if (!charge) return missing(c, 'charge', p.charge, 'charge');
  } else {
    return invalid(
      c,
      undefined,
      'One of the following params should be provided for this request: payment_intent or charge.',
    );
  }
  let amount: number | undefined;
  if (p.amount !== undefined) {
    const parsed = intParam(p.amount);
    if (parsed === null || parsed <= 0) return invalid(c, 'amount', 'Invalid positive integer');
    amount = parsed;
  }
  if (p.reason !== undefined && (typeof p.reason !== 'string' || !REFUND_REASONS.has(p.reason)))
    return invalid(c, 'reason', 'Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer');
  const metadata = metadataParam(p.metadata);
  if (typeof metadata === 'string') return invalid(c, 'metadata', metadata);
  const result = doRefund(state, charge, amount, typeof p.reason === 'string' ? p.reason : null, metadata);
  if ('error' in result) return stripeError(c, 400, { type: 'invalid_request_error', ...result.error });
  deliverLater(state, result.events);
  return c.json(renderObject(state, result.refund, expandParam(p)));
}

/** GET /v1/refunds/:id. */
function retrieveRefund(state: StripeState, c: ApiContext): Response {
  const refund = state.refunds.get(idParam(c));
  if (!refund) return missing(c, 'refund', idParam(c), 'refund');
  return c.json(renderObject(state, refund, expandParam(c.get('params'))));
}

/** GET /v1/disputes (filters payment_intent, charge), newest first. */
function listDisputes(state: StripeState, c: ApiContext): Response {
  const p = c.get('params');
  let list = [...state.disputes.values()];
  if (typeof p.payment_intent === 'string') list = list.filter((d) => d.payment_intent === p.payment_intent);
  if (typeof p.charge === 'string') list = list.filter((d) => d.charge === p.charge);
  return listResponse(state, c, '/v1/disputes', list.reverse(), p);
}

/** Any other API path: Stripe's 404 wording. */
function unrecognizedRequest(_state: StripeState, c: ApiContext): Response {
  return stripeError(c, 404, {
    type: 'invalid_request_error',
    message: `Unrecognized request URL (${c.req.method}: ${new URL(c.req.url).pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
  });
}

// --- state changes ----------------------------------------------------------------------------------------

/** Checkout creates the PaymentIntent when the member first submits the page (not at session creation). */
function ensureIntent(state: StripeState, session: StandinSession): StandinPaymentIntent {
  if (session.payment_intent) return state.intents.get(session.payment_intent)!;
  const data = state.intentData.get(session.id) ?? { metadata: {}, description: null };
  const intent: StandinPaymentIntent = {
    id: `pi_${token(24)}`,
    object: 'payment_intent',
    amount: session.amount_total,
    amount_received: 0,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    created: now(),
    currency: 'jpy',
    description: data.description,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: { ...data.metadata },
    payment_method_types: ['card'],
    status: 'requires_payment_method',
  };
  state.intents.set(intent.id, intent);
  session.payment_intent = intent.id;
  return intent;
}

function newCharge(
  state: StripeState,
  intent: StandinPaymentIntent,
  succeeded: boolean,
  failureMessage?: string,
): StandinCharge {
  const charge: StandinCharge = {
    id: `ch_${token(24)}`,
    object: 'charge',
    amount: intent.amount,
    amount_captured: succeeded ? intent.amount : 0,
    amount_refunded: 0,
    captured: succeeded,
    created: now(),
    currency: 'jpy',
    description: intent.description,
    disputed: false,
    failure_code: succeeded ? null : 'card_declined',
    failure_message: succeeded ? null : (failureMessage ?? 'Your card was declined.'),
    livemode: false,
    // The PaymentIntent's metadata is copied onto its state.charges.
    metadata: { ...intent.metadata },
    paid: succeeded,
    payment_intent: intent.id,
    refunded: false,
    status: succeeded ? 'succeeded' : 'failed',
  };
  state.charges.set(charge.id, charge);
  intent.latest_charge = charge.id;
  return charge;
}

function openSession(state: StripeState, id: string): StandinSession {
  const session = mustSession(state, id);
  if (session.status !== 'open') throw new Error(`stripe stand-in: session ${id} is ${session.status}, not open`);
  return session;
}

function doApprove(state: StripeState, session: StandinSession): StandinEvent[] {
  const intent = ensureIntent(state, session);
  newCharge(state, intent, true);
  intent.status = 'succeeded';
  intent.amount_received = intent.amount;
  intent.last_payment_error = null;
  session.status = 'complete';
  session.payment_status = 'paid';
  session.url = null;
  session.customer_details = { email: session.customer_email ?? 'test@example.com' };
  return [
    emit(state, 'charge.succeeded', state.charges.get(intent.latest_charge!)!),
    emit(state, 'payment_intent.succeeded', intent),
    emit(state, 'checkout.session.completed', session),
  ];
}

function doDecline(state: StripeState, session: StandinSession, message?: string): StandinEvent[] {
  const intent = ensureIntent(state, session);
  const charge = newCharge(state, intent, false, message);
  intent.status = 'requires_payment_method';
  intent.last_payment_error = {
    type: 'card_error',
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: charge.failure_message ?? 'Your card was declined.',
    charge: charge.id,
  };
  return [emit(state, 'charge.failed', charge), emit(state, 'payment_intent.payment_failed', intent)];
}

function doExpire(state: StripeState, session: StandinSession): StandinEvent[] {
  session.status = 'expired';
  session.url = null;
  const out: StandinEvent[] = [];
  const intent = session.payment_intent ? state.intents.get(session.payment_intent) : undefined;
  if (intent && intent.status !== 'succeeded' && intent.status !== 'canceled') {
    intent.status = 'canceled';
    intent.canceled_at = now();
    intent.cancellation_reason = 'abandoned';
    out.push(emit(state, 'payment_intent.canceled', intent));
  }
  out.push(emit(state, 'checkout.session.expired', session));
  return out;
}

/** Returns an error message (Stripe's wording) or the refund. */
function doRefund(
  state: StripeState,
  charge: StandinCharge,
  amount: number | undefined,
  reason: string | null,
  metadata: Metadata,
): { error: { code: string; message: string } } | { refund: StandinRefund; events: StandinEvent[] } {
  if (charge.status !== 'succeeded')
    return {
      error: {
        code: 'charge_not_refundable',
        message: `Charge ${charge.id} has not succeeded; it cannot be refunded.`,
      },
    };
  if (charge.disputed)
    return {
      error: { code: 'charge_disputed', message: `Charge ${charge.id} has been charged back; cannot issue a refund.` },
    };
  const remaining = charge.amount - charge.amount_refunded;
  const value = amount ?? remaining;
  if (remaining <= 0)
    return { error: { code: 'charge_already_refunded', message: `Charge ${charge.id} has already been refunded.` } };
  if (!Number.isSafeInteger(value) || value <= 0)
    return { error: { code: 'parameter_invalid_integer', message: 'Invalid positive integer' } };
  if (value > remaining) {
    return {
      error: {
        code: 'amount_too_large',
        message: `Refund amount (¥${value.toLocaleString('ja-JP')}) is greater than unrefunded amount on charge (¥${remaining.toLocaleString('ja-JP')})`,
      },
    };
  }
  const refund: StandinRefund = {
    id: `re_${token(24)}`,
    object: 'refund',
    amount: value,
    charge: charge.id,
    created: now(),
    currency: 'jpy',
    metadata,
    payment_intent: charge.payment_intent,
    reason,
    status: 'succeeded',
  };
  state.refunds.set(refund.id, refund);
  charge.amount_refunded += value;
  charge.refunded = charge.amount_refunded === charge.amount;
  return { refund, events: [emit(state, 'refund.created', refund), emit(state, 'charge.refunded', charge)] };
}

function paidCharge(state: StripeState, session: StandinSession): StandinCharge {
  const intent = session.payment_intent ? state.intents.get(session.payment_intent) : undefined;
  const charge = intent?.latest_charge ? state.charges.get(intent.latest_charge) : undefined;
  if (!charge || charge.status !== 'succeeded')
    throw new Error(`stripe stand-in: session ${session.id} has no successful charge`);
  return charge;
}

// --- events and webhooks -----------------------------------------------------------------------

function emit(state: StripeState, type: string, object: object): StandinEvent {
  const body = {
    id: `evt_${token(24)}`,
    object: 'event',
    api_version: API_VERSION,
    created: now(),
    // A snapshot of the object as it is now, like Stripe's events.
    data: { object: renderObject(state, object) },
    livemode: false,
    pending_webhooks: state.enabled.has(type) && state.options.webhookUrl ? 1 : 0,
    request: { id: null, idempotency_key: null },
    type,
  };
  const event: StandinEvent = { id: body.id, type, rawBody: JSON.stringify(body, null, 2), deliveries: [] };
  state.events.push(event);
  return event;
}

function signWebhook(
  state: StripeState,
  eventId: string,
  opts: { secret?: string; timestamp?: number; rawBody?: string } = {},
): SignedWebhook {
  const event = mustEvent(state, eventId);
  const rawBody = opts.rawBody ?? event.rawBody;
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload: event.rawBody,
    secret: opts.secret ?? state.options.webhookSecret,
    timestamp: opts.timestamp ?? now(),
  });
  return {
    rawBody,
    headers: new Headers({
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      'stripe-signature': signature,
    }),
  };
}

async function deliver(state: StripeState, event: StandinEvent, url: string): Promise<number | null> {
  const signed = signWebhook(state, event.id);
  let status: number | null = null;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: signed.headers,
      body: signed.rawBody,
      signal: AbortSignal.timeout(10_000),
    });
    status = response.status;
    await response.body?.cancel();
  } catch {
    status = null;
  }
  event.deliveries.push(status);
  return status;
}

/** Delivers the subscribed events, in order. */
async function deliverAll(state: StripeState, list: StandinEvent[]): Promise<void> {
  if (!state.options.webhookUrl) return;
  for (const event of list) if (state.enabled.has(event.type)) await deliver(state, event, state.options.webhookUrl);
}

/** Delivers without holding up the HTTP answer that caused it (Stripe sends webhooks asynchronously); close() waits. */
function deliverLater(state: StripeState, list: StandinEvent[]): void {
  const p = deliverAll(state, list).finally(() => state.inFlight.delete(p));
  state.inFlight.add(p);
}

// --- rendering -----------------------------------------------------------------------------------

function renderObject(state: StripeState, object: object, expand: string[] = []): Record<string, unknown> {
  const copy = structuredClone(object) as Record<string, unknown>;
  const nested = (prefix: string) =>
    expand.filter((e) => e.startsWith(`${prefix}.`)).map((e) => e.slice(prefix.length + 1));
  const wants = (field: string) => expand.includes(field) || expand.some((e) => e.startsWith(`${field}.`));
  if (copy.object === 'checkout.session' && wants('payment_intent') && typeof copy.payment_intent === 'string') {
    const intent = state.intents.get(copy.payment_intent);
    if (intent) copy.payment_intent = renderObject(state, intent, nested('payment_intent'));
  }
  if (copy.object === 'payment_intent' && wants('latest_charge') && typeof copy.latest_charge === 'string') {
    const charge = state.charges.get(copy.latest_charge);
    if (charge) copy.latest_charge = renderObject(state, charge, nested('latest_charge'));
  }
  if (
    (copy.object === 'charge' || copy.object === 'refund' || copy.object === 'dispute') &&
    wants('payment_intent') &&
    typeof copy.payment_intent === 'string'
  ) {
    const intent = state.intents.get(copy.payment_intent);
    if (intent) copy.payment_intent = renderObject(state, intent, nested('payment_intent'));
  }
  return copy;
}

function listResponse(state: StripeState, c: Context, url: string, items: object[], p: Record<string, unknown>) {
  const limit = Math.min(Math.max(intParam(p.limit) ?? 10, 1), 100);
  const expand = expandParam(p)
    .filter((e) => e.startsWith('data.'))
    .map((e) => e.slice('data.'.length));
  return c.json({
    object: 'list',
    data: items.slice(0, limit).map((o) => renderObject(state, o, expand)),
    has_more: items.length > limit,
    url,
  });
}

// --- the hosted Checkout page -------------------------------------------------------------------------------

/** GET /c/pay/:id: the Checkout look-alike page of a session. */
function showCheckoutPage(state: StripeState, c: Context): Response {
  const session = state.sessions.get(idParam(c));
  if (!session) return c.html(messagePage('ページが見つかりません', 'このお支払いページは存在しません。'), 404);
  lazyExpire(state, session);
  return c.html(sessionPage(state, session));
}

/** POST /c/pay/:id: the member's button (approve, decline, cancel), as on Checkout. */
async function submitCheckoutPage(state: StripeState, c: Context): Promise<Response> {
  const session = state.sessions.get(idParam(c));
  if (!session) return c.html(messagePage('ページが見つかりません', 'このお支払いページは存在しません。'), 404);
  lazyExpire(state, session);
  const form = await c.req.parseBody();
  const action = typeof form.action === 'string' ? form.action : '';
  if (session.status === 'complete') return c.redirect(successUrl(session), 303);
  if (session.status === 'expired') return c.html(sessionPage(state, session), 410);
  if (action === 'approve') {
    deliverLater(state, doApprove(state, session));
    return c.redirect(successUrl(session), 303);
  }
  if (action === 'decline') {
    deliverLater(state, doDecline(state, session));
    return c.html(
      sessionPage(state, session, 'カードが拒否されました。別のカードでお試しいただくか、キャンセルしてください。'),
      402,
    );
  }
  if (action === 'cancel') {
    // Like Checkout's back link: the session stays open (until it expires) and the browser goes to cancel_url.
    if (session.cancel_url) return c.redirect(session.cancel_url, 303);
    return c.html(messagePage('お支払いを中止しました', 'このウィンドウを閉じてショップに戻ってください。'));
  }
  return c.html(sessionPage(state, session, '操作が正しくありません。'), 400);
}

function sessionPage(state: StripeState, session: StandinSession, error?: string): string {
  const name = state.productNames.get(session.id) ?? '';
  const amount = `¥${session.amount_total.toLocaleString('ja-JP')}`;
  const header = `<p class="brand">${escapeHtml(state.businessName)} <span class="tag">テストモード</span></p>
<p class="item">${escapeHtml(name)}</p>
<p class="amount">${escapeHtml(amount)}</p>`;
  if (session.status === 'complete') {
    return page(
      'お支払い完了',
      `${header}<h1>お支払いは完了しています</h1><p><a class="button primary" href="${escapeHtml(successUrl(session))}">ショップに戻る</a></p>`,
    );
  }
  if (session.status === 'expired') {
    const back = session.cancel_url
      ? `<p><a class="button" href="${escapeHtml(session.cancel_url)}">ショップに戻る</a></p>`
      : '';
    return page(
      '有効期限切れ',
      `${header}<h1>このお支払いページの有効期限が切れました</h1><p>もう一度ショップからお手続きください。</p>${back}`,
    );
  }
  const alert = error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';
  return page(
    `${amount}のお支払い`,
    `${header}${alert}
<section class="card" aria-label="カード情報">
<p class="label">カード情報</p>
<div class="field">1234 1234 1234 1234</div>
<div class="row"><div class="field">月 / 年</div><div class="field">セキュリティコード</div></div>
<p class="note">テスト環境：カード情報は入力不要です</p>
</section>
<form method="post" action="${escapeHtml(session.id)}">
<button class="primary" name="action" value="approve">お支払いを承認</button>
<button name="action" value="decline">拒否</button>
<button class="link" name="action" value="cancel">キャンセル</button>
</form>
<p class="note">「拒否」はカード会社に断られた場合を再現します（別のカードでやり直せます）。</p>`,
  );
}

function successUrl(session: StandinSession): string {
  return session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id);
}

/** Stripe expires state.sessions at expires_at on its own. */
function lazyExpire(state: StripeState, session: StandinSession): void {
  if (session.status === 'open' && now() >= session.expires_at) deliverLater(state, doExpire(state, session));
}

// --- look-ups ---------------------------------------------------------------------------------------------

/** The :id of a route (handlers are registered from a table, so the path is not typed). */
function idParam(c: Context): string {
  return c.req.param('id') ?? '';
}

function mustSession(state: StripeState, id: string): StandinSession {
  const session = state.sessions.get(id);
  if (!session) throw new Error(`stripe stand-in: no session ${id}`);
  return session;
}

function mustEvent(state: StripeState, id: string): StandinEvent {
  const event = state.events.find((e) => e.id === id);
  if (!event) throw new Error(`stripe stand-in: no event ${id}`);
  return event;
}

function disputeOf(state: StripeState, session: StandinSession): StandinDispute {
  const charge = paidCharge(state, session);
  const dispute = [...state.disputes.values()].find((d) => d.charge === charge.id);
  if (!dispute) throw new Error(`stripe stand-in: session ${session.id} has no dispute`);
  return dispute;
}

// --- request parsing (Stripe's form encoding) --------------------------------------------------------

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Decodes a Stripe form body / query string into nested objects and arrays, as Stripe reads it.
 * @example parseStripeForm('metadata[orderId]=o1&expand[0]=payment_intent') // { metadata: { orderId: 'o1' }, expand: ['payment_intent'] }
 */
export function parseStripeForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(rawKey);
    if (!match) throw new Error(`malformed key ${rawKey}`);
    const path = [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])];
    let node: Record<string, unknown> = root;
    for (let i = 0; i < path.length; i++) {
      // `key[]` appends, like qs.
      const key = path[i] === '' ? String(Object.keys(node).length) : path[i];
      if (FORBIDDEN_KEYS.has(key)) throw new Error(`forbidden key ${rawKey}`);
      if (i === path.length - 1) {
        node[key] = value;
      } else {
        if (!isRecord(node[key])) node[key] = {};
        node = node[key] as Record<string, unknown>;
      }
    }
  }
  return arrayify(root) as Record<string, unknown>;
}

/** Objects whose keys are all 0..n-1 become arrays (`line_items[0]…`). */
function arrayify(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const keys = Object.keys(value);
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = arrayify(value[k]);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    const sorted = keys.map(Number).sort((a, b) => a - b);
    if (sorted.every((n, i) => n === i)) return sorted.map((n) => out[String(n)]);
  }
  return out;
}

/** Validation failures (a `param` named, or an unknown route/key) are not stored for idempotent replay. */
function isValidationFailure(status: number, body: string): boolean {
  if (status < 400) return false;
  if (status === 401 || status === 409 || status === 429) return true;
  try {
    const parsed = JSON.parse(body) as { error?: { param?: unknown } };
    return status === 400 && parsed.error?.param !== undefined;
  } catch {
    return true;
  }
}

function expandParam(p: Record<string, unknown>): string[] {
  return Array.isArray(p.expand) ? p.expand.filter((e): e is string => typeof e === 'string') : [];
}

function intParam(value: unknown): number | null {
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/** Stripe's metadata limits: 50 keys, keys up to 40 characters, values up to 500. */
function metadataParam(value: unknown): Metadata | string {
  if (value === undefined || value === '') return {};
  if (!isRecord(value)) return 'Invalid object';
  const out: Metadata = {};
  const entries = Object.entries(value);
  if (entries.length > 50) return 'Metadata can have at most 50 keys';
  for (const [k, v] of entries) {
    if (typeof v !== 'string') return `Invalid value for metadata[${k}]`;
    if (k.length > 40) return `Metadata keys must be at most 40 characters (${k})`;
    if (v.length > 500) return `Metadata values must be at most 500 characters (${k})`;
    if (v !== '') out[k] = v;
  }
  return out;
}

/** The key from `Authorization: Bearer <key>` or HTTP Basic `<key>:` (both accepted by Stripe). */
function apiKeyOf(header: string | undefined): string | null {
  if (!header) return null;
  const [scheme, value] = header.split(/\s+/, 2);
  if (!value) return null;
  if (scheme.toLowerCase() === 'bearer') return value;
  if (scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const user = decoded.split(':')[0];
    return user || null;
  }
  return null;
}

function redactKey(key: string): string {
  const prefix = /^(sk|rk|pk)_(test|live)_/.exec(key)?.[0] ?? '';
  return `${prefix}${'*'.repeat(Math.max(0, Math.min(key.length - prefix.length - 4, 24)))}${key.slice(-4)}`;
}

// --- responses ----------------------------------------------------------------------------------------

interface StripeErrorBody {
  type: 'invalid_request_error' | 'api_error' | 'card_error' | 'idempotency_error';
  message: string;
  code?: string;
  param?: string;
}

function stripeError(c: Context, status: 400 | 401 | 402 | 404 | 410 | 429 | 500, error: StripeErrorBody) {
  return c.json({ error }, status);
}

function invalid(c: Context, param: string | undefined, message: string) {
  return stripeError(c, 400, { type: 'invalid_request_error', message, ...(param ? { param } : {}) });
}

function unknownParam(c: Context, name: string) {
  return stripeError(c, 400, {
    type: 'invalid_request_error',
    code: 'parameter_unknown',
    param: name,
    message: `Received unknown parameter: ${name}`,
  });
}

function missing(c: Context, objectName: string, id: string, param: string) {
  return stripeError(c, 404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    param,
    message: `No such ${objectName}: '${id}'`,
  });
}

function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Hiragino Sans","Noto Sans JP",sans-serif;background:#f6f9fc;color:#1a1f36}
main{max-width:420px;margin:0 auto;padding:24px 16px}
.brand{font-weight:700;margin:0 0 16px}.tag{font-size:12px;background:#ffde92;color:#733800;padding:2px 6px;border-radius:4px;margin-left:4px}
h1{font-size:20px;margin:16px 0 8px}.item{margin:0;color:#4f566b}.amount{font-size:32px;font-weight:700;margin:4px 0 20px}
.card{background:#fff;border:1px solid #e3e8ee;border-radius:8px;padding:12px 14px;margin:0 0 16px}
.label{font-size:14px;margin:0 0 8px;color:#4f566b}.field{border:1px solid #e3e8ee;border-radius:6px;padding:10px;color:#a3acb9;margin:0 0 8px;background:#f7fafc}
.row{display:flex;gap:8px}.row .field{flex:1}
.note{font-size:13px;color:#4f566b;margin:8px 0 0}
.error{background:#fde8e8;color:#a41c1c;border-radius:6px;padding:10px 12px}
button,.button{display:block;box-sizing:border-box;width:100%;padding:14px;margin:10px 0;font-size:16px;border-radius:6px;border:1px solid #635bff;background:#fff;color:#635bff;text-align:center;text-decoration:none;cursor:pointer}
button.primary,.button.primary{background:#635bff;color:#fff}button.link{border:none;background:none;text-decoration:underline;color:#4f566b}
</style></head><body><main>${body}</main></body></html>`;
}

// --- small helpers ------------------------------------------------------------------------------------
