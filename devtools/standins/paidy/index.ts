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
import type { Context, Next } from 'hono';
import { escapeHtml, isHttpUrl, isRecord, listenStandin, token } from '#devtools/standins/shared';

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

const WIDGET_PATH = '/shop/checkout/paidy/widget';

/** Everything the stand-in holds, passed explicitly to each handler and state change. */
interface PaidyState {
  options: PaidyStandinOptions;
  payments: Map<string, PaidyStandinPayment>;
  webhooks: PaidyStandinWebhook[];
  /** Webhook deliveries still running (close() waits for them). */
  inFlight: Set<Promise<unknown>>;
  storeName: string;
  /** Where the stand-in is reached (known once it listens). */
  url: string;
}

type Route = {
  method: 'get' | 'post';
  path: string;
  handle: (state: PaidyState, c: Context) => Response | Promise<Response>;
};

/** The payments API (under /payments), one handler per operation. */
const API_ROUTES: readonly Route[] = [
  { method: 'get', path: '/:id', handle: retrievePayment },
  { method: 'post', path: '/:id/captures', handle: capturePayment },
  { method: 'post', path: '/:id/close', handle: closePayment },
  { method: 'post', path: '/:id/refunds', handle: refundPayment },
];

/** The Paidy Checkout look-alike. */
const PAGE_ROUTES: readonly Route[] = [
  { method: 'get', path: WIDGET_PATH, handle: showCheckout },
  { method: 'post', path: WIDGET_PATH, handle: submitCheckout },
];

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

// --- Paidy API -------------------------------------------------------------------------------

/** Every API request: the secret key (Bearer) and Paidy-Version. */
async function checkRequest(state: PaidyState, c: Context, next: Next): Promise<Response | void> {
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
function retrievePayment(state: PaidyState, c: Context): Response {
  const payment = state.payments.get(idParam(c));
  return payment ? c.json(payment) : notFound(c);
}

/** POST /payments/:id/captures: an authorised payment, whole; sends capture_success. */
async function capturePayment(state: PaidyState, c: Context): Promise<Response> {
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
function closePayment(state: PaidyState, c: Context): Response {
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
async function refundPayment(state: PaidyState, c: Context): Promise<Response> {
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

// --- Paidy Checkout look-alike ---------------------------------------------------------------------

/** GET the widget look-alike: the order, amount and store, with 承認 / 拒否 / 閉じる. */
function showCheckout(state: PaidyState, c: Context): Response {
  const q = readCheckoutFields((k) => c.req.query(k));
  if (typeof q === 'string') return c.html(errorPage(q), 400);
  return c.html(checkoutPage(q, state.storeName));
}

/** POST the widget: the member’s choice; back to the return (or cancel) URL with payment_id and status. */
async function submitCheckout(state: PaidyState, c: Context): Promise<Response> {
  const form = await c.req.parseBody();
  const field = (k: string) => (typeof form[k] === 'string' ? (form[k] as string) : undefined);
  const q = readCheckoutFields(field);
  if (typeof q === 'string') return c.html(errorPage(q), 400);
  const action = field('action');
  if (action === 'cancel') {
    // The member closed the widget: Paidy calls back with status "closed" and no payment.
    const back = new URL(q.cancel);
    back.searchParams.set('status', 'closed');
    return c.redirect(back.toString(), 303);
  }
  if (action !== 'approve' && action !== 'decline') return c.html(errorPage('操作が正しくありません。'), 400);
  const payment = createPayment(
    state,
    { orderId: q.order, amountJpy: q.amount, description: q.description },
    action === 'approve' ? 'authorized' : 'rejected',
  );
  if (payment.status === 'authorized') deliverLater(state, payment, 'authorize_success');
  const back = new URL(q.return);
  back.searchParams.set('payment_id', payment.id);
  back.searchParams.set('status', payment.status);
  return c.redirect(back.toString(), 303);
}

// --- state changes -----------------------------------------------------------------------------

function createPayment(
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

async function deliver(
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
function deliverLater(state: PaidyState, payment: PaidyStandinPayment, status: PaidyWebhookStatus): void {
  const p = deliver(state, payment, status).finally(() => state.inFlight.delete(p));
  state.inFlight.add(p);
}

function capture(state: PaidyState, payment: PaidyStandinPayment, metadata: Record<string, unknown>): void {
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

function addRefund(
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

function mustGet(state: PaidyState, id: string): PaidyStandinPayment {
  const payment = state.payments.get(id);
  if (!payment) throw new Error(`paidy stand-in: no payment ${id}`);
  return payment;
}

/** The :id of a route (handlers are registered from a table, so the path is not typed). */
function idParam(c: Context): string {
  return c.req.param('id') ?? '';
}

interface CheckoutFields {
  order: string;
  amount: number;
  description: string;
  return: string;
  cancel: string;
}

/** The widget page's inputs (query on GET, hidden fields on POST), or a Japanese error message. */
function readCheckoutFields(get: (key: string) => string | undefined): CheckoutFields | string {
  const order = get('order') ?? '';
  const amountText = get('amount') ?? '';
  const description = get('description') ?? '';
  const ret = get('return') ?? '';
  const cancel = get('cancel') ?? '';
  if (!order || order.length > 100) return '注文番号がありません。';
  if (!/^[1-9][0-9]{0,8}$/.test(amountText)) return '金額が正しくありません。';
  if (!isHttpUrl(ret) || !isHttpUrl(cancel)) return '戻り先のURLが正しくありません。';
  return { order, amount: Number(amountText), description: description.slice(0, 200), return: ret, cancel };
}

function checkoutPage(q: CheckoutFields, storeName: string): string {
  const hidden = (['order', 'description', 'return', 'cancel'] as const)
    .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(q[k])}">`)
    .join('');
  return page(
    'ペイディでお支払い',
    `<p class="brand">あと払いペイディ <span class="tag">テスト環境</span></p>
<h1>${escapeHtml(storeName)}</h1>
<p class="item">${escapeHtml(q.description || 'ご注文')}</p>
<p class="amount">${escapeHtml(q.amount.toLocaleString('ja-JP'))}<small>円</small></p>
<p class="note">お支払いは翌月まとめて。これは Paidy Checkout を模したローカルのテスト画面です。実際の請求は発生しません。</p>
<form method="post" action="${WIDGET_PATH}">
${hidden}<input type="hidden" name="amount" value="${escapeHtml(String(q.amount))}">
<button type="submit" name="action" value="approve" class="primary">お支払いを承認</button>
<button type="submit" name="action" value="decline">拒否</button>
<button type="submit" name="action" value="cancel" class="link">キャンセル</button>
</form>`,
  );
}

function errorPage(message: string): string {
  return page(
    'エラー',
    `<p class="brand">あと払いペイディ <span class="tag">テスト環境</span></p><h1>お支払いを開始できません</h1><p>${escapeHtml(message)}</p>`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Hiragino Sans","Noto Sans JP",sans-serif;background:#f4f0fa;color:#222}
main{max-width:420px;margin:0 auto;padding:24px 16px}
.brand{color:#5b2fb8;font-weight:700;margin:0 0 12px}.tag{font-size:12px;background:#fff3c4;color:#7a5b00;padding:2px 6px;border-radius:4px}
h1{font-size:20px;margin:0 0 8px}.item{margin:0 0 4px}.amount{font-size:32px;font-weight:700;margin:8px 0 16px}.amount small{font-size:16px;margin-left:4px}
.note{font-size:13px;color:#555}
button{display:block;width:100%;padding:14px;margin:10px 0;font-size:16px;border-radius:8px;border:1px solid #5b2fb8;background:#fff;color:#5b2fb8}
button.primary{background:#5b2fb8;color:#fff}button.link{border:none;background:none;text-decoration:underline;color:#555}
</style></head><body><main>${body}</main></body></html>`;
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
