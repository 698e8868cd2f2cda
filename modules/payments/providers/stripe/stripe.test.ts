// Stripe adapter against the local stand-in: the real `stripe` SDK over HTTP, the hosted page, signed webhooks.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { createStripeProvider, withSessionIdPlaceholder } from './stripe';
import { ProviderError, WebhookRejected, type CheckoutRequest, type OrderRef, type PaymentProvider } from '../types';
import { startStripeStandin, type SignedWebhook, type StripeStandin } from '#devtools/standins/stripe';

const SECRET_KEY = 'sk_test_standin_51Abc';
const WEBHOOK_SECRET = 'whsec_standin_test_secret';

let standin: StripeStandin;
let provider: PaymentProvider;
let receiver: Server;
const received: SignedWebhook[] = [];

beforeAll(async () => {
  // Our webhook endpoint: records what Stripe (the stand-in) POSTs.
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      received.push({ headers, rawBody: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/stripe`;
  standin = await startStripeStandin({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, webhookUrl });
  provider = createStripeProvider({
    secretKey: SECRET_KEY,
    webhookSecret: WEBHOOK_SECRET,
    apiBaseUrl: standin.url,
    maxNetworkRetries: 0,
  });
});

afterAll(async () => {
  await standin?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

function checkoutRequest(overrides: Partial<CheckoutRequest> = {}): CheckoutRequest {
  const orderId = overrides.orderId ?? randomUUID();
  return {
    orderId,
    amountJpy: 1000,
    description: 'コイン 1,000枚（+50ボーナス）',
    memberId: 'member-1',
    email: 'member@example.com',
    returnUrl: `https://shop.example/shop/backfrompurchase?order=${orderId}`,
    cancelUrl: `https://shop.example/shop?canceled=${orderId}`,
    webhookUrl: 'https://shop.example/api/webhooks/stripe',
    ...overrides,
  };
}

async function startOrder(
  overrides: Partial<CheckoutRequest> = {},
): Promise<{ request: CheckoutRequest; order: OrderRef; redirectUrl: string }> {
  const request = checkoutRequest(overrides);
  const start = await provider.createCheckout(request);
  return {
    request,
    redirectUrl: start.redirectUrl,
    order: { orderId: request.orderId, providerRef: start.providerRef, amountJpy: request.amountJpy },
  };
}

async function paidOrder(amountJpy = 1000) {
  const started = await startOrder({ amountJpy });
  await standin.approve(started.order.providerRef);
  const payment = await provider.fetchPayment(started.order);
  if (payment.status !== 'paid') throw new Error(`expected paid, got ${payment.status}`);
  return { ...started, providerPaymentId: payment.providerPaymentId };
}

async function verifyLast(type: string) {
  const event = standin.lastEvent(type);
  if (!event) throw new Error(`no ${type} event`);
  return provider.verifyWebhook(standin.signWebhook(event.id));
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('createCheckout', () => {
  it('creates a JPY Checkout Session carrying our order id, idempotently per order', async () => {
    const { request, order, redirectUrl } = await startOrder();
    expect(order.providerRef).toMatch(/^cs_test_/);
    expect(redirectUrl).toBe(`${standin.url}/c/pay/${order.providerRef}`);
    const session = standin.getSession(order.providerRef)!;
    expect(session).toMatchObject({
      amount_total: 1000,
      currency: 'jpy',
      mode: 'payment',
      client_reference_id: request.orderId,
      metadata: { orderId: request.orderId, memberId: 'member-1' },
      customer_email: 'member@example.com',
      status: 'open',
      success_url: `${request.returnUrl}&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: request.cancelUrl,
    });
    // A retry for the same order (idempotency key checkout:<orderId>) gets the same session.
    const again = await provider.createCheckout(request);
    expect(again.providerRef).toBe(order.providerRef);
    expect(await provider.fetchPayment(order)).toEqual({ status: 'pending' });
  });

  it('refuses the same order id with different details (idempotency_error), not retryable', async () => {
    const { request } = await startOrder();
    const err = await rejection(provider.createCheckout({ ...request, amountJpy: 2000 }));
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).retryable).toBe(false);
    expect((err as ProviderError).cause).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('rejects amounts that are not positive integers of yen before calling Stripe', async () => {
    await expect(provider.createCheckout(checkoutRequest({ amountJpy: 10.5 }))).rejects.toBeInstanceOf(ProviderError);
    await expect(provider.createCheckout(checkoutRequest({ amountJpy: 0 }))).rejects.toBeInstanceOf(ProviderError);
  });
});

describe('hosted Checkout page and confirmation', () => {
  it('shows the amount, escapes what it echoes, and approving redirects with session_id then reads as paid', async () => {
    const { order, request, redirectUrl } = await startOrder({
      description: '<script>alert(1)</script> コイン',
      amountJpy: 12345,
    });
    const pageResponse = await fetch(redirectUrl);
    const html = await pageResponse.text();
    expect(pageResponse.status).toBe(200);
    expect(html).toContain('¥12,345');
    expect(html).toContain('テスト環境：カード情報は入力不要です');
    expect(html).toContain('お支払いを承認');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');

    const before = received.length;
    const approve = await fetch(redirectUrl, {
      method: 'POST',
      body: new URLSearchParams({ action: 'approve' }),
      redirect: 'manual',
    });
    expect(approve.status).toBe(303);
    const location = new URL(approve.headers.get('location')!);
    expect(location.toString()).toBe(`${request.returnUrl}&session_id=${order.providerRef}`);

    const payment = await provider.fetchPayment(order, location.searchParams);
    expect(payment).toEqual({ status: 'paid', amountJpy: 12345, providerPaymentId: expect.stringMatching(/^pi_/) });

    // The stand-in delivered checkout.session.completed to our endpoint, signed.
    await expect
      .poll(() => received.slice(before).some((w) => w.rawBody.includes(order.providerRef)), { timeout: 5000 })
      .toBe(true);
    const delivered = received.slice(before).map((w) => provider.verifyWebhook(w));
    const events = (await Promise.all(delivered)).flat().filter((e) => e.providerRef === order.providerRef);
    expect(events).toContainEqual({
      eventId: expect.stringMatching(/^evt_/),
      type: 'checkout.session.completed',
      orderId: request.orderId,
      providerRef: order.providerRef,
      hint: 'paid',
    });
    // Only subscribed events are delivered (no charge.succeeded / payment_intent.succeeded).
    expect(events.map((e) => e.type)).toEqual(['checkout.session.completed']);
  });

  it('does not trust a session_id from the return URL: it reads the session stored on the order', async () => {
    const paid = await paidOrder();
    const other = await startOrder();
    const forged = new URLSearchParams({ session_id: paid.order.providerRef });
    expect(await provider.fetchPayment(other.order, forged)).toEqual({ status: 'pending' });
  });

  it('refuses to read a session for another order', async () => {
    const paid = await paidOrder();
    const err = await rejection(provider.fetchPayment({ ...paid.order, orderId: randomUUID() }));
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).retryable).toBe(false);
  });
});

describe('decline, cancel, async failure', () => {
  it('a declined card leaves the session payable (pending); cancel expires it (canceled), idempotently', async () => {
    const { order, request, redirectUrl } = await startOrder();
    const declined = await fetch(redirectUrl, {
      method: 'POST',
      body: new URLSearchParams({ action: 'decline' }),
      redirect: 'manual',
    });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('カードが拒否されました');
    const intent = standin.getPaymentIntent(standin.getSession(order.providerRef)!.payment_intent!)!;
    expect(intent.last_payment_error?.code).toBe('card_declined');
    expect(await provider.fetchPayment(order)).toEqual({ status: 'pending' });

    await provider.cancel(order);
    await provider.cancel(order);
    expect(await provider.fetchPayment(order)).toEqual({ status: 'canceled' });
    expect(standin.getSession(order.providerRef)!.status).toBe('expired');
    const [event] = await verifyLast('checkout.session.expired');
    expect(event).toMatchObject({
      type: 'checkout.session.expired',
      orderId: request.orderId,
      providerRef: order.providerRef,
      hint: 'canceled',
    });

    // The page of an expired session no longer takes payments.
    const late = await fetch(redirectUrl, {
      method: 'POST',
      body: new URLSearchParams({ action: 'approve' }),
      redirect: 'manual',
    });
    expect(late.status).toBe(410);
    expect(await provider.fetchPayment(order)).toEqual({ status: 'canceled' });
  });

  it('キャンセル on the page goes back to cancel_url and leaves the session open', async () => {
    const { order, request, redirectUrl } = await startOrder();
    const res = await fetch(redirectUrl, {
      method: 'POST',
      body: new URLSearchParams({ action: 'cancel' }),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(request.cancelUrl);
    expect(await provider.fetchPayment(order)).toEqual({ status: 'pending' });
  });

  it('a session that expires on its own reads as canceled', async () => {
    const { order } = await startOrder();
    await standin.expire(order.providerRef);
    expect(await provider.fetchPayment(order)).toEqual({ status: 'canceled' });
  });

  it('a delayed payment is pending until it settles: failed → failed, succeeded → paid', async () => {
    const failing = await startOrder();
    await standin.submitAsync(failing.order.providerRef);
    expect(await provider.fetchPayment(failing.order)).toEqual({ status: 'pending' });
    expect((await verifyLast('checkout.session.completed'))[0].hint).toBe('pending');
    await standin.settleAsync(failing.order.providerRef, 'failed');
    expect(await provider.fetchPayment(failing.order)).toEqual({ status: 'failed', reason: expect.any(String) });
    expect((await verifyLast('checkout.session.async_payment_failed'))[0]).toMatchObject({
      orderId: failing.request.orderId,
      hint: 'failed',
    });

    const settling = await startOrder({ amountJpy: 3000 });
    await standin.submitAsync(settling.order.providerRef);
    await standin.settleAsync(settling.order.providerRef, 'succeeded');
    expect(await provider.fetchPayment(settling.order)).toMatchObject({ status: 'paid', amountJpy: 3000 });
    expect((await verifyLast('checkout.session.async_payment_succeeded'))[0]).toMatchObject({
      orderId: settling.request.orderId,
      hint: 'paid',
    });
  });

  it('cancel refuses a completed session (the money was taken)', async () => {
    const paid = await paidOrder();
    const err = await rejection(provider.cancel(paid.order));
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).retryable).toBe(false);
    expect(await provider.fetchPayment(paid.order)).toMatchObject({ status: 'paid' });
  });
});

describe('refunds and chargebacks', () => {
  it('refunds in part and in full; the same (order, amount) is not refunded twice', async () => {
    const paid = await paidOrder(1000);
    const order = { ...paid.order, providerPaymentId: paid.providerPaymentId };
    await provider.refund(order, 400, '誤購入のため');
    await provider.refund(order, 400, '誤購入のため');
    expect(await provider.fetchPayment(paid.order)).toEqual({
      status: 'refunded',
      amountJpy: 1000,
      refundedJpy: 400,
      providerPaymentId: paid.providerPaymentId,
    });

    const [event] = await verifyLast('charge.refunded');
    expect(event).toMatchObject({
      type: 'charge.refunded',
      orderId: paid.request.orderId,
      providerRef: paid.order.providerRef,
      hint: 'refunded',
    });

    const tooMuch = await rejection(provider.refund(order, 700, '多すぎる'));
    expect(tooMuch).toBeInstanceOf(ProviderError);
    expect((tooMuch as ProviderError).retryable).toBe(false);

    await provider.refund(order, 600, '残額');
    expect(await provider.fetchPayment(paid.order)).toMatchObject({ status: 'refunded', refundedJpy: 1000 });
  });

  it('a dispute reads as charged_back; a won dispute reads as paid again', async () => {
    const paid = await paidOrder(5000);
    await standin.chargeBack(paid.order.providerRef);
    expect(await provider.fetchPayment(paid.order)).toEqual({
      status: 'charged_back',
      amountJpy: 5000,
      providerPaymentId: paid.providerPaymentId,
    });
    const [created] = await verifyLast('charge.dispute.created');
    expect(created).toMatchObject({
      orderId: paid.request.orderId,
      providerRef: paid.order.providerRef,
      hint: 'charged_back',
    });

    await standin.closeDispute(paid.order.providerRef, 'won');
    expect(await provider.fetchPayment(paid.order)).toMatchObject({ status: 'paid', amountJpy: 5000 });
    expect((await verifyLast('charge.dispute.closed'))[0].hint).toBe('unknown');
  });
});

describe('verifyWebhook', () => {
  let good: SignedWebhook;
  let eventId: string;

  beforeAll(async () => {
    const paid = await paidOrder();
    eventId = standin.lastEvent('checkout.session.completed')!.id;
    good = standin.signWebhook(eventId);
    expect(JSON.parse(good.rawBody).data.object.id).toBe(paid.order.providerRef);
  });

  it('accepts a correctly signed event', async () => {
    const [event] = await provider.verifyWebhook(good);
    expect(event).toMatchObject({ eventId, type: 'checkout.session.completed', hint: 'paid' });
  });

  it('rejects a tampered body', async () => {
    const tampered = standin.signWebhook(eventId, {
      rawBody: good.rawBody.replace('"amount_total": 1000', '"amount_total": 1'),
    });
    expect(tampered.rawBody).not.toBe(good.rawBody);
    const err = await rejection(provider.verifyWebhook(tampered));
    expect(err).toBeInstanceOf(WebhookRejected);
    expect((err as WebhookRejected).status).toBe(400);
  });

  it('rejects a signature made with another secret', async () => {
    await expect(
      provider.verifyWebhook(standin.signWebhook(eventId, { secret: 'whsec_someone_else' })),
    ).rejects.toBeInstanceOf(WebhookRejected);
  });

  it('rejects a missing or malformed Stripe-Signature header', async () => {
    const headers = new Headers(good.headers);
    headers.delete('stripe-signature');
    await expect(provider.verifyWebhook({ headers, rawBody: good.rawBody })).rejects.toBeInstanceOf(WebhookRejected);
    headers.set('stripe-signature', 'garbage');
    await expect(provider.verifyWebhook({ headers, rawBody: good.rawBody })).rejects.toBeInstanceOf(WebhookRejected);
  });

  it('rejects a timestamp older than the 300 s tolerance (replay)', async () => {
    const stale = standin.signWebhook(eventId, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    const err = await rejection(provider.verifyWebhook(stale));
    expect(err).toBeInstanceOf(WebhookRejected);
    expect((err as Error).message).toContain('tolerance');
    // Just inside the window still passes.
    await expect(
      provider.verifyWebhook(standin.signWebhook(eventId, { timestamp: Math.floor(Date.now() / 1000) - 200 })),
    ).resolves.toHaveLength(1);
  });

  it('rejects a signed body that is not JSON', async () => {
    const body = 'not json';
    const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET });
    await expect(
      provider.verifyWebhook({ headers: new Headers({ 'stripe-signature': header }), rawBody: body }),
    ).rejects.toBeInstanceOf(WebhookRejected);
  });
});

describe('stand-in API behaviour', () => {
  it('refuses a wrong API key with 401 and Stripe’s error shape (the SDK raises StripeAuthenticationError)', async () => {
    const wrong = createStripeProvider({
      secretKey: 'sk_test_wrong_key_9999',
      webhookSecret: WEBHOOK_SECRET,
      apiBaseUrl: standin.url,
      maxNetworkRetries: 0,
    });
    const err = await rejection(wrong.createCheckout(checkoutRequest()));
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).retryable).toBe(false);
    expect((err as ProviderError).cause).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);

    const raw = await fetch(`${standin.url}/v1/checkout/sessions/cs_test_x`);
    expect(raw.status).toBe(401);
    const body = (await raw.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain('You did not provide an API key');

    const bad = await fetch(`${standin.url}/v1/checkout/sessions/cs_test_x`, {
      headers: { authorization: 'Bearer sk_test_wrong_key_9999' },
    });
    expect(bad.status).toBe(401);
    // Stripe redacts all but the last four characters of the key it refuses.
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(
      /^Invalid API Key provided: sk_test_\*+9999$/,
    );
  });

  it('accepts HTTP Basic auth with the key as user name, and answers unknown ids with resource_missing', async () => {
    const res = await fetch(`${standin.url}/v1/checkout/sessions/cs_test_nope`, {
      headers: { authorization: `Basic ${Buffer.from(`${SECRET_KEY}:`).toString('base64')}` },
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('resource_missing');
  });

  it('rejects unknown parameters like Stripe does', async () => {
    const res = await fetch(`${standin.url}/v1/checkout/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'mode=payment&payment_method_types[0]=card',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string; param: string } }).error).toMatchObject({
      code: 'parameter_unknown',
      param: 'payment_method_types',
    });
  });

  it('5xx from Stripe surfaces as a retryable ProviderError', async () => {
    const { order } = await startOrder();
    standin.failNextRequests(1, 500);
    const err = await rejection(provider.fetchPayment(order));
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).retryable).toBe(true);
    expect(await provider.fetchPayment(order)).toEqual({ status: 'pending' });
  });

  it('a network failure is retryable', async () => {
    const dead = createStripeProvider({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBaseUrl: 'http://127.0.0.1:1',
      maxNetworkRetries: 0,
    });
    const err = await rejection(dead.createCheckout(checkoutRequest()));
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).retryable).toBe(true);
  });
});

describe('withSessionIdPlaceholder', () => {
  it('appends the {CHECKOUT_SESSION_ID} template with the right separator, before any fragment', () => {
    expect(withSessionIdPlaceholder('https://s/b?order=1')).toBe(
      'https://s/b?order=1&session_id={CHECKOUT_SESSION_ID}',
    );
    expect(withSessionIdPlaceholder('https://s/b')).toBe('https://s/b?session_id={CHECKOUT_SESSION_ID}');
    expect(withSessionIdPlaceholder('https://s/b?order=1#top')).toBe(
      'https://s/b?order=1&session_id={CHECKOUT_SESSION_ID}#top',
    );
  });
});
