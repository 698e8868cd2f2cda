// The Stripe stand-in's v1 API: one handler per operation our adapter calls.
import type { Next } from 'hono';
import { isHttpUrl, isRecord, token } from '#devtools/standins/shared';
import type { StandinCharge, StandinSession } from './index';
import { doExpire, doRefund } from './changes';
import { lazyExpire } from './checkout-page';
import { idParam, listResponse, renderObject } from './objects';
import {
  apiKeyOf,
  expandParam,
  intParam,
  invalid,
  isValidationFailure,
  metadataParam,
  missing,
  parseStripeForm,
  redactKey,
  stripeError,
  unknownParam,
} from './protocol';
import {
  API_VERSION,
  type ApiContext,
  CREATE_PARAMS,
  MAX_JPY,
  MIN_JPY,
  now,
  PAYMENT_INTENT_DATA_PARAMS,
  REFUND_REASONS,
  SESSION_LIFETIME_S,
  type StripeState,
} from './state';
import { deliverLater } from './webhooks';

/**
 * Every API request: the Request-Id and Stripe-Version headers, the secret key, injected failures, the
 * form-encoded parameters (kept on the context), and Idempotency-Key replay.
 */
export async function authenticateAndParse(state: StripeState, c: ApiContext, next: Next): Promise<Response | void> {
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
export function createCheckoutSession(state: StripeState, c: ApiContext): Response {
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
export function listCheckoutSessions(state: StripeState, c: ApiContext): Response {
  const p = c.get('params');
  let list = [...state.sessions.values()];
  if (typeof p.payment_intent === 'string') list = list.filter((s) => s.payment_intent === p.payment_intent);
  if (typeof p.status === 'string') list = list.filter((s) => s.status === p.status);
  return listResponse(state, c, '/v1/checkout/sessions', list.reverse(), p);
}

/** GET /v1/checkout/sessions/:id. */
export function retrieveCheckoutSession(state: StripeState, c: ApiContext): Response {
  const session = state.sessions.get(idParam(c));
  if (!session) return missing(c, 'checkout.session', idParam(c), 'session');
  lazyExpire(state, session);
  return c.json(renderObject(state, session, expandParam(c.get('params'))));
}

/** POST /v1/checkout/sessions/:id/expire: only an open session; sends checkout.session.expired. */
export function expireCheckoutSession(state: StripeState, c: ApiContext): Response {
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
export function retrievePaymentIntent(state: StripeState, c: ApiContext): Response {
  const intent = state.intents.get(idParam(c));
  if (!intent) return missing(c, 'payment_intent', idParam(c), 'intent');
  return c.json(renderObject(state, intent, expandParam(c.get('params'))));
}

/** GET /v1/charges/:id. */
export function retrieveCharge(state: StripeState, c: ApiContext): Response {
  const charge = state.charges.get(idParam(c));
  if (!charge) return missing(c, 'charge', idParam(c), 'charge');
  return c.json(renderObject(state, charge, expandParam(c.get('params'))));
}

/** POST /v1/refunds (by payment_intent or charge); sends refund.created and charge.refunded. */
export function createRefund(state: StripeState, c: ApiContext): Response {
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
export function retrieveRefund(state: StripeState, c: ApiContext): Response {
  const refund = state.refunds.get(idParam(c));
  if (!refund) return missing(c, 'refund', idParam(c), 'refund');
  return c.json(renderObject(state, refund, expandParam(c.get('params'))));
}

/** GET /v1/disputes (filters payment_intent, charge), newest first. */
export function listDisputes(state: StripeState, c: ApiContext): Response {
  const p = c.get('params');
  let list = [...state.disputes.values()];
  if (typeof p.payment_intent === 'string') list = list.filter((d) => d.payment_intent === p.payment_intent);
  if (typeof p.charge === 'string') list = list.filter((d) => d.charge === p.charge);
  return listResponse(state, c, '/v1/disputes', list.reverse(), p);
}

/** Any other API path: Stripe's 404 wording. */
export function unrecognizedRequest(_state: StripeState, c: ApiContext): Response {
  return stripeError(c, 404, {
    type: 'invalid_request_error',
    message: `Unrecognized request URL (${c.req.method}: ${new URL(c.req.url).pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
  });
}
