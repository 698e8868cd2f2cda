// Amazon Pay adapter against the local stand-in: the real SDK signs every call, the stand-in checks the signatures and signs the SNS IPNs.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmazonPayApiError, createAmazonpayProvider, snsStringToSign } from './amazonpay';
import { ProviderError, WebhookRejected, type OrderRef, type PaymentProvider } from '../types';
import { startAmazonpayStandin, type AmazonPayStandin } from '#devtools/standins/amazonpay';

const PUBLIC_KEY_ID = 'SANDBOX-AHEXAMPLESTANDINKEY01';
const STORE_ID = 'amzn1.application-oa2-client.standin0test';

const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
const privateKeyPem = merchant.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
const publicKeyPem = merchant.publicKey.export({ type: 'spki', format: 'pem' }) as string;

interface Received {
  headers: Headers;
  rawBody: string;
}

let standin: AmazonPayStandin;
let provider: PaymentProvider;
let hookServer: Server;
const received: Received[] = [];
const subscriptionMessages: { type: string; confirmed: boolean }[] = [];

beforeAll(async () => {
  // Our webhook endpoint: records what the stand-in POSTs, as the shop's route would receive it.
  hookServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      received.push({ headers, rawBody: Buffer.concat(chunks).toString('utf8') });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => hookServer.listen(0, '127.0.0.1', () => resolve()));
  const hookPort = (hookServer.address() as AddressInfo).port;
  standin = await startAmazonpayStandin({
    publicKeyId: PUBLIC_KEY_ID,
    publicKey: publicKeyPem,
    storeId: STORE_ID,
    webhookUrl: `http://127.0.0.1:${hookPort}/api/webhooks/amazonpay`,
  });
  provider = makeProvider();
});

afterAll(async () => {
  await standin?.close();
  await new Promise<void>((resolve) => hookServer?.close(() => resolve()));
});

function makeProvider(overrides: Partial<Parameters<typeof createAmazonpayProvider>[0]> = {}): PaymentProvider {
  return createAmazonpayProvider({
    publicKeyId: PUBLIC_KEY_ID,
    privateKey: privateKeyPem,
    storeId: STORE_ID,
    merchantStoreName: 'テストオリパ',
    apiBase: standin.url,
    trustedSnsOrigins: [standin.snsOrigin],
    onSubscriptionMessage: (info) => subscriptionMessages.push({ type: info.type, confirmed: info.confirmed }),
    ...overrides,
  });
}

async function checkout(
  p: PaymentProvider = provider,
  amountJpy = 1000,
  description = 'コイン 1,000枚（+50ボーナス）',
) {
  const orderId = randomUUID();
  const start = await p.createCheckout({
    orderId,
    amountJpy,
    description,
    memberId: randomUUID(),
    email: null,
    returnUrl: `https://shop.example/shop/backfromamazonpay?order=${orderId}`,
    cancelUrl: `https://shop.example/shop?canceled=${orderId}`,
    webhookUrl: 'https://shop.example/api/webhooks/amazonpay',
  });
  const order: OrderRef = { orderId, providerRef: start.providerRef, amountJpy };
  return { order, start };
}

/** Waits for the stand-in's IPN for an object to reach our endpoint. */
async function ipnFor(objectId: string, type = 'Notification'): Promise<Received> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const hit = received.find((r) => {
      if (r.headers.get('x-amz-sns-message-type') !== type) return false;
      if (type !== 'Notification') return true;
      return (JSON.parse(JSON.parse(r.rawBody).Message) as { ObjectId: string }).ObjectId === objectId;
    });
    if (hit) return hit;
    if (Date.now() > deadline) throw new Error(`no ${type} for ${objectId}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function rejection(p: Promise<unknown>): Promise<WebhookRejected> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookRejected);
  return error as WebhookRejected;
}

async function providerError(p: Promise<unknown>): Promise<ProviderError> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

/** Pays an order the way a member does: approve on Amazon's page, come back, the return page syncs. */
async function paidOrder(p: PaymentProvider = provider, amountJpy = 1000) {
  const { order } = await checkout(p, amountJpy);
  const back = new URL(standin.approve(order.providerRef));
  const payment = await p.fetchPayment(order, back.searchParams);
  expect(payment.status).toBe('paid');
  return { order, chargeId: (payment as { providerPaymentId: string }).providerPaymentId };
}

describe('Amazon Pay checkout through the SDK and the stand-in', () => {
  it('creates a Checkout Session carrying our order id and amount, once per order', async () => {
    const { order, start } = await checkout();
    expect(start.redirectUrl).toBe(`${standin.url}/checkout/${order.providerRef}`);
    const session = standin.getSession(order.providerRef)!;
    expect(session.merchantMetadata.merchantReferenceId).toBe(order.orderId);
    expect(session.merchantMetadata.merchantStoreName).toBe('テストオリパ');
    expect(session.paymentDetails).toMatchObject({
      paymentIntent: 'AuthorizeWithCapture',
      chargeAmount: { amount: '1000', currencyCode: 'JPY' },
    });
    expect(session.webCheckoutDetails).toMatchObject({
      checkoutMode: 'ProcessOrder',
      checkoutResultReturnUrl: `https://shop.example/shop/backfromamazonpay?order=${order.orderId}`,
    });
    expect(session.storeId).toBe(STORE_ID);
    expect(session.statusDetails.state).toBe('Open');

    // The same order again (a retried request): Amazon's idempotency returns the same session.
    const again = await provider
      .createCheckout({
        orderId: order.orderId,
        amountJpy: 1000,
        description: 'コイン 1,000枚（+50ボーナス）',
        memberId: 'm',
        email: null,
        returnUrl: `https://shop.example/shop/backfromamazonpay?order=${order.orderId}`,
        cancelUrl: `https://shop.example/shop?canceled=${order.orderId}`,
        webhookUrl: 'https://shop.example/api/webhooks/amazonpay',
      })
      .catch((e: unknown) => e);
    // The memberId differs but is not sent, so the request is identical: same session.
    expect(again).toMatchObject({ providerRef: order.providerRef });
  });

  it('pays through the hosted page: approve, return with amazonCheckoutSessionId, complete, Captured', async () => {
    const { order, start } = await checkout(provider, 1000, '<script>alert(1)</script> コイン');
    const page = await fetch(start.redirectUrl);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('￥1,000');
    expect(html).toContain('お支払いを承認');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert(1)');

    // Not back yet: nothing is finalised.
    expect(await provider.fetchPayment(order)).toEqual({ status: 'pending' });

    const approved = await fetch(start.redirectUrl, {
      method: 'POST',
      body: new URLSearchParams({ action: 'approve' }),
      redirect: 'manual',
    });
    expect(approved.status).toBe(303);
    const back = new URL(approved.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe('https://shop.example/shop/backfromamazonpay');
    expect(back.searchParams.get('order')).toBe(order.orderId);
    expect(back.searchParams.get('amazonCheckoutSessionId')).toBe(order.providerRef);

    // Approved on Amazon's page but not completed: still pending without the return parameters.
    expect(await provider.fetchPayment(order)).toEqual({ status: 'pending' });
    const paid = await provider.fetchPayment(order, back.searchParams);
    expect(paid).toMatchObject({ status: 'paid', amountJpy: 1000 });
    const chargeId = (paid as { providerPaymentId: string }).providerPaymentId;
    expect(standin.getSession(order.providerRef)).toMatchObject({ statusDetails: { state: 'Completed' }, chargeId });
    expect(standin.getCharge(chargeId)).toMatchObject({
      statusDetails: { state: 'Captured' },
      captureAmount: { amount: '1000' },
    });

    // The SDK's overrideServiceUrl (which would switch off TLS checks process-wide) was never used.
    expect(process.env.NODE_TLS_REJECT_UNAUTHORIZED).toBeUndefined();

    // The return page reloaded, and the webhook processor: same answer, no second charge.
    expect(await provider.fetchPayment(order, back.searchParams)).toEqual(paid);
    expect(await provider.fetchPayment(order)).toEqual(paid);

    // The CHARGE IPN that completion sent: verified, and its hint comes from re-reading the charge.
    const ipn = await ipnFor(chargeId);
    const events = await provider.verifyWebhook({ headers: ipn.headers, rawBody: ipn.rawBody });
    expect(events).toEqual([
      {
        eventId: JSON.parse(ipn.rawBody).MessageId,
        type: 'CHARGE.STATE_CHANGE',
        orderId: order.orderId,
        providerRef: null,
        hint: 'paid',
      },
    ]);
  });

  it('does not complete a session the return parameters do not name', async () => {
    const a = await checkout();
    const b = await checkout();
    standin.approve(a.order.providerRef);
    const forged = new URLSearchParams({ order: a.order.orderId, amazonCheckoutSessionId: b.order.providerRef });
    expect(await provider.fetchPayment(a.order, forged)).toEqual({ status: 'pending' });
    expect(standin.getSession(a.order.providerRef)!.statusDetails.state).toBe('Open');
    // Another order's session is refused outright.
    await providerError(provider.fetchPayment({ ...a.order, providerRef: b.order.providerRef }));
  });

  it('a declined payment is failed, a buyer cancel and an expired session are canceled', async () => {
    const declined = await checkout();
    const back = new URL(standin.decline(declined.order.providerRef));
    const failed = await provider.fetchPayment(declined.order, back.searchParams);
    expect(failed.status).toBe('failed');
    expect((failed as { reason: string }).reason).toContain('Declined');
    await provider.cancel(declined.order);

    const canceled = await checkout();
    const res = await fetch(canceled.start.redirectUrl, {
      method: 'POST',
      body: new URLSearchParams({ action: 'cancel' }),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    const cancelBack = new URL(res.headers.get('location')!);
    expect(cancelBack.searchParams.get('canceled')).toBe(canceled.order.orderId);
    expect(await provider.fetchPayment(canceled.order, cancelBack.searchParams)).toEqual({ status: 'canceled' });
    await provider.cancel(canceled.order);

    // The member never came back: the shop gives up (cancel works on an open session), Amazon expires it.
    const abandoned = await checkout();
    standin.approve(abandoned.order.providerRef);
    await provider.cancel(abandoned.order);
    expect(await provider.fetchPayment(abandoned.order)).toEqual({ status: 'pending' });
    const other = await checkout();
    standin.expire(other.order.providerRef);
    expect(
      await provider.fetchPayment(
        other.order,
        new URLSearchParams({ amazonCheckoutSessionId: other.order.providerRef }),
      ),
    ).toEqual({ status: 'canceled' });
  });

  it('an amount that is not the session amount is not completed', async () => {
    const { order } = await checkout();
    const back = new URL(standin.approve(order.providerRef));
    const result = await provider.fetchPayment({ ...order, amountJpy: 999 }, back.searchParams);
    expect(result).toEqual({ status: 'failed', reason: 'amazonpay:AmountMismatch' });
    expect(standin.getSession(order.providerRef)!.statusDetails.state).toBe('Open');
  });

  it('refunds with createRefund, idempotently per amount, and reports refunded', async () => {
    const { order, chargeId } = await paidOrder();
    await provider.refund({ ...order, providerPaymentId: chargeId }, 300, '運営判断');
    await provider.refund({ ...order, providerPaymentId: chargeId }, 300, '運営判断（再送）');
    expect(await provider.fetchPayment(order)).toEqual({
      status: 'refunded',
      amountJpy: 1000,
      refundedJpy: 300,
      providerPaymentId: chargeId,
    });
    expect(standin.getCharge(chargeId)!.refundedAmount).toEqual({ amount: '300', currencyCode: 'JPY' });

    await provider.refund({ ...order, providerPaymentId: chargeId }, 700, '残り');
    expect(await provider.fetchPayment(order)).toMatchObject({ status: 'refunded', refundedJpy: 1000 });
    const over = await providerError(provider.refund({ ...order, providerPaymentId: chargeId }, 1, 'もう一度'));
    expect(over.retryable).toBe(false);
    expect((over as AmazonPayApiError).reasonCode).toBe('TransactionAmountExceeded');

    // The REFUND IPN: verified, re-read, and matched to the order through the charge.
    const refundIpn = await (async () => {
      const deadline = Date.now() + 5000;
      for (;;) {
        const hit = received.find((r) => {
          const m = JSON.parse(JSON.parse(r.rawBody).Message ?? '{}') as {
            ObjectType?: string;
            ChargePermissionId?: string;
          };
          return m.ObjectType === 'REFUND' && m.ChargePermissionId === standin.getCharge(chargeId)!.chargePermissionId;
        });
        if (hit) return hit;
        if (Date.now() > deadline) throw new Error('no refund IPN');
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const [event] = await provider.verifyWebhook(refundIpn);
    expect(event).toMatchObject({ type: 'REFUND.STATE_CHANGE', orderId: order.orderId, hint: 'refunded' });
  });

  it('captures an authorisation in fetchPayment with paymentIntent Authorize, and cancels one left uncaptured', async () => {
    const authorizing = makeProvider({ paymentIntent: 'Authorize' });
    const { order, chargeId } = await paidOrder(authorizing);
    expect(standin.getCharge(chargeId)!.statusDetails.state).toBe('Captured');
    // Paid is paid: cancel refuses (refund instead).
    expect((await providerError(authorizing.cancel(order))).retryable).toBe(false);

    // The instance crashed between Complete and Capture (here: capture answers 500 once).
    const second = await checkout(authorizing);
    const back = new URL(standin.approve(second.order.providerRef));
    standin.failNext(1, 500, /\/capture$/);
    expect((await providerError(authorizing.fetchPayment(second.order, back.searchParams))).retryable).toBe(true);
    const authorized = standin.getSession(second.order.providerRef)!;
    expect(standin.getCharge(authorized.chargeId!)!.statusDetails.state).toBe('Authorized');
    await authorizing.cancel(second.order);
    await authorizing.cancel(second.order);
    expect(standin.getCharge(authorized.chargeId!)!.statusDetails).toMatchObject({
      state: 'Canceled',
      reasonCode: 'MerchantCanceled',
    });
    expect(await authorizing.fetchPayment(second.order, back.searchParams)).toEqual({ status: 'canceled' });
  });

  it('announces a chargeback from the CHARGEBACK IPN (the dispute is re-read)', async () => {
    const { order, chargeId } = await paidOrder();
    const dispute = await standin.chargeback(chargeId);
    const ipn = await ipnFor(dispute.disputeId);
    expect(await provider.verifyWebhook(ipn)).toEqual([
      expect.objectContaining({ type: 'CHARGEBACK.STATE_CHANGE', orderId: order.orderId, hint: 'charged_back' }),
    ]);
    await standin.resolveDispute(dispute.disputeId, 'MerchantWon');
    const again = standin.buildNotification({ objectType: 'CHARGEBACK', objectId: dispute.disputeId });
    expect(await provider.verifyWebhook({ headers: new Headers(again.headers), rawBody: again.rawBody })).toEqual([
      expect.objectContaining({ hint: 'paid' }),
    ]);
  });

  it('throws retryable ProviderErrors for 5xx and network failures', async () => {
    const { order } = await checkout();
    standin.failNext(1, 503);
    const unavailable = await providerError(provider.fetchPayment(order));
    expect(unavailable.retryable).toBe(true);
    expect((unavailable as AmazonPayApiError).status).toBe(503);
    const closedPort = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const port = (s.address() as AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    const unreachable = makeProvider({ apiBase: `http://127.0.0.1:${closedPort}` });
    expect((await providerError(unreachable.fetchPayment(order))).retryable).toBe(true);
  });
});

describe('the stand-in refuses what Amazon Pay would refuse', () => {
  it('rejects a request signed with another private key (InvalidRequestSignature, 401)', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const impostor = makeProvider({ privateKey: other.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string });
    const error = await providerError(checkout(impostor));
    expect(error).toBeInstanceOf(AmazonPayApiError);
    expect(error).toMatchObject({ status: 401, reasonCode: 'InvalidRequestSignature', retryable: false });
  });

  it('rejects unsigned, malformed, unknown-key and tampered requests with Amazon error JSON', async () => {
    const unsigned = await fetch(`${standin.url}/v2/checkoutSessions`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toMatchObject({ reasonCode: 'MissingHeader' });

    const garbage = await fetch(`${standin.url}/v2/checkoutSessions/x`, { headers: { authorization: 'Bearer nope' } });
    expect(garbage.status).toBe(401);
    expect(await garbage.json()).toMatchObject({ reasonCode: 'InvalidRequestSignature' });

    // Headers signed by the real SDK with the right key, sent with a different body.
    const sdk = createRequire(import.meta.url)('@amazonpay/amazon-pay-api-sdk-nodejs') as {
      WebStoreClient: new (c: object) => { getSignedHeaders(o: object): Record<string, string> };
    };
    const payload = {
      storeId: STORE_ID,
      webCheckoutDetails: { checkoutResultReturnUrl: 'https://shop.example/r' },
      paymentDetails: { paymentIntent: 'AuthorizeWithCapture', chargeAmount: { amount: '1000', currencyCode: 'JPY' } },
    };
    const signer = new sdk.WebStoreClient({
      publicKeyId: PUBLIC_KEY_ID,
      privateKey: privateKeyPem,
      region: 'jp',
      algorithm: 'AMZN-PAY-RSASSA-PSS-V2',
    });
    const headers = signer.getSignedHeaders({
      method: 'POST',
      urlFragment: 'checkoutSessions',
      payload,
      headers: { 'x-amz-pay-idempotency-key': 'tamper-test-1' },
    });
    const honest = await fetch(`${standin.url}/v2/checkoutSessions`, {
      method: 'POST',
      headers,
      body: JSON.stringify(payload),
    });
    expect(honest.status).toBe(201);
    const tampered = await fetch(`${standin.url}/v2/checkoutSessions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        ...payload,
        paymentDetails: { ...payload.paymentDetails, chargeAmount: { amount: '1', currencyCode: 'JPY' } },
      }),
    });
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toMatchObject({ reasonCode: 'InvalidRequestSignature' });

    const unknownKey = makeProvider({ publicKeyId: 'SANDBOX-AUNKNOWNKEYID000000' });
    expect(
      await providerError(unknownKey.fetchPayment({ orderId: 'x', providerRef: 'y', amountJpy: 1 })),
    ).toMatchObject({ status: 401, reasonCode: 'InvalidRequestSignature' });
  });
});

describe('IPN (Amazon SNS) verification', () => {
  async function freshIpn() {
    const { chargeId, order } = await paidOrder();
    return { chargeId, order, built: standin.buildNotification({ objectType: 'CHARGE', objectId: chargeId }) };
  }
  const asRequest = (built: { headers: Record<string, string>; rawBody: string }) => ({
    headers: new Headers(built.headers),
    rawBody: built.rawBody,
  });

  it('accepts SignatureVersion 1 and 2 messages signed by the SNS certificate', async () => {
    const { chargeId, order } = await freshIpn();
    for (const signatureVersion of ['1', '2'] as const) {
      const built = standin.buildNotification({ objectType: 'CHARGE', objectId: chargeId, signatureVersion });
      expect(await provider.verifyWebhook(asRequest(built))).toEqual([
        expect.objectContaining({ orderId: order.orderId, hint: 'paid' }),
      ]);
    }
  });

  it('rejects a tampered message, another signer, a missing header or signature, and a stale timestamp', async () => {
    const { built, order } = await freshIpn();
    const envelope = JSON.parse(built.rawBody) as Record<string, string>;

    const tampered = { ...envelope, Message: envelope.Message!.replace(/"STATE_CHANGE"/, '"STATE_CHANGE","Extra":1') };
    expect(
      (
        await rejection(
          provider.verifyWebhook({ headers: new Headers(built.headers), rawBody: JSON.stringify(tampered) }),
        )
      ).status,
    ).toBe(401);

    // Signed with a key that is not the certificate's (a forger pointing at the real certificate).
    const forger = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged: Record<string, string> = {
      ...envelope,
      Message: JSON.stringify({ ...JSON.parse(envelope.Message!), ObjectId: 'S03-0000000-0000000-C000000' }),
    };
    forged.Signature = sign('RSA-SHA1', Buffer.from(snsStringToSign(forged)), forger.privateKey).toString('base64');
    expect(
      (
        await rejection(
          provider.verifyWebhook({ headers: new Headers(built.headers), rawBody: JSON.stringify(forged) }),
        )
      ).status,
    ).toBe(401);

    const noHeader = new Headers(built.headers);
    noHeader.delete('x-amz-sns-message-type');
    expect((await rejection(provider.verifyWebhook({ headers: noHeader, rawBody: built.rawBody }))).status).toBe(400);

    const { Signature: _drop, ...unsigned } = envelope;
    expect(
      (
        await rejection(
          provider.verifyWebhook({ headers: new Headers(built.headers), rawBody: JSON.stringify(unsigned) }),
        )
      ).status,
    ).toBe(400);

    const stale = standin.buildNotification({
      objectType: 'CHARGE',
      objectId: JSON.parse(envelope.Message!).ObjectId,
      timestamp: new Date(Date.now() - 2 * 3_600_000),
    });
    expect((await rejection(provider.verifyWebhook(asRequest(stale)))).status).toBe(400);

    await rejection(provider.verifyWebhook({ headers: new Headers(built.headers), rawBody: 'not json' }));
    // The untouched message still verifies.
    expect(await provider.verifyWebhook(asRequest(built))).toEqual([
      expect.objectContaining({ orderId: order.orderId }),
    ]);
  });

  it('never fetches a certificate from a host that is not SNS (or the configured stand-in)', async () => {
    const { built } = await freshIpn();
    const before = standin.certificateDownloads;
    const strict = makeProvider({ trustedSnsOrigins: [] });
    expect((await rejection(strict.verifyWebhook(asRequest(built)))).status).toBe(403);

    const envelope = JSON.parse(built.rawBody) as Record<string, string>;
    for (const certUrl of [
      'https://sns.us-east-1.amazonaws.com.evil.example/SimpleNotificationService-x.pem',
      'http://sns.us-east-1.amazonaws.com/x.pem',
      'https://evil.example/sns.pem',
    ]) {
      const moved = JSON.stringify({ ...envelope, SigningCertURL: certUrl });
      expect(
        (await rejection(provider.verifyWebhook({ headers: new Headers(built.headers), rawBody: moved }))).status,
      ).toBe(403);
    }
    expect(standin.certificateDownloads).toBe(before);
  });

  it('rejects a genuine IPN naming an object our API key cannot see (404)', async () => {
    // Another Amazon Pay "environment": its SNS signs genuinely, but its charges are not ours.
    const elsewhere = await startAmazonpayStandin({ publicKeyId: PUBLIC_KEY_ID, publicKey: publicKeyPem });
    try {
      const theirs = makeProvider({ apiBase: elsewhere.url, trustedSnsOrigins: [elsewhere.snsOrigin] });
      const { chargeId } = await (async () => {
        const { order } = await checkout(theirs);
        const back = new URL(elsewhere.approve(order.providerRef));
        const payment = await theirs.fetchPayment(order, back.searchParams);
        return { chargeId: (payment as { providerPaymentId: string }).providerPaymentId };
      })();
      const built = elsewhere.buildNotification({ objectType: 'CHARGE', objectId: chargeId });
      const ours = makeProvider({ trustedSnsOrigins: [standin.snsOrigin, elsewhere.snsOrigin] });
      expect((await rejection(ours.verifyWebhook(asRequest(built)))).status).toBe(404);
      expect(await theirs.verifyWebhook(asRequest(built))).toEqual([expect.objectContaining({ hint: 'paid' })]);
    } finally {
      await elsewhere.close();
    }
  });

  it('confirms an SNS subscription only through an allowed SubscribeURL', async () => {
    subscriptionMessages.length = 0;
    await standin.sendSubscriptionConfirmation();
    const message = await ipnFor('', 'SubscriptionConfirmation');
    const strictSubscribe = makeProvider({ confirmSubscriptions: false });
    const [unconfirmed] = await strictSubscribe.verifyWebhook(message);
    expect(unconfirmed).toMatchObject({ type: 'SubscriptionConfirmation', orderId: null, hint: 'unknown' });
    expect(standin.subscriptionConfirmed).toBe(false);
    const [event] = await provider.verifyWebhook(message);
    expect(event).toMatchObject({
      type: 'SubscriptionConfirmation',
      orderId: null,
      providerRef: null,
      hint: 'unknown',
    });
    expect(standin.subscriptionConfirmed).toBe(true);
    expect(subscriptionMessages).toEqual([
      { type: 'SubscriptionConfirmation', confirmed: false },
      { type: 'SubscriptionConfirmation', confirmed: true },
    ]);
  });
});
