// Merpay adapter against the Merpay stand-in over real HTTP: OAuth2 tokens, transaction:create/capture/cancel/refund, batchGet, and the confirm/completion callbacks proven with the API.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callbackToken, createMerpayProvider } from './merpay';
import { ProviderError, WebhookRejected } from '../types';
import type { CheckoutRequest, OrderRef, PaymentProvider, VerifiedWebhookEvent } from '../types';
import { startMerpayStandin } from '#devtools/standins/merpay';
import type { MerpayStandin } from '#devtools/standins/merpay';

const CREDS = { clientId: 'merpay-test-client', clientSecret: 'merpay-test-secret-0123456789' };
const SHOP = 'https://shop.example.jp';

let standin: MerpayStandin;
let merpay: PaymentProvider;

// The shop's /api/webhooks/merpay, as server/payments.ts answers it: the event's reply, or the rejection's status.
let shopMode: 'verify' | 'refuse' = 'verify';
const deliveries: { kind: string | null; status: number; events: VerifiedWebhookEvent[]; body: string }[] = [];
const receiver = createServer((req, res) => {
  let rawBody = '';
  req.on('data', (chunk: Buffer) => (rawBody += chunk.toString('utf8')));
  req.on('end', async () => {
    const kind = new URL(req.url ?? '/', 'http://x').searchParams.get('kind');
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    let status = 200;
    let answer: unknown;
    let events: VerifiedWebhookEvent[] = [];
    if (shopMode === 'refuse') {
      status = 422;
      answer = { error: { code: 'WEBHOOK_REJECTED' } };
    } else {
      try {
        events = await merpay.verifyWebhook({ url: `http://127.0.0.1${req.url}`, headers, rawBody });
        status = events[0]?.reply?.status ?? 200;
        answer = events[0]?.reply ? events[0].reply.json : { received: events.length };
      } catch (error) {
        status = error instanceof WebhookRejected ? error.status : 500;
        answer = { error: { code: 'WEBHOOK_REJECTED' } };
      }
    }
    deliveries.push({ kind, status, events, body: rawBody });
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
});
let webhookUrl = '';

beforeAll(async () => {
  standin = await startMerpayStandin({ port: 0, ...CREDS });
  merpay = createMerpayProvider({ apiBase: standin.url, authBase: standin.url, ...CREDS });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/merpay`;
});

afterAll(async () => {
  await standin.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

afterEach(() => {
  shopMode = 'verify';
});

function checkoutRequest(amountJpy = 1000, description = 'コイン 1,000枚'): CheckoutRequest {
  const orderId = randomUUID();
  const returnUrl = `${SHOP}/shop/backfrommerpay?order=${orderId}`;
  return {
    orderId,
    amountJpy,
    description,
    memberId: 'member-1',
    email: null,
    returnUrl,
    cancelUrl: `${returnUrl}&canceled=1`,
    webhookUrl,
  };
}

async function started(amountJpy = 1000, description?: string, adapter: PaymentProvider = merpay) {
  const req = checkoutRequest(amountJpy, description);
  const start = await adapter.createCheckout(req);
  const order: OrderRef = { orderId: req.orderId, providerRef: start.providerRef, amountJpy };
  return { req, start, order };
}

/** Presses one button on the hosted page the way a browser would. */
async function press(paymentUrl: string, action: 'approve' | 'decline' | 'cancel') {
  const pageResponse = await fetch(paymentUrl);
  expect(pageResponse.status).toBe(200);
  const html = await pageResponse.text();
  const formAction = /<form method="post" action="([^"]+)">/.exec(html)?.[1] ?? '';
  const transactionId = /name="transaction_id" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const posted = await fetch(new URL(formAction, paymentUrl), {
    method: 'POST',
    body: new URLSearchParams({ transaction_id: transactionId, action }),
    redirect: 'manual',
  });
  expect(posted.status).toBe(303);
  return { html, location: new URL(posted.headers.get('location') ?? '') };
}

const callbacksOf = (transactionId: string) => standin.callbacks.filter((c) => c.transactionId === transactionId);
const deliveriesOf = (transactionId: string) =>
  deliveries.filter((d) => JSON.parse(d.body).transactionId === transactionId);

async function rejection(promise: Promise<unknown>): Promise<WebhookRejected> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(WebhookRejected);
  return error as WebhookRejected;
}

async function accessToken(): Promise<string> {
  const response = await fetch(`${standin.url}/jp/v1/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${CREDS.clientId}:${CREDS.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials&scope=netpayment%3Atransaction%3Awrite',
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

describe('merpay checkout', () => {
  it('creates a transaction with the SDK request fields and hands back its paymentUrl', async () => {
    const { req, start, order } = await started(1500, 'コイン 1,500枚（+ボーナス50枚）');
    expect(start.providerRef).toMatch(/^mtx_/);
    expect(start.redirectUrl).toBe(`${standin.url}/payment?transaction_id=${start.providerRef}`);
    const stored = standin.getTransaction(start.providerRef)!;
    expect(stored.request).toEqual({
      orderId: req.orderId,
      orderName: 'コイン 1,500枚（+ボーナス50枚）',
      amount: 1500,
      useDeliveryAddress: false,
      useShippingFee: false,
      isFixedShippingFee: false,
      fixedShippingFee: 0,
      shippingFeeUrl: '',
      // The callback token rides on both URLs: only Merpay learns them.
      confirmUrl: `${webhookUrl}?kind=confirm&token=${callbackToken(CREDS.clientSecret, req.orderId, 1500)}`,
      completionUrl: `${webhookUrl}?kind=completion&token=${callbackToken(CREDS.clientSecret, req.orderId, 1500)}`,
      cancelUrl: req.cancelUrl,
      returnUrl: `${req.returnUrl}&merpay_order=${req.orderId}&merpay_amount=1500`,
      paymentContractType: 1,
      capture: false,
      items: [{ name: 'コイン 1,500枚（+ボーナス50枚）', unitPrice: 1500, quantity: 1 }],
      metadata: {},
    });
    expect(await merpay.fetchPayment(order)).toEqual({ status: 'pending' });
    // Merpay takes one transaction per orderId and the SDK has no lookup by orderId: a second create fails for good.
    const again = await merpay.createCheckout(req).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ProviderError);
    expect((again as ProviderError).retryable).toBe(false);
    expect((again as Error).message).toContain('409');
  });

  it('approve: confirm callback answered 200 {}, payment, completion callback, back to the shop; fetchPayment captures once', async () => {
    const { req, start, order } = await started(1000, '<img src=x onerror=alert(1)> コイン');
    const { html, location } = await press(start.redirectUrl, 'approve');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img src=x');
    expect(`${location.origin}${location.pathname}`).toBe(`${SHOP}/shop/backfrommerpay`);
    expect(location.searchParams.get('order')).toBe(req.orderId);

    // Merpay waited on the confirm and carried on only because the shop said yes.
    const sent = callbacksOf(start.providerRef);
    expect(sent.map((c) => [c.kind, c.status, c.answer])).toEqual([
      ['confirm', 200, '{}'],
      ['completion', 200, '{}'],
    ]);
    expect(JSON.parse(sent[0]!.body)).toEqual({
      url: `${webhookUrl}?kind=confirm&token=${callbackToken(CREDS.clientSecret, req.orderId, 1000)}`,
      transactionId: start.providerRef,
      orderId: req.orderId,
      amount: 1000,
      shippingFee: 0,
    });
    expect(JSON.parse(sent[1]!.body)).toMatchObject({
      url: `${webhookUrl}?kind=completion&token=${callbackToken(CREDS.clientSecret, req.orderId, 1000)}`,
      transactionId: start.providerRef,
      orderId: req.orderId,
      amount: 1000,
      inquiryCode: expect.any(String),
    });
    const events = deliveriesOf(start.providerRef).flatMap((d) => d.events);
    expect(events).toEqual([
      {
        eventId: `confirm:${start.providerRef}`,
        type: 'confirm',
        orderId: req.orderId,
        providerRef: start.providerRef,
        hint: 'pending',
        reply: { status: 200, json: {} },
      },
      {
        eventId: `completion:${start.providerRef}`,
        type: 'completion',
        orderId: req.orderId,
        providerRef: start.providerRef,
        hint: 'paid',
        reply: { status: 200, json: {} },
      },
    ]);
    expect(standin.getTransaction(start.providerRef)).toMatchObject({
      state: 'authorized',
      payment: { authorizedAmount: 1000, capturedAmount: 0 },
    });

    const first = await merpay.fetchPayment(order, location.searchParams);
    expect(first).toEqual({ status: 'paid', amountJpy: 1000, providerPaymentId: start.providerRef });
    expect(standin.getTransaction(start.providerRef)).toMatchObject({
      state: 'captured',
      payment: { capturedAmount: 1000 },
    });
    expect(await merpay.fetchPayment(order)).toEqual(first);
    // Return page and callback processing at once: one capture, both read paid.
    expect(await Promise.all([merpay.fetchPayment(order), merpay.fetchPayment(order)])).toEqual([first, first]);
    expect((await fetch(start.redirectUrl)).status).toBe(409);
  });

  it('capture races: two fetchPayments of an authorised payment both end paid', async () => {
    const { start, order } = await started(800);
    await standin.approve(start.providerRef);
    const results = await Promise.all([
      merpay.fetchPayment(order),
      merpay.fetchPayment(order),
      merpay.fetchPayment(order),
    ]);
    for (const r of results)
      expect(r).toEqual({ status: 'paid', amountJpy: 800, providerPaymentId: start.providerRef });
  });

  it('decline: back to the cancel URL with no callback; pending until the shop cancels it, idempotently', async () => {
    const { req, start, order } = await started(2000);
    const { location } = await press(start.redirectUrl, 'decline');
    expect(location.toString()).toBe(req.cancelUrl);
    expect(callbacksOf(start.providerRef)).toEqual([]);
    // Nothing was paid and Merpay's reads show no payment: pending, as for any unfinished checkout.
    expect(await merpay.fetchPayment(order, location.searchParams)).toEqual({ status: 'pending' });
    await merpay.cancel(order);
    expect(standin.getTransaction(start.providerRef)?.state).toBe('canceled');
    await expect(merpay.cancel(order)).resolves.toBeUndefined();
    expect((await fetch(start.redirectUrl)).status).toBe(409);
  });

  it('the member cancelling on the page lands on the cancel URL; an open checkout can be canceled by the shop', async () => {
    const a = await started(3000);
    const { location } = await press(a.start.redirectUrl, 'cancel');
    expect(location.searchParams.get('canceled')).toBe('1');
    expect(await merpay.fetchPayment(a.order)).toEqual({ status: 'pending' });
    await merpay.cancel(a.order);
    expect(standin.getTransaction(a.start.providerRef)?.state).toBe('canceled');

    // Canceled before the member acted: the page is closed, nothing can be paid any more.
    const b = await started(3000);
    await merpay.cancel(b.order);
    expect((await fetch(b.start.redirectUrl)).status).toBe(409);
    await expect(standin.approve(b.start.providerRef)).rejects.toThrow();
  });

  it('cancel of an authorised payment releases it and reads canceled', async () => {
    const { start, order } = await started(700);
    await standin.approve(start.providerRef);
    await merpay.cancel(order);
    expect(standin.getTransaction(start.providerRef)).toMatchObject({
      state: 'canceled',
      payment: { canceledAmount: 700, capturedAmount: 0 },
    });
    expect(await merpay.fetchPayment(order)).toEqual({ status: 'canceled' });
    await expect(merpay.cancel(order)).resolves.toBeUndefined();
  });

  it('a shop that refuses the confirm stops the payment before any money moves', async () => {
    shopMode = 'refuse';
    const { req, start, order } = await started(1200);
    const { location } = await press(start.redirectUrl, 'approve');
    expect(location.toString()).toBe(req.cancelUrl);
    expect(callbacksOf(start.providerRef).map((c) => [c.kind, c.status])).toEqual([['confirm', 422]]);
    expect(standin.getTransaction(start.providerRef)).toMatchObject({ state: 'refused_by_merchant', payment: null });
    expect(await merpay.fetchPayment(order)).toEqual({ status: 'pending' });
  });

  it('an authorised amount other than the order is canceled, not captured', async () => {
    const { start, order } = await started(1000);
    await standin.approve(start.providerRef);
    const result = await merpay.fetchPayment({ ...order, amountJpy: 1200 });
    expect(result.status).toBe('failed');
    expect(standin.getTransaction(start.providerRef)).toMatchObject({
      state: 'canceled',
      payment: { capturedAmount: 0, canceledAmount: 1000 },
    });
  });

  it("refuses another order's transaction", async () => {
    const a = await started(1000);
    const b = await started(1000);
    await standin.approve(a.start.providerRef);
    const error = await merpay.fetchPayment({ ...b.order, providerRef: a.start.providerRef }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(false);
    expect(standin.getTransaction(a.start.providerRef)?.state).toBe('authorized');
    await expect(merpay.fetchPayment({ ...b.order, providerRef: '../etc/passwd' })).rejects.toBeInstanceOf(
      ProviderError,
    );
  });
});

describe('merpay refund', () => {
  it('refunds part and the rest, never beyond what is held; reads the refunded total', async () => {
    const { start, order } = await started(1000);
    await standin.approve(start.providerRef);
    expect((await merpay.fetchPayment(order)).status).toBe('paid');
    const ref = { ...order, providerPaymentId: start.providerRef };
    await merpay.refund(ref, 400, '一部返金');
    expect(await merpay.fetchPayment(order)).toEqual({
      status: 'refunded',
      amountJpy: 1000,
      refundedJpy: 400,
      providerPaymentId: start.providerRef,
    });
    // The shop asks for what is still held (refundOrder reads it first): a second 400 is a second refund.
    await merpay.refund(ref, 400, '一部返金（二回目）');
    expect(standin.getTransaction(start.providerRef)?.refunds).toHaveLength(2);
    await expect(merpay.refund(ref, 300, '多すぎる')).rejects.toBeInstanceOf(ProviderError);
    await merpay.refund(ref, 200, '残り');
    expect(await merpay.fetchPayment(order)).toEqual({
      status: 'refunded',
      amountJpy: 1000,
      refundedJpy: 1000,
      providerPaymentId: start.providerRef,
    });
    await expect(merpay.cancel(order)).rejects.toBeInstanceOf(ProviderError);
  });

  it('a refund made in Merpay’s console shows in fetchPayment; an unpaid transaction cannot be refunded', async () => {
    const { start, order } = await started(900);
    await expect(
      merpay.refund({ ...order, providerPaymentId: start.providerRef }, 900, '未払い'),
    ).rejects.toBeInstanceOf(ProviderError);
    await standin.approve(start.providerRef);
    await merpay.fetchPayment(order);
    standin.refund(start.providerRef, 300);
    expect(await merpay.fetchPayment(order)).toEqual({
      status: 'refunded',
      amountJpy: 900,
      refundedJpy: 300,
      providerPaymentId: start.providerRef,
    });
  });
});

describe('merpay callbacks', () => {
  // Bodies as Merpay sends them to the URLs given at creation (with their token, unless told otherwise):
  // the checks behind the token still hold when someone knows it.
  const tokenOf = (orderId: string, amount: number) => callbackToken(CREDS.clientSecret, orderId, amount);
  const confirmBody = (transactionId: string, orderId: string, amount: number, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      url: `${webhookUrl}?kind=confirm&token=${tokenOf(orderId, amount)}`,
      transactionId,
      orderId,
      amount,
      shippingFee: 0,
      ...extra,
    });
  const completionBody = (transactionId: string, orderId: string, amount: number) =>
    JSON.stringify({
      url: `${webhookUrl}?kind=completion&token=${tokenOf(orderId, amount)}`,
      transactionId,
      orderId,
      orderName: 'x',
      inquiryCode: '123',
      amount,
      shippingFee: 0,
      paymentContractType: 1,
      buyer: null,
      deliveryAddress: null,
    });
  const verify = (rawBody: string, url?: string) =>
    merpay.verifyWebhook({ url, headers: new Headers({ 'content-type': 'application/json' }), rawBody });

  it('accepts a genuine confirm before payment and a genuine completion after it, also without ?kind=', async () => {
    const { req, start } = await started(1100);
    const [confirm] = await verify(confirmBody(start.providerRef, req.orderId, 1100));
    expect(confirm).toMatchObject({ type: 'confirm', hint: 'pending', reply: { status: 200, json: {} } });
    // The body's shape tells the kind when the URL does not.
    const [alsoConfirm] = await verify(
      JSON.stringify({ transactionId: start.providerRef, orderId: req.orderId, amount: 1100, shippingFee: 0 }),
      `${webhookUrl}?token=${tokenOf(req.orderId, 1100)}`,
    );
    expect(alsoConfirm?.type).toBe('confirm');
    await standin.approve(start.providerRef);
    const [completion] = await verify(
      JSON.stringify({ ...JSON.parse(completionBody(start.providerRef, req.orderId, 1100)), url: undefined }),
      `${webhookUrl}?token=${tokenOf(req.orderId, 1100)}`,
    );
    expect(completion).toMatchObject({
      type: 'completion',
      hint: 'paid',
      orderId: req.orderId,
      providerRef: start.providerRef,
    });
  });

  it('rejects a callback without the token of the URL given to Merpay, though every field in it is true', async () => {
    const { req, start } = await started(1000);
    const forged = (token: string | null) =>
      JSON.stringify({
        url: `${webhookUrl}?kind=confirm${token === null ? '' : `&token=${token}`}`,
        transactionId: start.providerRef,
        orderId: req.orderId,
        amount: 1000,
        shippingFee: 0,
      });
    expect((await rejection(verify(forged(null)))).status).toBe(401);
    expect((await rejection(verify(forged('x'.repeat(43))))).status).toBe(401);
    // A token for another order or amount is not this callback's.
    expect((await rejection(verify(forged(tokenOf(randomUUID(), 1000))))).status).toBe(401);
    expect((await rejection(verify(forged(tokenOf(req.orderId, 999))))).status).toBe(401);
    // Nor is the right token under another client secret.
    expect((await rejection(verify(forged(callbackToken('another-secret', req.orderId, 1000))))).status).toBe(401);
    await expect(verify(forged(tokenOf(req.orderId, 1000)))).resolves.toHaveLength(1);
  });

  it('rejects forged callbacks: unknown transaction, wrong amount, wrong order, no payment, not ours', async () => {
    const { req, start } = await started(1000);
    expect((await rejection(verify(confirmBody('mtx_doesnotexist', req.orderId, 1000)))).status).toBe(404);
    expect((await rejection(verify(confirmBody(start.providerRef, req.orderId, 1)))).status).toBe(422);
    expect((await rejection(verify(confirmBody(start.providerRef, randomUUID(), 1000)))).status).toBe(422);
    expect((await rejection(verify(confirmBody(start.providerRef, 'order-1', 1000)))).status).toBe(422);
    expect(
      (await rejection(verify(confirmBody(start.providerRef, req.orderId, 1000, { shippingFee: 500 })))).status,
    ).toBe(422);
    // A completion announces a payment Merpay does not show.
    expect((await rejection(verify(completionBody(start.providerRef, req.orderId, 1000)))).status).toBe(422);
    expect((await rejection(verify('{not json'))).status).toBe(400);
    expect((await rejection(verify(JSON.stringify({ orderId: req.orderId, amount: 1000 })))).status).toBe(400);
    expect(
      (
        await rejection(
          verify(JSON.stringify({ transactionId: start.providerRef, orderId: req.orderId, amount: 1000, area: {} })),
        )
      ).status,
    ).toBe(422);

    // Once paid, the payment's own orderId and amount decide.
    await standin.approve(start.providerRef);
    expect((await rejection(verify(completionBody(start.providerRef, req.orderId, 999)))).status).toBe(422);
    expect((await rejection(verify(completionBody(start.providerRef, randomUUID(), 1000)))).status).toBe(422);
    await expect(verify(completionBody(start.providerRef, req.orderId, 1000))).resolves.toHaveLength(1);

    // A transaction made with these credentials but not by this adapter carries no binding: refused before payment.
    const token = await accessToken();
    const foreignOrder = randomUUID();
    const created = await fetch(`${standin.url}/v1/transaction:create`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({
        orderId: foreignOrder,
        amount: 500,
        useDeliveryAddress: false,
        useShippingFee: false,
        isFixedShippingFee: false,
        fixedShippingFee: 0,
        shippingFeeUrl: '',
        confirmUrl: webhookUrl,
        completionUrl: webhookUrl,
        cancelUrl: `${SHOP}/x`,
        returnUrl: `${SHOP}/y?order=${foreignOrder}`,
        paymentContractType: 1,
        capture: false,
        items: [{ name: 'x', unitPrice: 500, quantity: 1 }],
        metadata: {},
      }),
    });
    expect(created.status).toBe(200);
    const { transactionId } = (await created.json()) as { transactionId: string };
    expect((await rejection(verify(confirmBody(transactionId, foreignOrder, 500)))).status).toBe(422);
  });
});

describe('merpay credentials and tokens', () => {
  it('the stand-in refuses bad client credentials with the SDK error shape; the adapter reports it, not retryable', async () => {
    const response = await fetch(`${standin.url}/jp/v1/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${CREDS.clientId}:wrong`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials&scope=netpayment%3Atransaction%3Awrite',
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      code: expect.any(String),
      message: expect.any(String),
      requestId: expect.any(String),
      details: [],
    });
    const wrong = createMerpayProvider({
      apiBase: standin.url,
      authBase: standin.url,
      clientId: CREDS.clientId,
      clientSecret: 'wrong-secret',
    });
    const error = await wrong.createCheckout(checkoutRequest(100)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(false);
    expect((error as Error).message).toContain('401');
  });

  it('the stand-in refuses a bad access token (and a "Bearer" one: the SDK sends the bare token)', async () => {
    const call = (authorization: string) =>
      fetch(`${standin.url}/v1/transactions:batchGet`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ transactionIds: ['mtx_x'] }),
      });
    const bad = await call('not-a-token');
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({
      code: 'UNAUTHENTICATED',
      message: expect.any(String),
      requestId: expect.any(String),
      details: [],
    });
    const token = await accessToken();
    expect((await call(`Bearer ${token}`)).status).toBe(401);
    expect((await call(token)).status).toBe(404); // authorised; the id just does not exist
  });

  it('caches the token until shortly before it expires, shares it between concurrent calls, and renews it after a 401', async () => {
    let clock = Date.now();
    const adapter = createMerpayProvider({ apiBase: standin.url, authBase: standin.url, ...CREDS, now: () => clock });
    const before = standin.tokensIssued;
    const { order } = await started(500, undefined, adapter);
    await Promise.all([adapter.fetchPayment(order), adapter.fetchPayment(order), adapter.fetchPayment(order)]);
    expect(standin.tokensIssued).toBe(before + 1);
    // expires_in is 3600 s: renewed 60 s before that.
    clock += 3_539_000;
    await adapter.fetchPayment(order);
    expect(standin.tokensIssued).toBe(before + 1);
    clock += 2_000;
    await adapter.fetchPayment(order);
    expect(standin.tokensIssued).toBe(before + 2);
    // Revoked early at Merpay: one 401, a new token, the call goes through.
    standin.revokeTokens();
    expect(await adapter.fetchPayment(order)).toEqual({ status: 'pending' });
    expect(standin.tokensIssued).toBe(before + 3);
  });

  it('speaks https://{authHost}/jp/v1/token and https://{apiHost}{path} as the SDK does', async () => {
    const seen: { url: string; headers: Headers; body: string }[] = [];
    const fake: typeof fetch = async (input, init) => {
      const url = String(input);
      seen.push({ url, headers: new Headers(init?.headers), body: String(init?.body) });
      if (url.endsWith('/jp/v1/token'))
        return new Response(JSON.stringify({ access_token: 'tok-123', expires_in: 3600 }), { status: 200 });
      return new Response(JSON.stringify({ transactions: [{ transactionId: 'tx1', payment: null }] }), { status: 200 });
    };
    const adapter = createMerpayProvider({
      apiHost: 'api.merpay.example',
      authHost: 'auth.merpay.example',
      ...CREDS,
      fetch: fake,
    });
    expect(await adapter.fetchPayment({ orderId: randomUUID(), providerRef: 'tx1', amountJpy: 100 })).toEqual({
      status: 'pending',
    });
    expect(seen.map((s) => s.url)).toEqual([
      'https://auth.merpay.example/jp/v1/token',
      'https://api.merpay.example/v1/transactions:batchGet',
    ]);
    expect(seen[0]!.headers.get('authorization')).toBe(
      `Basic ${Buffer.from(`${CREDS.clientId}:${CREDS.clientSecret}`).toString('base64')}`,
    );
    expect(Object.fromEntries(new URLSearchParams(seen[0]!.body))).toMatchObject({
      grant_type: 'client_credentials',
      scope: 'netpayment:transaction:write',
    });
    expect(seen[1]!.headers.get('authorization')).toBe('tok-123');
    expect(JSON.parse(seen[1]!.body)).toEqual({ transactionIds: ['tx1'] });
    expect(() =>
      createMerpayProvider({ apiHost: 'https://api.merpay.example', authHost: 'auth.merpay.example', ...CREDS }),
    ).toThrow(/apiHost/);
    expect(() => createMerpayProvider({ ...CREDS })).toThrow(/apiHost/);
  });

  it('an unreachable Merpay is a retryable ProviderError', async () => {
    const dead = createMerpayProvider({
      apiBase: 'http://127.0.0.1:1',
      authBase: 'http://127.0.0.1:1',
      ...CREDS,
      timeoutMs: 2000,
    });
    const error = await dead
      .fetchPayment({ orderId: randomUUID(), providerRef: 'mtx_abc', amountJpy: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(true);
  });
});
