// Local stand-in for Paidy: the payments API (2018-04-10 shapes, Bearer secret key), a Paidy Checkout look-alike page, and unsigned payment webhooks.
//
// What it imitates (see providers/paidy.md for the sources):
// - GET /payments/{id}, POST /payments/{id}/captures, /close, /refunds with `Authorization: Bearer sk_…`
//   and `Paidy-Version`; errors as `{ reference, status, code, title, description }`.
// - The checkout page at `/shop/checkout/paidy/widget` stands in for our page that would load paidy.js:
//   approving creates an AUTHORIZED payment (order_ref = our order id) and sends the browser back to the
//   return URL with `payment_id` and `status`, exactly what our widget callback does; declining creates a
//   REJECTED payment; cancelling is the member closing the widget (no payment, back to the cancel URL).
// - Webhooks `{ payment_id, capture_id?, event_type: "payment", status, order_ref, timestamp }`, unsigned,
//   for authorize/capture/close/refund.
import { Hono } from 'hono';
import { listenStandin } from '#devtools/standins/shared';
import { checkRequest } from './api';
import { addRefund, createPayment, deliver, mustGet } from './changes';
import { API_ROUTES, PAGE_ROUTES } from './routing';
import type { PaidyState } from './state';

export interface PaidyStandinOptions {
  port?: number;
  host?: string;
  /** Where to POST payment webhooks (our /api/webhooks/paidy); none are delivered when unset. */
  webhookUrl?: string;
  /** The secret key the API accepts (the adapter's secretKey). */
  secretKey: string;
  /** Base URL the stand-in is reached at from the browser, when it differs from http://host:port. */
  publicUrl?: string;
  /** Store name shown on the checkout page. */
  storeName?: string;
}

export interface PaidyStandinPayment {
  id: string;
  created_at: string;
  expires_at: string;
  amount: number;
  currency: 'JPY';
  description: string;
  store_name: string;
  test: true;
  status: 'authorized' | 'closed' | 'rejected';
  tier: 'classic';
  buyer: { name1: string; name2: string; email: string; phone: string };
  order: {
    items: { id: string; title: string; quantity: number; unit_price: number }[];
    tax: number;
    shipping: number;
    order_ref: string;
    updated_at: string | null;
  };
  captures: {
    id: string;
    created_at: string;
    amount: number;
    tax: number;
    shipping: number;
    items: unknown[];
    metadata: Record<string, unknown>;
  }[];
  refunds: {
    id: string;
    created_at: string;
    capture_id: string;
    amount: number;
    reason: string | null;
    metadata: Record<string, unknown>;
  }[];
  metadata: Record<string, unknown>;
}

export type PaidyWebhookStatus =
  'authorize_success' | 'capture_success' | 'close_success' | 'refund_success' | 'update_success';

/** One webhook as built (and, with a webhookUrl, delivered): what verifyWebhook receives. */
export interface PaidyStandinWebhook {
  headers: Record<string, string>;
  rawBody: string;
  /** HTTP status our endpoint answered, or null when not delivered (no webhookUrl, or network error). */
  deliveredStatus: number | null;
}

export interface PaidyStandin {
  url: string;
  close(): Promise<void>;
  /** Reads a payment as the API would return it (a copy). */
  getPayment(id: string): PaidyStandinPayment | undefined;
  /** What the member does in Paidy Checkout, without a browser: an AUTHORIZED payment for our order. */
  authorize(input: { orderId: string; amountJpy: number; description?: string }): Promise<PaidyStandinPayment>;
  /** Paidy's credit check says no: a REJECTED payment (Paidy sends no webhook for it). */
  decline(input: { orderId: string; amountJpy: number; description?: string }): PaidyStandinPayment;
  /** A refund made in Paidy's merchant dashboard (sends refund_success). */
  refund(paymentId: string, amountJpy: number, reason?: string): Promise<PaidyStandinPayment>;
  /** The authorisation runs out uncaptured: Paidy closes it. */
  expire(paymentId: string): Promise<PaidyStandinPayment>;
  /** (Re)sends a webhook for a payment; returns what was sent. */
  sendWebhook(paymentId: string, status: PaidyWebhookStatus): Promise<PaidyStandinWebhook>;
  /** Every webhook built so far, oldest first. */
  readonly webhooks: readonly PaidyStandinWebhook[];
}

/** Starts the Paidy stand-in on `port` (0 = any free port). */
export async function startPaidyStandin(options: PaidyStandinOptions): Promise<PaidyStandin> {
  const state: PaidyState = {
    options,
    payments: new Map(),
    webhooks: [],
    inFlight: new Set(),
    storeName: options.storeName ?? 'オリパショップ',
    url: '',
  };
  const api = new Hono();
  api.use('*', (c, next) => checkRequest(state, c, next));
  for (const route of API_ROUTES) api.on(route.method.toUpperCase(), route.path, (c) => route.handle(state, c));
  const app = new Hono();
  app.route('/payments', api);
  for (const route of PAGE_ROUTES) app.on(route.method.toUpperCase(), route.path, (c) => route.handle(state, c));
  const listening = await listenStandin(app.fetch, options);
  state.url = (options.publicUrl ?? listening.url).replace(/\/+$/, '');
  return {
    url: state.url,
    async close() {
      await Promise.allSettled([...state.inFlight]);
      await new Promise<void>((resolve) => {
        listening.server.close(() => resolve());
        (listening.server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
    getPayment: (id) => {
      const payment = state.payments.get(id);
      return payment ? structuredClone(payment) : undefined;
    },
    async authorize(input) {
      const payment = createPayment(state, input, 'authorized');
      await deliver(state, payment, 'authorize_success');
      return structuredClone(payment);
    },
    decline(input) {
      return structuredClone(createPayment(state, input, 'rejected'));
    },
    async refund(paymentId, amountJpy, reason) {
      const payment = mustGet(state, paymentId);
      const problem = addRefund(state, payment, amountJpy, reason ?? null, {});
      if (problem) throw new Error(`paidy stand-in: ${problem}`);
      await deliver(state, payment, 'refund_success');
      return structuredClone(payment);
    },
    async expire(paymentId) {
      const payment = mustGet(state, paymentId);
      if (payment.status !== 'authorized') throw new Error(`paidy stand-in: payment ${paymentId} is ${payment.status}`);
      payment.status = 'closed';
      await deliver(state, payment, 'close_success');
      return structuredClone(payment);
    },
    sendWebhook: (paymentId, status) => deliver(state, mustGet(state, paymentId), status),
    get webhooks() {
      return state.webhooks;
    },
  };
}
