// Paidy adapter against the Paidy stand-in over real HTTP: widget flow, capture, close, refund and webhook proof by re-reading.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaidyProvider } from './paidy';
import { ProviderError, WebhookRejected } from '../types';
import type { CheckoutRequest, OrderRef, PaymentProvider } from '../types';
import { startPaidyStandin } from '#devtools/standins/paidy';
import type { PaidyStandin } from '#devtools/standins/paidy';

const SECRET = 'sk_test_standin_secret';
const SHOP = 'https://shop.example.jp';

let standin: PaidyStandin;
let paidy: PaymentProvider;

beforeAll(async () => {
  standin = await startPaidyStandin({ port: 0, secretKey: SECRET });
  paidy = createPaidyProvider({ secretKey: SECRET, apiBase: standin.url, widgetBase: standin.url });
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
    email: 'member@example.jp',
    returnUrl: `${SHOP}/shop/backfrom/paidy?order=${orderId}`,
    cancelUrl: `${SHOP}/shop/checkout?order=${orderId}&canceled=1`,
    webhookUrl: `${SHOP}/api/webhooks/paidy`,
  };
}

/** Walks the stand-in's checkout page like a browser: GET the page, POST the form with one button. */
async function walkWidget(
  redirectUrl: string,
  action: 'approve' | 'decline' | 'cancel',
  tamper?: Record<string, string>,
) {
  const pageResponse = await fetch(redirectUrl);
  expect(pageResponse.status).toBe(200);
  const html = await pageResponse.text();
  const fields = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields.set(m[1], unescapeHtml(m[2]));
  for (const [k, v] of Object.entries(tamper ?? {})) fields.set(k, v);
  fields.set('action', action);
  const action_ = /<form method="post" action="([^"]+)">/.exec(html)?.[1] ?? '';
  const posted = await fetch(new URL(action_, redirectUrl), { method: 'POST', body: fields, redirect: 'manual' });
  expect(posted.status).toBe(303);
  return { html, location: new URL(posted.headers.get('location') ?? '') };
}

function unescapeHtml(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

async function paidOrder(amountJpy = 1000) {
  const req = checkoutRequest(amountJpy);
  const start = await paidy.createCheckout(req);
  const { location } = await walkWidget(start.redirectUrl, 'approve');
  const order: OrderRef = { orderId: req.orderId, providerRef: start.providerRef, amountJpy };
  const result = await paidy.fetchPayment(order, location.searchParams);
  if (result.status !== 'paid') throw new Error(`expected paid, got ${result.status}`);
  return { req, order: { ...order, providerRef: result.providerPaymentId }, paymentId: result.providerPaymentId };
}

describe('paidy checkout', () => {
  it('sends the member to the widget page with a pending providerRef', async () => {
    const req = checkoutRequest(1500);
    const start = await paidy.createCheckout(req);
    expect(start.providerRef).toBe(`pending:${req.orderId}`);
    const url = new URL(start.redirectUrl);
    expect(url.origin).toBe(new URL(standin.url).origin);
    expect(url.pathname).toBe('/shop/checkout/paidy/widget');
    expect(url.searchParams.get('order')).toBe(req.orderId);
    expect(url.searchParams.get('amount')).toBe('1500');
    // In production the widget page is the shop's own.
    const prod = await createPaidyProvider({ secretKey: SECRET }).createCheckout(req);
    expect(new URL(prod.redirectUrl).origin).toBe(SHOP);
  });

  it('approves, returns with payment_id, and fetchPayment captures once', async () => {
    const req = checkoutRequest(1000, '<script>alert("x")</script> コイン');
    const start = await paidy.createCheckout(req);
    const { html, location } = await walkWidget(start.redirectUrl, 'approve');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('お支払いを承認');
    expect(`${location.origin}${location.pathname}`).toBe(`${SHOP}/shop/backfrom/paidy`);
    expect(location.searchParams.get('order')).toBe(req.orderId);
    expect(location.searchParams.get('status')).toBe('authorized');
    const paymentId = location.searchParams.get('payment_id') ?? '';
    expect(paymentId).toMatch(/^pay_/);
    expect(standin.getPayment(paymentId)?.status).toBe('authorized');

    const order: OrderRef = { orderId: req.orderId, providerRef: start.providerRef, amountJpy: 1000 };
    const first = await paidy.fetchPayment(order, location.searchParams);
    expect(first).toEqual({ status: 'paid', amountJpy: 1000, providerPaymentId: paymentId });
    const stored = standin.getPayment(paymentId);
    expect(stored?.status).toBe('closed');
    expect(stored?.captures).toHaveLength(1);
    expect(stored?.order.order_ref).toBe(req.orderId);

    // Return page and webhook both ask again: still paid, no second capture.
    const again = await paidy.fetchPayment({ ...order, providerRef: paymentId });
    expect(again).toEqual(first);
    expect(standin.getPayment(paymentId)?.captures).toHaveLength(1);
  });

  it('reports a declined payment as failed', async () => {
    const req = checkoutRequest(2000);
    const start = await paidy.createCheckout(req);
    const { location } = await walkWidget(start.redirectUrl, 'decline');
    expect(location.searchParams.get('status')).toBe('rejected');
    const result = await paidy.fetchPayment(
      { orderId: req.orderId, providerRef: start.providerRef, amountJpy: 2000 },
      location.searchParams,
    );
    expect(result.status).toBe('failed');
  });

  it('sends a member who closes the widget to the cancel URL; the order stays pending', async () => {
    const req = checkoutRequest(3000);
    const start = await paidy.createCheckout(req);
    const { location } = await walkWidget(start.redirectUrl, 'cancel');
    expect(location.toString()).toContain(`${SHOP}/shop/checkout`);
    expect(location.searchParams.get('status')).toBe('closed');
    expect(location.searchParams.get('payment_id')).toBeNull();
    const order: OrderRef = { orderId: req.orderId, providerRef: start.providerRef, amountJpy: 3000 };
    expect(await paidy.fetchPayment(order, location.searchParams)).toEqual({ status: 'pending' });
    // Nothing exists at Paidy to close.
    await expect(paidy.cancel(order)).resolves.toBeUndefined();
  });

  it('cancel closes an authorised payment, idempotently, and fetchPayment says canceled', async () => {
    const orderId = randomUUID();
    const payment = await standin.authorize({ orderId, amountJpy: 800 });
    const order: OrderRef = { orderId, providerRef: payment.id, amountJpy: 800 };
    await paidy.cancel(order);
    expect(standin.getPayment(payment.id)?.status).toBe('closed');
    await paidy.cancel(order);
    expect(await paidy.fetchPayment(order)).toEqual({ status: 'canceled' });
    expect(standin.getPayment(payment.id)?.captures).toHaveLength(0);
  });

  it('an expired authorisation reads as canceled', async () => {
    const orderId = randomUUID();
    const payment = await standin.authorize({ orderId, amountJpy: 500 });
    await standin.expire(payment.id);
    expect(await paidy.fetchPayment({ orderId, providerRef: payment.id, amountJpy: 500 })).toEqual({
      status: 'canceled',
    });
  });

  it('releases instead of capturing a payment whose amount was altered in the browser', async () => {
    const req = checkoutRequest(5000);
    const start = await paidy.createCheckout(req);
    const { location } = await walkWidget(start.redirectUrl, 'approve', { amount: '50' });
    const paymentId = location.searchParams.get('payment_id') ?? '';
    expect(standin.getPayment(paymentId)?.amount).toBe(50);
    const result = await paidy.fetchPayment(
      { orderId: req.orderId, providerRef: start.providerRef, amountJpy: 5000 },
      location.searchParams,
    );
    expect(result.status).toBe('failed');
    const stored = standin.getPayment(paymentId);
    expect(stored?.status).toBe('closed');
    expect(stored?.captures).toHaveLength(0);
  });

  it('refuses a payment_id that belongs to another order, without touching it', async () => {
    const other = await standin.authorize({ orderId: randomUUID(), amountJpy: 1000 });
    const mine: OrderRef = { orderId: randomUUID(), providerRef: 'pending:x', amountJpy: 1000 };
    const error = await paidy
      .fetchPayment(mine, new URLSearchParams({ payment_id: other.id }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(false);
    expect(standin.getPayment(other.id)?.status).toBe('authorized');
    await expect(paidy.fetchPayment(mine, new URLSearchParams({ payment_id: '../payments/x' }))).rejects.toBeInstanceOf(
      ProviderError,
    );
  });
});

describe('paidy refund', () => {
  it('refunds part, then the rest; a repeated call with the same amount does not refund twice', async () => {
    const { order, paymentId } = await paidOrder(1000);
    await paidy.refund({ ...order, providerPaymentId: paymentId }, 300, '一部返金');
    expect(await paidy.fetchPayment(order)).toEqual({
      status: 'refunded',
      amountJpy: 1000,
      refundedJpy: 300,
      providerPaymentId: paymentId,
    });
    await paidy.refund({ ...order, providerPaymentId: paymentId }, 300, '一部返金');
    expect(standin.getPayment(paymentId)?.refunds).toHaveLength(1);
    await expect(paidy.refund({ ...order, providerPaymentId: paymentId }, 800, '多すぎる')).rejects.toBeInstanceOf(
      ProviderError,
    );
    await paidy.refund({ ...order, providerPaymentId: paymentId }, 700, '残り');
    expect(await paidy.fetchPayment(order)).toEqual({
      status: 'refunded',
      amountJpy: 1000,
      refundedJpy: 1000,
      providerPaymentId: paymentId,
    });
  });

  it('cannot cancel a captured payment', async () => {
    const { order } = await paidOrder(400);
    await expect(paidy.cancel(order)).rejects.toBeInstanceOf(ProviderError);
  });
});

describe('paidy webhooks', () => {
  it('accepts genuine events and maps their hints', async () => {
    const { req, paymentId } = await paidOrder(1200);
    await standin.refund(paymentId, 200, '管理画面から返金');
    const mine = standin.webhooks.filter((w) => JSON.parse(w.rawBody).payment_id === paymentId);
    expect(mine.map((w) => JSON.parse(w.rawBody).status)).toEqual([
      'authorize_success',
      'capture_success',
      'refund_success',
    ]);
    const events = [];
    for (const w of mine)
      events.push(...(await paidy.verifyWebhook({ headers: new Headers(w.headers), rawBody: w.rawBody })));
    expect(events.map((e) => e.hint)).toEqual(['paid', 'paid', 'refunded']);
    for (const e of events) {
      expect(e.orderId).toBe(req.orderId);
      expect(e.providerRef).toBe(paymentId);
    }
    expect(new Set(events.map((e) => e.eventId)).size).toBe(3);
    // A redelivery of the same event has the same id.
    const resent = await paidy.verifyWebhook({ headers: new Headers(mine[0].headers), rawBody: mine[0].rawBody });
    expect(resent[0].eventId).toBe(events[0].eventId);
  });

  it('rejects forged, tampered and unparseable events', async () => {
    const orderId = randomUUID();
    const payment = await standin.authorize({ orderId, amountJpy: 900 });
    const genuine = JSON.parse(standin.webhooks.at(-1)!.rawBody) as Record<string, unknown>;
    expect(genuine.status).toBe('authorize_success');
    const verify = (body: unknown) =>
      paidy.verifyWebhook({
        headers: new Headers({ 'content-type': 'application/json' }),
        rawBody: typeof body === 'string' ? body : JSON.stringify(body),
      });
    const rejected = async (body: unknown, status: number) => {
      const error = await verify(body).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookRejected);
      expect((error as WebhookRejected).status).toBe(status);
    };
    await rejected('{not json', 400);
    await rejected({ ...genuine, payment_id: undefined }, 400);
    await rejected({ ...genuine, payment_id: 'pay_doesnotexist123' }, 404);
    await rejected({ ...genuine, order_ref: randomUUID() }, 422);
    await rejected({ ...genuine, status: 'capture_success' }, 422);
    await rejected({ ...genuine, status: 'refund_success' }, 422);
    await rejected({ ...genuine, status: 'close_success' }, 422);
    await rejected({ ...genuine, status: 'made_up' }, 422);
    // The genuine one still passes.
    const [event] = await verify(genuine);
    expect(event).toMatchObject({ orderId, providerRef: payment.id, hint: 'paid', type: 'authorize_success' });
  });

  it('delivers webhooks over HTTP to the shop endpoint', async () => {
    const received: { body: string; headers: Record<string, string | string[] | undefined> }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        received.push({ body, headers: req.headers });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/paidy`;
    const withHooks = await startPaidyStandin({ port: 0, secretKey: SECRET, webhookUrl: hookUrl });
    try {
      const adapter = createPaidyProvider({ secretKey: SECRET, apiBase: withHooks.url, widgetBase: withHooks.url });
      const orderId = randomUUID();
      const payment = await withHooks.authorize({ orderId, amountJpy: 700 });
      expect(withHooks.webhooks.at(-1)?.deliveredStatus).toBe(200);
      expect(received).toHaveLength(1);
      expect(received[0].headers['content-type']).toBe('application/json');
      const [event] = await adapter.verifyWebhook({
        headers: new Headers({ 'content-type': 'application/json' }),
        rawBody: received[0].body,
      });
      expect(event).toMatchObject({ orderId, providerRef: payment.id, hint: 'paid' });
      // The webhook processor hands the event's payment id to fetchPayment, which captures.
      const result = await adapter.fetchPayment(
        { orderId, providerRef: `pending:${orderId}`, amountJpy: 700 },
        new URLSearchParams({ payment_id: event.providerRef ?? '' }),
      );
      expect(result).toEqual({ status: 'paid', amountJpy: 700, providerPaymentId: payment.id });
    } finally {
      await withHooks.close();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});

describe('paidy credentials and errors', () => {
  it('the stand-in refuses a wrong secret key with Paidy’s error shape', async () => {
    const payment = await standin.authorize({ orderId: randomUUID(), amountJpy: 100 });
    const response = await fetch(`${standin.url}/payments/${payment.id}`, {
      headers: { Authorization: 'Bearer sk_test_wrong', 'Paidy-Version': '2018-04-10' },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ status: 401, code: 'authentication.failed' });
    const noAuth = await fetch(`${standin.url}/payments/${payment.id}`);
    expect(noAuth.status).toBe(401);

    const wrong = createPaidyProvider({ secretKey: 'sk_test_wrong', apiBase: standin.url });
    const error = await wrong
      .fetchPayment({ orderId: payment.order.order_ref, providerRef: payment.id, amountJpy: 100 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(false);
    expect(standin.getPayment(payment.id)?.status).toBe('authorized');
  });

  it('an unreachable API is a retryable ProviderError', async () => {
    const dead = createPaidyProvider({ secretKey: SECRET, apiBase: 'http://127.0.0.1:1', timeoutMs: 2000 });
    const error = await dead
      .fetchPayment({ orderId: 'o', providerRef: 'pay_abc', amountJpy: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(true);
  });
});
