// PayPay adapter against the local PayPay stand-in: the official SDK signs real OPA-Auth requests over TLS.
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayPayProvider } from './paypay';
import { ProviderError, WebhookRejected, type PaymentProvider } from '../types';
import { startPayPayStandin, type PayPayStandin } from '#devtools/standins/paypay';

const API_KEY = 'a_test_key_paypay';
const API_SECRET = 'test-secret-for-paypay-standin';
const MERCHANT_ID = '123456789012345678';

let standin: PayPayStandin;
let provider: PaymentProvider;
let hooks: Server;
let hookUrl: string;
const received: string[] = [];

beforeAll(async () => {
  hooks = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push(body);
      res.writeHead(200).end('OK');
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/api/webhooks/paypay`;
  standin = await startPayPayStandin({
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    merchantId: MERCHANT_ID,
    webhookUrl: hookUrl,
  });
  provider = createPayPayProvider({
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    merchantId: MERCHANT_ID,
    baseUrl: standin.url,
    trustedCaPem: standin.caPem,
  });
});

afterAll(async () => {
  await standin?.close();
  await new Promise<void>((resolve) => (hooks ? hooks.close(() => resolve()) : resolve()));
});

function checkout(amountJpy = 1000, description = 'コイン 1,000枚（+50ボーナス）') {
  const orderId = randomUUID();
  return {
    orderId,
    amountJpy,
    description,
    memberId: 'member-1',
    email: null,
    returnUrl: `http://shop.test/shop/backfrompaypay?order=${orderId}`,
    cancelUrl: `http://shop.test/shop?order=${orderId}`,
    webhookUrl: hookUrl,
  };
}

async function started(amountJpy = 1000, description?: string) {
  const request = checkout(amountJpy, description);
  const start = await provider.createCheckout(request);
  return { request, start, ref: { orderId: request.orderId, providerRef: start.providerRef, amountJpy } };
}

/** Waits for the webhook PayPay's stand-in delivered for this order in the given state. */
async function deliveredFor(orderId: string, state: string): Promise<string> {
  const find = () => received.find((b) => JSON.parse(b).merchant_order_id === orderId && JSON.parse(b).state === state);
  await expect.poll(find).toBeDefined();
  return find()!;
}

const webhook = (rawBody: string) => ({ headers: new Headers({ 'content-type': 'application/json' }), rawBody });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** Signs a request the way PayPay documents OPA-Auth, independently of the SDK. */
function opaAuth(opts: {
  method: string;
  path: string;
  body: string;
  key?: string;
  secret?: string;
  epoch?: number;
  contentType?: string;
}) {
  const epoch = String(opts.epoch ?? Math.floor(Date.now() / 1000));
  const nonce = randomUUID().slice(0, 8);
  const contentType = opts.body ? (opts.contentType ?? 'application/json') : 'empty';
  const hash = opts.body ? createHash('md5').update(contentType).update(opts.body).digest('base64') : 'empty';
  const mac = createHmac('sha256', opts.secret ?? API_SECRET)
    .update([opts.path, opts.method, nonce, epoch, contentType, hash].join('\n'))
    .digest('base64');
  return `hmac OPA-Auth:${opts.key ?? API_KEY}:${mac}:${nonce}:${epoch}:${hash}`;
}

function raw(
  method: string,
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; json: any }> {
  const url = new URL(path, standin.url);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { hostname: url.hostname, port: url.port, path: url.pathname, method, headers, ca: standin.caPem },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

describe('PayPay adapter with the stand-in', () => {
  it('creates a code whose hosted page shows the order (escaped) and can be paid through the form', async () => {
    const { request, start, ref } = await started(1500, 'コイン <b>1,500枚</b> & "特典"');
    expect(start.providerRef).toMatch(/^04-/);
    expect(start.redirectUrl).toBe(`${standin.cashierUrl}/cashier/${start.providerRef}`);
    expect(standin.getPayment(request.orderId)).toMatchObject({
      amount: 1500,
      status: 'CREATED',
      redirectUrl: request.returnUrl,
    });

    const page = await fetch(start.redirectUrl);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('1,500円');
    expect(html).toContain('お支払いを承認');
    expect(html).toContain('コイン &#60;b&#62;1,500枚&#60;/b&#62; &#38; &#34;特典&#34;');
    expect(html).not.toContain('<b>1,500枚</b>');
    expect(await provider.fetchPayment(ref)).toEqual({ status: 'pending' });

    const approved = await fetch(start.redirectUrl, {
      method: 'POST',
      body: new URLSearchParams({ action: 'approve' }),
      redirect: 'manual',
    });
    expect(approved.status).toBe(303);
    // PayPay sends the member back to redirectUrl exactly as given.
    expect(approved.headers.get('location')).toBe(request.returnUrl);

    const paid = await provider.fetchPayment(ref, new URLSearchParams({ order: request.orderId }));
    expect(paid).toEqual({
      status: 'paid',
      amountJpy: 1500,
      providerPaymentId: standin.getPayment(request.orderId)!.paymentId,
    });

    const body = await deliveredFor(request.orderId, 'COMPLETED');
    expect(JSON.parse(body)).toMatchObject({
      notification_type: 'Transaction',
      merchant_id: MERCHANT_ID,
      state: 'COMPLETED',
      order_amount: 1500,
    });
    const events = await provider.verifyWebhook(webhook(body));
    expect(events).toEqual([
      {
        eventId: `paypay:${paid.status === 'paid' ? paid.providerPaymentId : ''}:COMPLETED`,
        type: 'Transaction.COMPLETED',
        orderId: request.orderId,
        providerRef: null,
        hint: 'paid',
      },
    ]);

    // A paid code cannot be paid twice.
    const again = await fetch(start.redirectUrl, {
      method: 'POST',
      body: new URLSearchParams({ action: 'approve' }),
      redirect: 'manual',
    });
    expect(again.status).toBe(409);
  });

  it('a payment approved without a browser is paid with the right amount and its webhook verifies', async () => {
    const { request, ref } = await started(3000);
    const payment = await standin.approve(request.orderId);
    expect(await provider.fetchPayment(ref)).toEqual({
      status: 'paid',
      amountJpy: 3000,
      providerPaymentId: payment.paymentId,
    });
    const [event] = await provider.verifyWebhook(webhook(standin.webhookBody(request.orderId)));
    expect(event).toMatchObject({ orderId: request.orderId, hint: 'paid', type: 'Transaction.COMPLETED' });
    // A redelivery is the same event.
    const [again] = await provider.verifyWebhook(webhook(standin.webhookBody(request.orderId)));
    expect(again!.eventId).toBe(event!.eventId);
  });

  it('a declined payment is failed, with a verified FAILED webhook', async () => {
    const { request, start, ref } = await started(800);
    const declined = await fetch(start.redirectUrl, {
      method: 'POST',
      body: new URLSearchParams({ action: 'decline' }),
      redirect: 'manual',
    });
    expect(declined.status).toBe(303);
    expect(declined.headers.get('location')).toBe(request.returnUrl);
    expect(await provider.fetchPayment(ref)).toEqual({ status: 'failed', reason: expect.any(String) });
    const body = await deliveredFor(request.orderId, 'FAILED');
    const [event] = await provider.verifyWebhook(webhook(body));
    expect(event).toMatchObject({ orderId: request.orderId, hint: 'failed', type: 'Transaction.FAILED' });
  });

  it("the member's キャンセル returns to the shop and leaves the payment pending", async () => {
    const { request, start, ref } = await started(500);
    const res = await fetch(start.redirectUrl, {
      method: 'POST',
      body: new URLSearchParams({ action: 'cancel' }),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(request.returnUrl);
    expect(await provider.fetchPayment(ref)).toEqual({ status: 'pending' });
  });

  it('cancel deletes an unpaid code (idempotently) and the payment reads canceled', async () => {
    const { request, start, ref } = await started(700);
    await provider.cancel(ref);
    expect(standin.getPayment(request.orderId)).toMatchObject({ codeDeleted: true, status: 'CANCELED' });
    expect(await provider.fetchPayment(ref)).toEqual({ status: 'canceled' });
    await provider.cancel(ref);
    expect(await provider.fetchPayment(ref)).toEqual({ status: 'canceled' });
    const page = await fetch(start.redirectUrl);
    expect(page.status).toBe(410);
    await expect(standin.approve(request.orderId)).rejects.toThrow();
  });

  it('cancel returns the money of a payment that completed in a race, and the CANCELED webhook verifies', async () => {
    const { request, ref } = await started(1200);
    await standin.approve(request.orderId);
    await provider.cancel(ref);
    expect(await provider.fetchPayment(ref)).toEqual({ status: 'canceled' });
    const body = await deliveredFor(request.orderId, 'CANCELED');
    expect(JSON.parse(body).state).toBe('CANCELED');
    const [event] = await provider.verifyWebhook(webhook(body));
    expect(event).toMatchObject({ hint: 'canceled', orderId: request.orderId });
  });

  it('cancel refuses to pretend when the money cannot be returned any more (refund instead)', async () => {
    const { request, ref } = await started(900);
    await standin.approve(request.orderId);
    standin.refund(request.orderId, 100);
    const error = await rejection(provider.cancel(ref));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(false);
  });

  it('refunds fully, and a retried refund is not paid out twice', async () => {
    const { request, ref } = await started(2000);
    const payment = await standin.approve(request.orderId);
    const paidRef = { ...ref, providerPaymentId: payment.paymentId! };
    await provider.refund(paidRef, 2000, '運営による返金');
    expect(await provider.fetchPayment(ref)).toEqual({
      status: 'refunded',
      amountJpy: 2000,
      refundedJpy: 2000,
      providerPaymentId: payment.paymentId,
    });
    await provider.refund(paidRef, 2000, '運営による返金');
    expect(standin.getPayment(request.orderId)!.refunds).toHaveLength(1);
    expect(standin.getPayment(request.orderId)!.status).toBe('REFUNDED');
  });

  it('refunds in part and refuses a refund above the refundable amount', async () => {
    const { request, ref } = await started(5000);
    const payment = await standin.approve(request.orderId);
    const paidRef = { ...ref, providerPaymentId: payment.paymentId! };
    await provider.refund(paidRef, 1200, '一部返金');
    expect(await provider.fetchPayment(ref)).toEqual({
      status: 'refunded',
      amountJpy: 5000,
      refundedJpy: 1200,
      providerPaymentId: payment.paymentId,
    });
    const error = await rejection(provider.refund(paidRef, 4000, '多すぎる返金'));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(false);
    expect(standin.getPayment(request.orderId)!.refunds.map((r) => r.amount)).toEqual([1200]);
  });

  it('refuses a second checkout for the same order', async () => {
    const request = checkout(1000);
    await provider.createCheckout(request);
    const error = await rejection(provider.createCheckout(request));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(false);
  });
});

describe('PayPay webhook confirmation (PayPay does not sign webhooks)', () => {
  async function paidOrder(amountJpy = 1000) {
    const { request, ref } = await started(amountJpy);
    await standin.approve(request.orderId);
    return { orderId: request.orderId, ref };
  }

  async function rejected(rawBody: string, adapter: PaymentProvider = provider) {
    const error = await rejection(adapter.verifyWebhook(webhook(rawBody)));
    expect(error).toBeInstanceOf(WebhookRejected);
    return (error as WebhookRejected).status;
  }

  it('rejects a tampered amount', async () => {
    const { orderId } = await paidOrder(1000);
    expect(await rejected(standin.webhookBody(orderId, { order_amount: 100000 }))).toBe(422);
    expect(await rejected(standin.webhookBody(orderId, { order_amount: '999' }))).toBe(422);
  });

  it('rejects an event whose payment does not exist at PayPay', async () => {
    const { orderId } = await paidOrder(1000);
    expect(await rejected(standin.webhookBody(orderId, { merchant_order_id: randomUUID() }))).toBe(404);
  });

  it('rejects a state PayPay does not report (forged COMPLETED for an unpaid code)', async () => {
    const { request } = await started(1000);
    const forged = JSON.stringify({
      notification_type: 'Transaction',
      merchant_id: MERCHANT_ID,
      order_id: '12345678901234567890',
      merchant_order_id: request.orderId,
      state: 'COMPLETED',
      order_amount: 1000,
      paid_at: new Date().toISOString(),
    });
    expect(await rejected(forged)).toBe(422);
    const { orderId } = await paidOrder(1000);
    expect(await rejected(standin.webhookBody(orderId, { state: 'CANCELED' }))).toBe(422);
  });

  it("rejects another merchant's event, a foreign order_id, other notification types and junk", async () => {
    const { orderId } = await paidOrder(1000);
    expect(await rejected(standin.webhookBody(orderId, { merchant_id: '999999999999999999' }))).toBe(403);
    expect(await rejected(standin.webhookBody(orderId, { order_id: '99999999999999999999' }))).toBe(422);
    expect(await rejected(standin.webhookBody(orderId, { notification_type: 'Customer' }))).toBe(422);
    expect(await rejected('{"notification_type":"Transaction",')).toBe(400);
    expect(await rejected('')).toBe(400);
    expect(await rejected('[]')).toBe(400);
    expect(await rejected(standin.webhookBody(orderId, { merchant_order_id: '../../v2/refunds/x' }))).toBe(400);
    expect(await rejected(standin.webhookBody(orderId, { state: undefined }))).toBe(400);
  });

  it('cannot confirm anything with a wrong API secret', async () => {
    const { orderId } = await paidOrder(1000);
    const wrong = createPayPayProvider({
      apiKey: API_KEY,
      apiSecret: 'not-the-secret',
      merchantId: MERCHANT_ID,
      baseUrl: standin.url,
      trustedCaPem: standin.caPem,
    });
    const error = await rejection(wrong.verifyWebhook(webhook(standin.webhookBody(orderId))));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).cause).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });
});

describe('PayPay stand-in authentication', () => {
  it('refuses wrong credentials with PayPay UNAUTHORIZED', async () => {
    for (const options of [
      { apiKey: API_KEY, apiSecret: 'wrong-secret', merchantId: MERCHANT_ID },
      { apiKey: 'wrong-key', apiSecret: API_SECRET, merchantId: MERCHANT_ID },
      { apiKey: API_KEY, apiSecret: API_SECRET, merchantId: '000000000000000000' },
    ]) {
      const wrong = createPayPayProvider({ ...options, baseUrl: standin.url, trustedCaPem: standin.caPem });
      const error = await rejection(wrong.createCheckout(checkout()));
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).retryable).toBe(false);
      expect((error as ProviderError).cause).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    }
  });

  it('checks the OPA-Auth HMAC: body hash, epoch window and header presence', async () => {
    const body = JSON.stringify({
      merchantPaymentId: randomUUID(),
      amount: { amount: 100, currency: 'JPY' },
      codeType: 'ORDER_QR',
      redirectType: 'WEB_LINK',
      redirectUrl: 'http://shop.test/back',
      requestedAt: Math.floor(Date.now() / 1000),
    });
    const base = { 'content-type': 'application/json', 'x-assume-merchant': MERCHANT_ID };

    const good = await raw('POST', '/v2/codes', body, {
      ...base,
      authorization: opaAuth({ method: 'POST', path: '/v2/codes', body }),
    });
    expect(good.status).toBe(201);
    expect(good.json.resultInfo.code).toBe('SUCCESS');

    const tampered = body.replace('"amount":100', '"amount":1');
    const signedForOther = opaAuth({ method: 'POST', path: '/v2/codes', body });
    const bad = await raw('POST', '/v2/codes', tampered, { ...base, authorization: signedForOther });
    expect(bad).toMatchObject({ status: 401, json: { resultInfo: { code: 'UNAUTHORIZED' } } });

    const stale = await raw('POST', '/v2/codes', body, {
      ...base,
      authorization: opaAuth({ method: 'POST', path: '/v2/codes', body, epoch: Math.floor(Date.now() / 1000) - 300 }),
    });
    expect(stale).toMatchObject({ status: 401, json: { resultInfo: { code: 'UNAUTHORIZED' } } });

    const missing = await raw('GET', '/v2/codes/payments/whatever', '', { 'x-assume-merchant': MERCHANT_ID });
    expect(missing).toMatchObject({ status: 401, json: { resultInfo: { code: 'UNAUTHORIZED' } } });

    // A signature for one path does not open another.
    const otherPath = await raw('GET', '/v2/codes/payments/abc', '', {
      'x-assume-merchant': MERCHANT_ID,
      authorization: opaAuth({ method: 'GET', path: '/v2/codes/payments/xyz', body: '' }),
    });
    expect(otherPath.status).toBe(401);
  });

  it('trusts the self-signed certificate only when told to (no global TLS switch)', async () => {
    const untrusting = createPayPayProvider({
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      merchantId: MERCHANT_ID,
      baseUrl: standin.url,
    });
    const error = await rejection(untrusting.createCheckout(checkout()));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(true);
    expect((error as Error).message).toMatch(/certificate/i);
  });

  it('reports an unreachable PayPay as retryable', async () => {
    const closed = await startPayPayStandin({ apiKey: API_KEY, apiSecret: API_SECRET, merchantId: MERCHANT_ID });
    const url = closed.url;
    const ca = closed.caPem;
    await closed.close();
    const gone = createPayPayProvider({
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      merchantId: MERCHANT_ID,
      baseUrl: url,
      trustedCaPem: ca,
    });
    const error = await rejection(gone.fetchPayment({ orderId: randomUUID(), providerRef: '04-x', amountJpy: 1 }));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(true);
  });
});
