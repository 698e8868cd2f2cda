// Local stand-in for メルペイ: the (assumed) payments API the merpay adapter speaks, a hosted payment page, and HMAC-signed webhooks.
//
// The shapes are the ones providers/merpay.ts assumes until Merpay's partner documentation is in hand
// (see providers/merpay.md): Bearer API key + X-Merpay-Merchant-Id, Idempotency-Key on POSTs, errors as
// `{ error: { code, message } }`, payments with merchant_payment_id / status / captured_amount /
// refunded_amount, and webhooks signed with X-Merpay-Timestamp + X-Merpay-Signature =
// hex(HMAC-SHA256(secret, `${timestamp}.${body}`)).
import { createHash, createHmac } from 'node:crypto';
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { MerpayStatus } from '../providers/merpay';
import { escapeHtml, isHttpUrl, listenStandin, token } from './http';

export interface MerpayStandinOptions {
  port?: number;
  host?: string;
  /** Where to POST webhooks (our /api/webhooks/merpay); none are delivered when unset. */
  webhookUrl?: string;
  merchantId: string;
  apiKey: string;
  webhookSecret: string;
  /** Base URL the stand-in is reached at from the browser, when it differs from http://host:port. */
  publicUrl?: string;
}

export interface MerpayStandinPayment {
  id: string;
  object: 'payment';
  merchant_id: string;
  merchant_payment_id: string;
  amount: number;
  currency: 'JPY';
  status: MerpayStatus;
  capture_mode: 'manual' | 'auto';
  captured_amount: number;
  refunded_amount: number;
  refunds: { id: string; amount: number; reason: string | null; merchant_refund_id: string | null; created_at: string }[];
  order_description: string;
  redirect_url: string;
  cancel_url: string;
  notification_url: string | null;
  checkout_url: string;
  failure_reason: string | null;
  metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  expires_at: string;
}

export type MerpayEventType = 'payment.authorized' | 'payment.captured' | 'payment.canceled' | 'payment.failed' | 'payment.expired' | 'payment.refunded';

export interface MerpayStandinWebhook {
  headers: Record<string, string>;
  rawBody: string;
  /** HTTP status our endpoint answered, or null when not delivered. */
  deliveredStatus: number | null;
}

export interface MerpayStandin {
  url: string;
  close(): Promise<void>;
  getPayment(id: string): MerpayStandinPayment | undefined;
  /** The member approves on the payment page, without a browser. */
  approve(paymentId: string): Promise<MerpayStandinPayment>;
  /** Merpay declines (e.g. not enough balance). */
  decline(paymentId: string): Promise<MerpayStandinPayment>;
  /** The member presses キャンセル on the payment page. */
  cancelByMember(paymentId: string): Promise<MerpayStandinPayment>;
  /** The member never finished: the payment expires. */
  expire(paymentId: string): Promise<MerpayStandinPayment>;
  /** A refund made in Merpay's merchant console. */
  refund(paymentId: string, amountJpy: number, reason?: string): Promise<MerpayStandinPayment>;
  /** (Re)sends a webhook; `timestamp` (unix seconds) and `secret` let tests forge stale or mis-signed ones. */
  sendWebhook(paymentId: string, type: MerpayEventType, overrides?: { timestamp?: number; secret?: string }): Promise<MerpayStandinWebhook>;
  readonly webhooks: readonly MerpayStandinWebhook[];
}

const MAX_AMOUNT = 1_000_000;
// Signed here on its own (not with the adapter's helper) so a wrong scheme on either side shows in tests.
const TIMESTAMP_HEADER = 'x-merpay-timestamp';
const SIGNATURE_HEADER = 'x-merpay-signature';
const sign = (secret: string, timestamp: string, body: string) => createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');

/** Starts the Merpay stand-in on `port` (0 = any free port). */
export async function startMerpayStandin(options: MerpayStandinOptions): Promise<MerpayStandin> {
  const payments = new Map<string, MerpayStandinPayment>();
  const byMerchantId = new Map<string, string>();
  const idempotent = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  const webhooks: MerpayStandinWebhook[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let url = '';

  function touch(p: MerpayStandinPayment): void {
    p.updated_at = new Date().toISOString();
  }

  async function deliver(payment: MerpayStandinPayment, type: MerpayEventType, overrides?: { timestamp?: number; secret?: string }): Promise<MerpayStandinWebhook> {
    const rawBody = JSON.stringify({
      id: `evt_${token(20)}`,
      type,
      created_at: new Date().toISOString(),
      data: { payment_id: payment.id, merchant_payment_id: payment.merchant_payment_id, status: payment.status, amount: payment.amount },
    });
    const timestamp = String(overrides?.timestamp ?? Math.floor(Date.now() / 1000));
    const headers = {
      'content-type': 'application/json',
      [TIMESTAMP_HEADER]: timestamp,
      [SIGNATURE_HEADER]: sign(overrides?.secret ?? options.webhookSecret, timestamp, rawBody),
    };
    const record: MerpayStandinWebhook = { headers, rawBody, deliveredStatus: null };
    webhooks.push(record);
    if (options.webhookUrl) {
      try {
        const response = await fetch(options.webhookUrl, { method: 'POST', headers, body: rawBody, signal: AbortSignal.timeout(10_000) });
        record.deliveredStatus = response.status;
        await response.body?.cancel();
      } catch {
        record.deliveredStatus = null;
      }
    }
    return record;
  }

  function deliverLater(payment: MerpayStandinPayment, type: MerpayEventType): void {
    const p = deliver(payment, type).finally(() => inFlight.delete(p));
    inFlight.add(p);
  }

  /** Member's decision on the payment page; returns the state-change problem, or null. */
  function decide(payment: MerpayStandinPayment, action: 'approve' | 'decline' | 'cancel' | 'expire'): { problem: string } | { event: MerpayEventType } {
    if (payment.status !== 'created') return { problem: `payment is ${payment.status}` };
    touch(payment);
    switch (action) {
      case 'approve':
        if (payment.capture_mode === 'auto') {
          payment.status = 'captured';
          payment.captured_amount = payment.amount;
          return { event: 'payment.captured' };
        }
        payment.status = 'authorized';
        return { event: 'payment.authorized' };
      case 'decline':
        payment.status = 'failed';
        payment.failure_reason = 'メルペイ残高が不足しています';
        return { event: 'payment.failed' };
      case 'cancel':
        payment.status = 'canceled';
        return { event: 'payment.canceled' };
      case 'expire':
        payment.status = 'expired';
        return { event: 'payment.expired' };
    }
  }

  function addRefund(payment: MerpayStandinPayment, amount: unknown, reason: string | null, merchantRefundId: string | null): string | null {
    if (payment.status !== 'captured' && payment.status !== 'partially_refunded') return `payment is ${payment.status}`;
    if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) return 'amount must be a positive integer';
    if (payment.refunded_amount + amount > payment.captured_amount) return 'amount exceeds the refundable balance';
    payment.refunds.push({ id: `mref_${token(16)}`, amount, reason, merchant_refund_id: merchantRefundId, created_at: new Date().toISOString() });
    payment.refunded_amount += amount;
    payment.status = payment.refunded_amount === payment.captured_amount ? 'refunded' : 'partially_refunded';
    touch(payment);
    return null;
  }

  const app = new Hono();

  // --- API ------------------------------------------------------------------------------------
  const api = new Hono();
  api.use('*', async (c, next) => {
    if (c.req.header('authorization') !== `Bearer ${options.apiKey}` || c.req.header('x-merpay-merchant-id') !== options.merchantId) {
      return merpayError(c, 401, 'UNAUTHORIZED', 'API key or merchant id is invalid.');
    }
    await next();
  });

  /** Runs a POST once per Idempotency-Key; a replay with the same body gets the first answer back. */
  async function once(c: Context, run: (body: Record<string, unknown>) => { status: 200 | 201 | 400 | 404 | 409; body: unknown }) {
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = await c.req.json();
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return merpayError(c, 400, 'INVALID_REQUEST', 'Body must be a JSON object.');
      body = parsed as Record<string, unknown>;
    } catch {
      return merpayError(c, 400, 'INVALID_REQUEST', 'Body must be JSON.');
    }
    const key = c.req.header('idempotency-key');
    const fingerprint = createHash('sha256').update(`${c.req.method} ${c.req.path} ${JSON.stringify(body)}`).digest('hex');
    if (key) {
      const seen = idempotent.get(key);
      if (seen) {
        if (seen.fingerprint !== fingerprint) return merpayError(c, 409, 'IDEMPOTENCY_KEY_REUSED', 'Idempotency-Key was used with a different request.');
        return c.json(seen.body, seen.status as 200);
      }
    }
    const result = run(body);
    // Only successful answers are remembered, so a corrected retry is possible after a 4xx.
    if (key && result.status < 300) idempotent.set(key, { fingerprint, status: result.status, body: result.body });
    return c.json(result.body, result.status);
  }

  const err = (status: 400 | 404 | 409, code: string, message: string) => ({ status, body: { error: { code, message } } });

  api.post('/payments', (c) =>
    once(c, (b) => {
      const merchantPaymentId = b.merchant_payment_id;
      if (typeof merchantPaymentId !== 'string' || merchantPaymentId.length === 0 || merchantPaymentId.length > 64) return err(400, 'INVALID_PARAMETER', 'merchant_payment_id is required (1–64 chars).');
      if (typeof b.amount !== 'number' || !Number.isSafeInteger(b.amount) || b.amount < 1 || b.amount > MAX_AMOUNT) return err(400, 'INVALID_PARAMETER', `amount must be an integer from 1 to ${MAX_AMOUNT}.`);
      if (b.currency !== 'JPY') return err(400, 'INVALID_PARAMETER', 'currency must be JPY.');
      if (typeof b.redirect_url !== 'string' || !isHttpUrl(b.redirect_url)) return err(400, 'INVALID_PARAMETER', 'redirect_url must be an http(s) URL.');
      if (typeof b.cancel_url !== 'string' || !isHttpUrl(b.cancel_url)) return err(400, 'INVALID_PARAMETER', 'cancel_url must be an http(s) URL.');
      if (b.capture_mode !== undefined && b.capture_mode !== 'manual' && b.capture_mode !== 'auto') return err(400, 'INVALID_PARAMETER', 'capture_mode must be manual or auto.');
      if (byMerchantId.has(merchantPaymentId)) return err(409, 'DUPLICATE_MERCHANT_PAYMENT_ID', 'A payment with this merchant_payment_id exists.');
      const now = new Date();
      const id = `mpay_${token(20)}`;
      const payment: MerpayStandinPayment = {
        id,
        object: 'payment',
        merchant_id: options.merchantId,
        merchant_payment_id: merchantPaymentId,
        amount: b.amount,
        currency: 'JPY',
        status: 'created',
        capture_mode: b.capture_mode === 'auto' ? 'auto' : 'manual',
        captured_amount: 0,
        refunded_amount: 0,
        refunds: [],
        order_description: typeof b.order_description === 'string' ? b.order_description.slice(0, 200) : '',
        redirect_url: b.redirect_url,
        cancel_url: b.cancel_url,
        notification_url: typeof b.notification_url === 'string' ? b.notification_url : null,
        checkout_url: `${url}/checkout/${id}`,
        failure_reason: null,
        metadata: typeof b.metadata === 'object' && b.metadata !== null ? (b.metadata as Record<string, unknown>) : {},
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
        expires_at: new Date(now.getTime() + 30 * 60_000).toISOString(),
      };
      payments.set(id, payment);
      byMerchantId.set(merchantPaymentId, id);
      return { status: 201, body: payment };
    }),
  );
  api.get('/payments/:id', (c) => {
    const payment = payments.get(c.req.param('id'));
    return payment ? c.json(payment) : merpayError(c, 404, 'PAYMENT_NOT_FOUND', 'No such payment.');
  });
  api.post('/payments/:id/capture', (c) =>
    once(c, (b) => {
      const payment = payments.get(c.req.param('id'));
      if (!payment) return err(404, 'PAYMENT_NOT_FOUND', 'No such payment.');
      if (payment.status !== 'authorized') return err(409, 'INVALID_STATUS', `Payment is ${payment.status}; only authorized payments can be captured.`);
      if (b.amount !== undefined && b.amount !== payment.amount) return err(400, 'INVALID_PARAMETER', 'Partial capture is not supported; amount must equal the payment amount.');
      payment.status = 'captured';
      payment.captured_amount = payment.amount;
      touch(payment);
      deliverLater(payment, 'payment.captured');
      return { status: 200, body: payment };
    }),
  );
  api.post('/payments/:id/cancel', (c) =>
    once(c, () => {
      const payment = payments.get(c.req.param('id'));
      if (!payment) return err(404, 'PAYMENT_NOT_FOUND', 'No such payment.');
      if (payment.status !== 'created' && payment.status !== 'authorized') return err(409, 'INVALID_STATUS', `Payment is ${payment.status}; it cannot be canceled.`);
      payment.status = 'canceled';
      touch(payment);
      deliverLater(payment, 'payment.canceled');
      return { status: 200, body: payment };
    }),
  );
  api.post('/payments/:id/refunds', (c) =>
    once(c, (b) => {
      const payment = payments.get(c.req.param('id'));
      if (!payment) return err(404, 'PAYMENT_NOT_FOUND', 'No such payment.');
      const problem = addRefund(payment, b.amount, typeof b.reason === 'string' ? b.reason : null, typeof b.merchant_refund_id === 'string' ? b.merchant_refund_id : null);
      if (problem) return err(problem.startsWith('payment is') ? 409 : 400, problem.startsWith('payment is') ? 'INVALID_STATUS' : 'INVALID_PARAMETER', problem);
      deliverLater(payment, 'payment.refunded');
      return { status: 200, body: payment };
    }),
  );
  app.route('/v1', api);

  // --- Hosted payment page ---------------------------------------------------------------------
  app.get('/checkout/:id', (c) => {
    const payment = payments.get(c.req.param('id'));
    if (!payment) return c.html(page('エラー', '<h1>お支払いが見つかりません</h1>'), 404);
    if (payment.status !== 'created') {
      return c.html(page('お支払い済み', `<h1>このお支払いは受付を終了しています</h1><p>状態: ${escapeHtml(payment.status)}</p>`), 409);
    }
    return c.html(checkoutPage(payment));
  });
  app.post('/checkout/:id', async (c) => {
    const payment = payments.get(c.req.param('id'));
    if (!payment) return c.html(page('エラー', '<h1>お支払いが見つかりません</h1>'), 404);
    const form = await c.req.parseBody();
    const action = form.action;
    if (action !== 'approve' && action !== 'decline' && action !== 'cancel') return c.html(page('エラー', '<h1>操作が正しくありません</h1>'), 400);
    const result = decide(payment, action);
    if ('problem' in result) {
      return c.html(page('お支払い済み', `<h1>このお支払いは受付を終了しています</h1><p>状態: ${escapeHtml(payment.status)}</p>`), 409);
    }
    deliverLater(payment, result.event);
    const back = new URL(action === 'cancel' ? payment.cancel_url : payment.redirect_url);
    back.searchParams.set('payment_id', payment.id);
    back.searchParams.set('merchant_payment_id', payment.merchant_payment_id);
    back.searchParams.set('status', payment.status);
    return c.redirect(back.toString(), 303);
  });

  const listening = await listenStandin(app.fetch, options);
  const server = listening.server;
  url = (options.publicUrl ?? listening.url).replace(/\/+$/, '');

  function mustGet(id: string): MerpayStandinPayment {
    const payment = payments.get(id);
    if (!payment) throw new Error(`merpay stand-in: no payment ${id}`);
    return payment;
  }

  async function control(id: string, action: 'approve' | 'decline' | 'cancel' | 'expire'): Promise<MerpayStandinPayment> {
    const payment = mustGet(id);
    const result = decide(payment, action);
    if ('problem' in result) throw new Error(`merpay stand-in: ${result.problem}`);
    await deliver(payment, result.event);
    return structuredClone(payment);
  }

  return {
    url,
    async close() {
      await Promise.allSettled([...inFlight]);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
    getPayment: (id) => {
      const payment = payments.get(id);
      return payment ? structuredClone(payment) : undefined;
    },
    approve: (id) => control(id, 'approve'),
    decline: (id) => control(id, 'decline'),
    cancelByMember: (id) => control(id, 'cancel'),
    expire: (id) => control(id, 'expire'),
    async refund(id, amountJpy, reason) {
      const payment = mustGet(id);
      const problem = addRefund(payment, amountJpy, reason ?? null, null);
      if (problem) throw new Error(`merpay stand-in: ${problem}`);
      await deliver(payment, 'payment.refunded');
      return structuredClone(payment);
    },
    sendWebhook: (id, type, overrides) => deliver(mustGet(id), type, overrides),
    get webhooks() {
      return webhooks;
    },
  };
}

function checkoutPage(p: MerpayStandinPayment): string {
  return page(
    'メルペイでお支払い',
    `<p class="brand">メルペイ <span class="tag">テスト環境</span></p>
<h1>${escapeHtml(p.order_description || 'ご注文')}</h1>
<p class="amount">${escapeHtml(p.amount.toLocaleString('ja-JP'))}<small>円</small></p>
<p class="note">注文番号: ${escapeHtml(p.merchant_payment_id)}<br>これはメルペイを模したローカルのテスト画面です。実際の請求は発生しません。</p>
<form method="post" action="/checkout/${escapeHtml(encodeURIComponent(p.id))}">
<button type="submit" name="action" value="approve" class="primary">お支払いを承認</button>
<button type="submit" name="action" value="decline">拒否</button>
<button type="submit" name="action" value="cancel" class="link">キャンセル</button>
</form>`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Hiragino Sans","Noto Sans JP",sans-serif;background:#f3f6fb;color:#222}
main{max-width:420px;margin:0 auto;padding:24px 16px}
.brand{color:#e0263b;font-weight:700;margin:0 0 12px}.tag{font-size:12px;background:#fff3c4;color:#7a5b00;padding:2px 6px;border-radius:4px}
h1{font-size:20px;margin:0 0 8px}.amount{font-size:32px;font-weight:700;margin:8px 0 16px}.amount small{font-size:16px;margin-left:4px}
.note{font-size:13px;color:#555}
button{display:block;width:100%;padding:14px;margin:10px 0;font-size:16px;border-radius:8px;border:1px solid #e0263b;background:#fff;color:#e0263b}
button.primary{background:#e0263b;color:#fff}button.link{border:none;background:none;text-decoration:underline;color:#555}
</style></head><body><main>${body}</main></body></html>`;
}

function merpayError(c: Context, status: 400 | 401 | 404 | 409, code: string, message: string) {
  return c.json({ error: { code, message } }, status);
}



