// The Paidy stand-in's payments API (Bearer secret key, Paidy-Version) and Paidy's error shape.
import type { Context, Next } from 'hono';
import { isRecord, token } from '#devtools/standins/shared';
import { addRefund, capture, deliverLater, idParam } from './changes';
import type { PaidyState } from './state';

/** Every API request: the secret key (Bearer) and Paidy-Version. */
export async function checkRequest(state: PaidyState, c: Context, next: Next): Promise<Response | void> {
  const auth = c.req.header('authorization') ?? '';
  if (auth !== `Bearer ${state.options.secretKey}`)
    return paidyError(
      c,
      401,
      'authentication.failed',
      'Authentication failed',
      'The secret key is missing or invalid.',
    );
  const version = c.req.header('paidy-version');
  if (version !== undefined && version !== '2018-04-10')
    return paidyError(
      c,
      400,
      'request.version_invalid',
      'Invalid API version',
      `Paidy-Version ${version} is not supported.`,
    );
  await next();
}

/** GET /payments/:id. */
export function retrievePayment(state: PaidyState, c: Context): Response {
  const payment = state.payments.get(idParam(c));
  return payment ? c.json(payment) : notFound(c);
}

/** POST /payments/:id/captures: an authorised payment, whole; sends capture_success. */
export async function capturePayment(state: PaidyState, c: Context): Promise<Response> {
  const payment = state.payments.get(idParam(c));
  if (!payment) return notFound(c);
  const body = await readJson(c);
  if (payment.status !== 'authorized')
    return paidyError(
      c,
      400,
      'payment.state_invalid',
      'Invalid payment state',
      `Payment is ${payment.status}; only AUTHORIZED state.payments can be captured.`,
    );
  capture(state, payment, isRecord(body?.metadata) ? body.metadata : {});
  deliverLater(state, payment, 'capture_success');
  return c.json(payment);
}

/** POST /payments/:id/close: an authorised payment not captured; sends close_success. */
export function closePayment(state: PaidyState, c: Context): Response {
  const payment = state.payments.get(idParam(c));
  if (!payment) return notFound(c);
  if (payment.status !== 'authorized')
    return paidyError(
      c,
      400,
      'payment.state_invalid',
      'Invalid payment state',
      `Payment is ${payment.status}; only AUTHORIZED state.payments can be closed.`,
    );
  payment.status = 'closed';
  deliverLater(state, payment, 'close_success');
  return c.json(payment);
}

/** POST /payments/:id/refunds: of the capture, in part or whole; sends refund_success. */
export async function refundPayment(state: PaidyState, c: Context): Promise<Response> {
  const payment = state.payments.get(idParam(c));
  if (!payment) return notFound(c);
  const body = await readJson(c);
  if (!body || body.capture_id !== payment.captures[0]?.id)
    return paidyError(
      c,
      400,
      'request_content.malformed',
      'Invalid capture_id',
      'capture_id must name a capture of this payment.',
    );
  const amount =
    body.amount === undefined
      ? payment.captures[0].amount - payment.refunds.reduce((s, r) => s + r.amount, 0)
      : body.amount;
  const problem = addRefund(
    state,
    payment,
    typeof amount === 'number' ? amount : Number.NaN,
    typeof body.reason === 'string' ? body.reason : null,
    isRecord(body.metadata) ? body.metadata : {},
  );
  if (problem) return paidyError(c, 400, 'payment.refund_invalid', 'Invalid refund', problem);
  deliverLater(state, payment, 'refund_success');
  return c.json(payment);
}

function paidyError(c: Context, status: 400 | 401 | 404, code: string, title: string, description: string) {
  return c.json({ reference: `ref_${token(12)}`, status, code, title, description }, status);
}

function notFound(c: Context) {
  return paidyError(c, 404, 'resource.not_found', 'Resource not found', 'The payment does not exist.');
}

async function readJson(c: Context): Promise<Record<string, unknown> | null> {
  try {
    const body: unknown = await c.req.json();
    return isRecord(body) ? body : null;
  } catch {
    return null;
  }
}
