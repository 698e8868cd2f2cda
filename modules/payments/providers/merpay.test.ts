// Merpay adapter against the Merpay stand-in over real HTTP: hosted page, capture, cancel, refund, signed webhooks confirmed by re-reading.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerpayProvider } from './merpay';
import { ProviderError, WebhookRejected } from './types';
import type { CheckoutRequest, OrderRef, PaymentProvider } from './types';
import { startMerpayStandin } from '../standins/merpay';
import type { MerpayStandin } from '../standins/merpay';

const CREDS = { merchantId: 'mch_test_0001', apiKey: 'mpsk_test_standin', webhookSecret: 'whsec_test_standin' };
const SHOP = 'https://shop.example.jp';

let standin: MerpayStandin;
let merpay: PaymentProvider;

beforeAll(async () => {
  standin = await startMerpayStandin({ port: 0, ...CREDS });
  merpay = createMerpayProvider({ apiBase: standin.url, ...CREDS });
});

afterAll(async () => {
  await standin.close();
});

function checkoutRequest(amountJpy = 1000, description = 'コイン 1,000枚'): CheckoutRequest {
  const orderId = randomUUID();
  return {
    orderId,
    amountJpy,
    description,
    memberId: 'member-1',
    email: null,
    returnUrl: `${SHOP}/shop/backfrom/merpay?order=${orderId}`,
    cancelUrl: `${SHOP}/shop/checkout?order=${orderId}&canceled=1`,
    webhookUrl: `${SHOP}/api/webhooks/merpay`,
  };
}

async function started(amountJpy = 1000, description?: string) {
  const req = checkoutRequest(amountJpy, description);
  const start = await merpay.createCheckout(req);
  const order: OrderRef = { orderId: req.orderId, providerRef: start.providerRef, amountJpy };
  return { req, start, order };
}

/** Presses one button on the hosted page the way a browser would. */
async function press(redirectUrl: string, action: 'approve' | 'decline' | 'cancel') {
  const pageResponse = await fetch(redirectUrl);
  expect(pageResponse.status).toBe(200);
  const html = await pageResponse.text();
  const formAction = /<form method="post" action="([^"]+)">/.exec(html)?.[1] ?? '';
  const posted = await fetch(new URL(formAction, redirectUrl), { method: 'POST', body: new URLSearchParams({ action }), redirect: 'manual' });
  expect(posted.status).toBe(303);
  return { html, location: new URL(posted.headers.get('location') ?? '') };
}

const hdrs = (h: Record<string, string>) => new Headers(h);

describe('merpay checkout', () => {
  it('creates one payment per order with our order id as merchant reference', async () => {
    const { req, start } = await started(1500);
    expect(start.providerRef).toMatch(/^mpay_/);
    expect(start.redirectUrl).toBe(`${standin.url}/checkout/${start.providerRef}`);
    const stored = standin.getPayment(start.providerRef);
    expect(stored).toMatchObject({ merchant_payment_id: req.orderId, amount: 1500, currency: 'JPY', status: 'created', capture_mode: 'manual', redirect_url: req.returnUrl, cancel_url: req.cancelUrl });
    // A retried createCheckout gets the same payment back (Idempotency-Key).
    const again = await merpay.createCheckout(req);
    expect(again).toEqual(start);
    expect(await merpay.fetchPayment({ orderId: req.orderId, providerRef: start.providerRef, amountJpy: 1500 })).toEqual({ status: 'pending' });
  });

  it('approves on the hosted page, returns to the shop, and fetchPayment captures once', async () => {
    const { req, start, order } = await started(1000, '<img src=x onerror=alert(1)> コイン');
    const { html, location } = await press(start.redirectUrl, 'approve');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img src=x');
    expect(`${location.origin}${location.pathname}`).toBe(`${SHOP}/shop/backfrom/merpay`);
    expect(location.searchParams.get('order')).toBe(req.orderId);
    expect(location.searchParams.get('payment_id')).toBe(start.providerRef);
    expect(standin.getPayment(start.providerRef)?.status).toBe('authorized');

    const first = await merpay.fetchPayment(order, location.searchParams);
    expect(first).toEqual({ status: 'paid', amountJpy: 1000, providerPaymentId: start.providerRef });
    expect(standin.getPayment(start.providerRef)).toMatchObject({ status: 'captured', captured_amount: 1000 });
    expect(await merpay.fetchPayment(order)).toEqual(first);
    // The page is closed once decided.
    expect((await fetch(start.redirectUrl)).status).toBe(409);
  });

  it('a declined payment is failed; cancel on it is a no-op', async () => {
    const { start, order } = await started(2000);
    const { location } = await press(start.redirectUrl, 'decline');
    expect(location.searchParams.get('status')).toBe('failed');
    const result = await merpay.fetchPayment(order, location.searchParams);
    expect(result.status).toBe('failed');
    await expect(merpay.cancel(order)).resolves.toBeUndefined();
  });

  it('the member cancelling on the page lands on the cancel URL and reads as canceled', async () => {
    const { start, order } = await started(3000);
    const { location } = await press(start.redirectUrl, 'cancel');
    expect(location.toString()).toContain(`${SHOP}/shop/checkout`);
    expect(await merpay.fetchPayment(order, location.searchParams)).toEqual({ status: 'canceled' });
  });

  it('adapter.cancel cancels an unfinished or authorised payment, idempotently', async () => {
    const a = await started(700);
    await merpay.cancel(a.order);
    expect(standin.getPayment(a.start.providerRef)?.status).toBe('canceled');
    await merpay.cancel(a.order);
    expect(await merpay.fetchPayment(a.order)).toEqual({ status: 'canceled' });
    expect((await fetch(a.start.redirectUrl)).status).toBe(409);

    const b = await started(700);
    await standin.approve(b.start.providerRef);
    await merpay.cancel(b.order);
    expect(standin.getPayment(b.start.providerRef)?.status).toBe('canceled');
    expect(await merpay.fetchPayment(b.order)).toEqual({ status: 'canceled' });
  });

  it('an expired payment is failed', async () => {
    const { start, order } = await started(600);
    await standin.expire(start.providerRef);
    const result = await merpay.fetchPayment(order);
    expect(result.status).toBe('failed');
  });

  it('refuses a payment of another order and an amount that differs', async () => {
    const a = await started(1000);
    const b = await started(1000);
    const error = await merpay.fetchPayment({ ...b.order, providerRef: a.start.providerRef }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(false);

    // The shop's order says 1,200円 but the payment is for 1,000円: cancel the authorisation, do not capture.
    await standin.approve(a.start.providerRef);
    const result = await merpay.fetchPayment({ ...a.order, amountJpy: 1200 });
    expect(result.status).toBe('failed');
    expect(standin.getPayment(a.start.providerRef)).toMatchObject({ status: 'canceled', captured_amount: 0 });
  });
});

describe('merpay refund', () => {
  it('refunds part and the rest, once per (order, amount)', async () => {
    const { start, order } = await started(1000);
    await standin.approve(start.providerRef);
    const paid = await merpay.fetchPayment(order);
    expect(paid.status).toBe('paid');
    const ref = { ...order, providerPaymentId: start.providerRef };
    await merpay.refund(ref, 400, '一部返金');
    expect(await merpay.fetchPayment(order)).toEqual({ status: 'refunded', amountJpy: 1000, refundedJpy: 400, providerPaymentId: start.providerRef });
    await merpay.refund(ref, 400, '一部返金（再実行）');
    expect(standin.getPayment(start.providerRef)?.refunds).toHaveLength(1);
    await expect(merpay.refund(ref, 700, '多すぎる')).rejects.toBeInstanceOf(ProviderError);
    await merpay.refund(ref, 600, '残り');
    expect(await merpay.fetchPayment(order)).toEqual({ status: 'refunded', amountJpy: 1000, refundedJpy: 1000, providerPaymentId: start.providerRef });
    await expect(merpay.cancel(order)).rejects.toBeInstanceOf(ProviderError);
  });
});

describe('merpay webhooks', () => {
  it('verifies signed events and confirms them with the API', async () => {
    const { req, start, order } = await started(1200);
    const { location } = await press(start.redirectUrl, 'approve');
    await merpay.fetchPayment(order, location.searchParams);
    await standin.refund(start.providerRef, 200, 'コンソールから返金');
    const mine = standin.webhooks.filter((w) => JSON.parse(w.rawBody).data.payment_id === start.providerRef);
    expect(mine.map((w) => JSON.parse(w.rawBody).type)).toEqual(['payment.authorized', 'payment.captured', 'payment.refunded']);
    const events = [];
    for (const w of mine) events.push(...(await merpay.verifyWebhook({ headers: hdrs(w.headers), rawBody: w.rawBody })));
    expect(events.map((e) => e.hint)).toEqual(['paid', 'paid', 'refunded']);
    for (const e of events) expect(e).toMatchObject({ orderId: req.orderId, providerRef: start.providerRef });
    expect(new Set(events.map((e) => e.eventId)).size).toBe(3);
  });

  it('rejects a tampered body, a wrong secret, missing headers and a stale timestamp', async () => {
    const { start } = await started(900);
    const good = await standin.sendWebhook(start.providerRef, 'payment.canceled');
    const expectRejected = async (headers: Record<string, string>, rawBody: string, status: number) => {
      const error = await merpay.verifyWebhook({ headers: hdrs(headers), rawBody }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookRejected);
      expect((error as WebhookRejected).status).toBe(status);
    };
    // Tampered body (same signature).
    await expectRejected(good.headers, good.rawBody.replace('payment.canceled', 'payment.captured'), 401);
    // Signed with another secret.
    const wrong = await standin.sendWebhook(start.providerRef, 'payment.canceled', { secret: 'whsec_someone_else' });
    await expectRejected(wrong.headers, wrong.rawBody, 401);
    // A verifier holding the wrong secret refuses a genuine one.
    const misconfigured = createMerpayProvider({ apiBase: standin.url, ...CREDS, webhookSecret: 'whsec_wrong' });
    await expect(misconfigured.verifyWebhook({ headers: hdrs(good.headers), rawBody: good.rawBody })).rejects.toBeInstanceOf(WebhookRejected);
    // Missing headers.
    const { 'x-merpay-signature': _sig, ...noSignature } = good.headers;
    await expectRejected(noSignature, good.rawBody, 401);
    const { 'x-merpay-timestamp': _ts, ...noTimestamp } = good.headers;
    await expectRejected(noTimestamp, good.rawBody, 401);
    // Correctly signed but ten minutes old.
    const stale = await standin.sendWebhook(start.providerRef, 'payment.canceled', { timestamp: Math.floor(Date.now() / 1000) - 600 });
    await expectRejected(stale.headers, stale.rawBody, 401);
    // Unparseable but correctly signed.
    const ts = String(Math.floor(Date.now() / 1000));
    const junk = '{not json';
    await expectRejected({ 'x-merpay-timestamp': ts, 'x-merpay-signature': sign(CREDS.webhookSecret, ts, junk) }, junk, 400);
    // The payment is still 'created': a genuine cancel event for it contradicts the API.
    await expectRejected(good.headers, good.rawBody, 422);
  });

  it('rejects correctly signed events the API contradicts (re-fetch before trusting)', async () => {
    const { start, req } = await started(800);
    const signed = (body: unknown) => {
      const rawBody = JSON.stringify(body);
      const ts = String(Math.floor(Date.now() / 1000));
      return { headers: hdrs({ 'x-merpay-timestamp': ts, 'x-merpay-signature': sign(CREDS.webhookSecret, ts, rawBody) }), rawBody };
    };
    const base = { id: 'evt_manual1', type: 'payment.captured', created_at: new Date().toISOString(), data: { payment_id: start.providerRef, merchant_payment_id: req.orderId, status: 'captured', amount: 800 } };
    const rejectedWith = async (body: unknown, status: number) => {
      const error = await merpay.verifyWebhook(signed(body)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookRejected);
      expect((error as WebhookRejected).status).toBe(status);
    };
    await rejectedWith(base, 422); // says captured, API says created
    await rejectedWith({ ...base, type: 'payment.authorized', data: { ...base.data, payment_id: 'mpay_doesnotexist' } }, 404);
    await rejectedWith({ ...base, type: 'payment.authorized', data: { ...base.data, merchant_payment_id: randomUUID() } }, 422);
    await rejectedWith({ ...base, type: 'payment.authorized', data: { ...base.data, amount: 1 } }, 422);
    await rejectedWith({ ...base, type: 'payment.teleported' }, 422);
    // The same claim once the payment really is authorised passes.
    await standin.approve(start.providerRef);
    const [event] = await merpay.verifyWebhook(signed({ ...base, type: 'payment.authorized' }));
    expect(event).toMatchObject({ eventId: 'evt_manual1', orderId: req.orderId, providerRef: start.providerRef, hint: 'paid' });
  });

  it('delivers signed webhooks over HTTP to the shop endpoint', async () => {
    const received: { body: string; headers: Headers }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
        received.push({ body, headers });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/merpay`;
    const withHooks = await startMerpayStandin({ port: 0, ...CREDS, webhookUrl: hookUrl });
    try {
      const adapter = createMerpayProvider({ apiBase: withHooks.url, ...CREDS });
      const req = checkoutRequest(500);
      const start = await adapter.createCheckout(req);
      await withHooks.approve(start.providerRef);
      expect(received).toHaveLength(1);
      const [event] = await adapter.verifyWebhook({ headers: received[0].headers, rawBody: received[0].body });
      expect(event).toMatchObject({ type: 'payment.authorized', orderId: req.orderId, providerRef: start.providerRef, hint: 'paid' });
      expect(await adapter.fetchPayment({ orderId: req.orderId, providerRef: start.providerRef, amountJpy: 500 })).toEqual({ status: 'paid', amountJpy: 500, providerPaymentId: start.providerRef });
    } finally {
      await withHooks.close();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
    // The capture's webhook was delivered before close() returned.
    expect(received.map((r) => JSON.parse(r.body).type)).toEqual(['payment.authorized', 'payment.captured']);
  });
});

describe('merpay credentials and errors', () => {
  it('the stand-in refuses wrong credentials with the error shape the adapter reads', async () => {
    const response = await fetch(`${standin.url}/v1/payments/mpay_x`, { headers: { Authorization: 'Bearer wrong', 'X-Merpay-Merchant-Id': CREDS.merchantId } });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
    const wrongMerchant = createMerpayProvider({ apiBase: standin.url, ...CREDS, merchantId: 'mch_other' });
    const error = await wrongMerchant.createCheckout(checkoutRequest(100)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(false);
    expect((error as Error).message).toContain('401');
  });

  it('an unreachable API is a retryable ProviderError', async () => {
    const dead = createMerpayProvider({ apiBase: 'http://127.0.0.1:1', ...CREDS, timeoutMs: 2000 });
    const error = await dead.fetchPayment({ orderId: 'o', providerRef: 'mpay_abc', amountJpy: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(true);
  });
});

function sign(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}
