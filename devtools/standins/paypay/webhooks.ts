// The PayPay stand-in's Transaction webhooks: plain JSON, no signature, retried as PayPay does.
import type { Context } from 'hono';
import type { PayPayStandinPayment, PayPayWebhookDelivery } from './index';
import type { PayPayState } from './state';

export function webhookObject(state: PayPayState, p: PayPayStandinPayment, overrides?: Record<string, unknown>) {
  const at = (seconds: number) =>
    seconds > 0 ? new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') : null;
  return {
    notification_type: 'Transaction',
    merchant_id: state.options.merchantId,
    store_id: '',
    pos_id: '',
    order_id: p.paymentId,
    merchant_order_id: p.merchantPaymentId,
    authorized_at: at(p.acceptedAt),
    expires_at: null,
    paid_at: at(p.acceptedAt),
    order_amount: p.amount,
    state: p.status,
    ...overrides,
  };
}

export async function deliver(state: PayPayState, body: string): Promise<PayPayWebhookDelivery> {
  const delivery: PayPayWebhookDelivery = { body, status: 0, attempts: 0 };
  if (!state.options.webhookUrl) return delivery;
  // One try plus up to 3 retries, 2 s timeout, 100 ms apart (PayPay's documented retry policy).
  for (let attempt = 0; attempt < 4 && !state.shutdown.signal.aborted; attempt += 1) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    delivery.attempts += 1;
    try {
      const res = await fetch(state.options.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.any([AbortSignal.timeout(2000), state.shutdown.signal]),
      });
      await res.arrayBuffer().catch(() => undefined);
      delivery.status = res.status;
      if (res.ok) break;
    } catch {
      delivery.status = 0;
    }
  }
  state.deliveries.push(delivery);
  return delivery;
}

/** Keeps a delivery in flight until it settles (close() waits for it). */
export function track<T>(state: PayPayState, promise: Promise<T>): Promise<T> {
  state.inFlight.add(promise);
  void promise.finally(() => state.inFlight.delete(promise)).catch(() => undefined);
  return promise;
}

export function notify(state: PayPayState, p: PayPayStandinPayment) {
  return track(state, deliver(state, JSON.stringify(webhookObject(state, p))));
}

/** A route's parameter (handlers are registered from a table, so the path is not typed). */
export function routeParam(c: Context, name: string): string {
  return c.req.param(name) ?? '';
}
