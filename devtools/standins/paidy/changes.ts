// The Paidy stand-in's state changes and their unsigned webhooks, shared by the API, the page and the controls.
import type { Context } from 'hono';
import { token } from '#devtools/standins/shared';
import type { PaidyStandinPayment, PaidyStandinWebhook, PaidyWebhookStatus } from './index';
import type { PaidyState } from './state';

export function createPayment(
  state: PaidyState,
  input: { orderId: string; amountJpy: number; description?: string },
  status: 'authorized' | 'rejected',
): PaidyStandinPayment {
  const now = new Date();
  const description = input.description ?? '';
  const payment: PaidyStandinPayment = {
    id: `pay_${token(16)}`,
    created_at: now.toISOString(),
    // Paidy authorisations expire after the contract's period (commonly 30 days).
    expires_at: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
    amount: input.amountJpy,
    currency: 'JPY',
    description,
    store_name: state.storeName,
    test: true,
    status,
    tier: 'classic',
    buyer: { name1: '山田 太郎', name2: 'ヤマダ タロウ', email: 'successful.payment@paidy.com', phone: '08000000001' },
    order: {
      items: [{ id: 'item', title: description || '商品', quantity: 1, unit_price: input.amountJpy }],
      tax: 0,
      shipping: 0,
      order_ref: input.orderId,
      updated_at: null,
    },
    captures: [],
    refunds: [],
    metadata: {},
  };
  state.payments.set(payment.id, payment);
  return payment;
}

function buildWebhook(
  state: PaidyState,
  payment: PaidyStandinPayment,
  status: PaidyWebhookStatus,
): { headers: Record<string, string>; rawBody: string } {
  const body: Record<string, unknown> = {
    payment_id: payment.id,
    event_type: 'payment',
    status,
    order_ref: payment.order.order_ref,
    timestamp: new Date().toISOString(),
  };
  const lastCapture = payment.captures.at(-1);
  if ((status === 'capture_success' || status === 'refund_success') && lastCapture) body.capture_id = lastCapture.id;
  const lastRefund = payment.refunds.at(-1);
  if (status === 'refund_success' && lastRefund?.reason) body.reason = lastRefund.reason;
  // Paidy sends no signature header: nothing but the content type.
  return { headers: { 'content-type': 'application/json' }, rawBody: JSON.stringify(body) };
}

export async function deliver(
  state: PaidyState,
  payment: PaidyStandinPayment,
  status: PaidyWebhookStatus,
): Promise<PaidyStandinWebhook> {
  const built = buildWebhook(state, payment, status);
  const record: PaidyStandinWebhook = { ...built, deliveredStatus: null };
  state.webhooks.push(record);
  if (state.options.webhookUrl) {
    try {
      const response = await fetch(state.options.webhookUrl, {
        method: 'POST',
        headers: built.headers,
        body: built.rawBody,
        signal: AbortSignal.timeout(10_000),
      });
      record.deliveredStatus = response.status;
      await response.body?.cancel();
    } catch {
      record.deliveredStatus = null;
    }
  }
  return record;
}

/** Sends a webhook without holding up the HTTP answer that caused it; close() waits for it. */
export function deliverLater(state: PaidyState, payment: PaidyStandinPayment, status: PaidyWebhookStatus): void {
  const p = deliver(state, payment, status).finally(() => state.inFlight.delete(p));
  state.inFlight.add(p);
}

export function capture(state: PaidyState, payment: PaidyStandinPayment, metadata: Record<string, unknown>): void {
  payment.captures.push({
    id: `cap_${token(16)}`,
    created_at: new Date().toISOString(),
    amount: payment.amount,
    tax: payment.order.tax,
    shipping: payment.order.shipping,
    items: payment.order.items,
    metadata,
  });
  // A captured Paidy payment is CLOSED.
  payment.status = 'closed';
}

export function addRefund(
  state: PaidyState,
  payment: PaidyStandinPayment,
  amount: number,
  reason: string | null,
  metadata: Record<string, unknown>,
): string | null {
  const capture = payment.captures[0];
  if (payment.status !== 'closed' || !capture) return 'payment has not been captured';
  const refunded = payment.refunds.reduce((s, r) => s + r.amount, 0);
  if (!Number.isSafeInteger(amount) || amount <= 0 || refunded + amount > capture.amount)
    return 'refund amount is invalid';
  payment.refunds.push({
    id: `ref_${token(16)}`,
    created_at: new Date().toISOString(),
    capture_id: capture.id,
    amount,
    reason,
    metadata,
  });
  return null;
}

export function mustGet(state: PaidyState, id: string): PaidyStandinPayment {
  const payment = state.payments.get(id);
  if (!payment) throw new Error(`paidy stand-in: no payment ${id}`);
  return payment;
}

/** The :id of a route (handlers are registered from a table, so the path is not typed). */
export function idParam(c: Context): string {
  return c.req.param('id') ?? '';
}
