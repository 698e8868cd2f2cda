// The PayPay stand-in's answers, ids and the JST cancel deadline.
import { randomBytes, randomInt } from 'node:crypto';
import type { Context } from 'hono';
import type { PayPayStandinRefund } from './index';
import { DAY_MS, JST_OFFSET_MS, StandinFailure } from './state';

export function failure(c: Context, status: number, code: string, message: string) {
  return c.json({ resultInfo: { code, message, codeId: `STANDIN_${code}` } }, status as 400);
}

export function success(c: Context, status: 200 | 201, data: unknown) {
  return c.json({ resultInfo: { code: 'SUCCESS', message: 'Success', codeId: '08100001' }, data }, status);
}

export function accepted(c: Context) {
  return c.json(
    { resultInfo: { code: 'REQUEST_ACCEPTED', message: 'Request accepted', codeId: '08100001' }, data: null },
    202,
  );
}

export function refundDetails(r: PayPayStandinRefund) {
  return {
    status: r.status,
    acceptedAt: r.acceptedAt,
    merchantRefundId: r.merchantRefundId,
    paymentId: r.paymentId,
    amount: { amount: r.amount, currency: 'JPY' },
    requestedAt: r.requestedAt,
    reason: r.reason ?? undefined,
  };
}

export function parseJson(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new StandinFailure(400, 'INVALID_REQUEST_PARAMS', 'The request body is not a JSON object');
}

/** Cancel a payment works until 00:14:59 (JST) of the day after the payment. */
export function cancelDeadline(acceptedAtSeconds: number): number {
  const acceptedMs = acceptedAtSeconds * 1000;
  const jstDayStart = Math.floor((acceptedMs + JST_OFFSET_MS) / DAY_MS) * DAY_MS - JST_OFFSET_MS;
  return jstDayStart + DAY_MS + 15 * 60_000;
}

export function newPaymentId(): string {
  // PayPay's payment ids are long digit strings.
  let id = String(randomInt(1, 10));
  while (id.length < 20) id += String(randomInt(0, 10));
  return id;
}

export function randomToken(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return out;
}
