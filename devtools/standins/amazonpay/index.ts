// Local stand-in for Amazon Pay (Japan, Checkout v2): the signed pay-api.amazon.jp API, an Amazon-hosted-page look-alike, and IPNs as signed Amazon SNS messages.
//
// What it imitates (see providers/amazonpay.md for the sources):
// - The API under /v2, /live/v2 and /sandbox/v2: Checkout Sessions (create, get, complete), Charges (get,
//   capture, cancel), Refunds (create, get), Disputes (get), Charge Permissions (get). Every request must
//   carry an AMZN-PAY-RSASSA-PSS-V2 (or -PSS) signature over Amazon's canonical request, checked with the
//   merchant's public key; anything else is refused with Amazon's error shape `{ reasonCode, message }`
//   (401 InvalidRequestSignature). POSTs that create things take x-amz-pay-idempotency-key and replay the
//   saved answer for a repeated key, DuplicateIdempotencyKey for a changed request.
// - amazonPayRedirectUrl is this server's page /checkout/{checkoutSessionId}: approving is the buyer
//   pressing 「今すぐ支払う」 on Amazon's page; Amazon then sends the browser to checkoutResultReturnUrl with
//   `amazonCheckoutSessionId`. The payment is finalised only by Complete Checkout Session (as at Amazon).
//   Declining cancels the session with reasonCode Declined; キャンセル is BuyerCanceled and goes to
//   checkoutCancelUrl.
// - IPNs (ObjectType CHARGE / REFUND / CHARGEBACK, NotificationVersion V2) wrapped in SNS Notification
//   envelopes signed with SignatureVersion 1 (SHA1withRSA) or 2 (SHA256withRSA) by a key generated at
//   start; its self-signed X.509 certificate is served at SigningCertURL, like SNS's .pem files.
import {
  constants as cryptoConstants,
  createHash,
  createPublicKey,
  randomBytes,
  randomUUID,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { Hono } from 'hono';
import type { Context, Next } from 'hono';
import { generate as generateCertificate } from 'selfsigned';
import { escapeHtml, isHttpUrl, isRecord, listenStandin } from '#devtools/standins/shared';

export interface AmazonPayStandinOptions {
  port?: number;
  host?: string;
  /** Where to POST IPNs (our /api/webhooks/amazonpay); none are delivered when unset. */
  webhookUrl?: string;
  /** The merchant's public key id and RSA public key (PEM or KeyObject): requests must be signed with its private key. */
  publicKeyId: string;
  publicKey: string | KeyObject;
  /** When set, Create Checkout Session must name this store id. */
  storeId?: string;
  /** Base URL the stand-in is reached at from the browser, when it differs from http://host:port. */
  publicUrl?: string;
  /** The API host the SDK signs into x-amz-pay-host. Default pay-api.amazon.jp. */
  apiHost?: string;
  /** SNS SignatureVersion used for IPNs: '1' (SHA1withRSA, default) or '2' (SHA256withRSA). */
  snsSignatureVersion?: '1' | '2';
  /** Merchant id printed in IPNs. */
  merchantId?: string;
  /** How long a refund stays RefundInitiated before it is Refunded. Default 0 (settles right away). */
  refundSettleMs?: number;
  /** Allowed clock difference for x-amz-pay-date, seconds. Default 900. */
  maxClockSkewSeconds?: number;
}

type Price = { amount: string; currencyCode: string };
type Status = {
  state: string;
  reasonCode: string | null;
  reasonDescription: string | null;
  lastUpdatedTimestamp: string;
};

export interface AmazonPayStandinSession {
  checkoutSessionId: string;
  webCheckoutDetails: {
    checkoutReviewReturnUrl: string | null;
    checkoutResultReturnUrl: string | null;
    checkoutCancelUrl: string | null;
    amazonPayRedirectUrl: string;
    checkoutMode: string | null;
  };
  productType: string | null;
  paymentDetails: {
    paymentIntent: string;
    canHandlePendingAuthorization: boolean;
    chargeAmount: Price;
    totalOrderAmount: Price | null;
    softDescriptor: string | null;
    presentmentCurrency: string;
    allowOvercharge: boolean | null;
    extendExpiration: boolean | null;
  };
  chargePermissionType: string;
  merchantMetadata: {
    merchantReferenceId: string | null;
    merchantStoreName: string | null;
    noteToBuyer: string | null;
    customInformation: string | null;
  };
  buyer: { buyerId: string; name: string; email: string; phoneNumber: string | null } | null;
  billingAddress: null;
  paymentPreferences: { paymentDescriptor: string }[];
  statusDetails: Status;
  shippingAddress: null;
  platformId: string | null;
  chargePermissionId: string | null;
  chargeId: string | null;
  constraints: { constraintId: string; description: string }[];
  creationTimestamp: string;
  expirationTimestamp: string;
  storeId: string;
  providerMetadata: { providerReferenceId: string | null };
  releaseEnvironment: 'Sandbox' | 'Live';
}

export interface AmazonPayStandinCharge {
  chargeId: string;
  chargePermissionId: string;
  chargeAmount: Price;
  captureAmount: Price | null;
  refundedAmount: Price;
  convertedAmount: string | null;
  conversionRate: string | null;
  softDescriptor: string | null;
  merchantMetadata: AmazonPayStandinSession['merchantMetadata'];
  providerMetadata: { providerReferenceId: string | null };
  statusDetails: Status;
  creationTimestamp: string;
  expirationTimestamp: string;
  releaseEnvironment: 'Sandbox' | 'Live';
}

export interface AmazonPayStandinRefund {
  refundId: string;
  chargeId: string;
  creationTimestamp: string;
  refundAmount: Price;
  softDescriptor: string | null;
  statusDetails: Status;
  releaseEnvironment: 'Sandbox' | 'Live';
}

export interface AmazonPayStandinDispute {
  disputeId: string;
  chargeId: string;
  releaseEnvironment: 'Sandbox' | 'Live';
  disputeType: 'Chargeback';
  disputeAmount: Price;
  filingReason: string;
  statusDetails: {
    state: string;
    reasonCode: string | null;
    reasonDescription: string | null;
    resolution: string | null;
    lastUpdatedTimestamp: string;
  };
  merchantEvidences: unknown[];
  merchantResponseDeadline: string;
  resolutionAuthority: string;
  creationTimestamp: string;
}

/** One SNS message as built (and, with a webhookUrl, delivered): what verifyWebhook receives. */
export interface AmazonPayStandinNotification {
  headers: Record<string, string>;
  rawBody: string;
  /** HTTP status our endpoint answered, or null when not delivered (no webhookUrl, or network error). */
  deliveredStatus: number | null;
}

export type AmazonPayObjectType = 'CHARGE' | 'REFUND' | 'CHARGEBACK' | 'CHARGE_PERMISSION';

export interface AmazonPayStandin {
  /** Base URL of the API and pages (the SDK's apiBase). */
  url: string;
  /** The origin serving SigningCertURL and SubscribeURL (give it to the adapter's trustedSnsOrigins). */
  snsOrigin: string;
  /** The SNS topic the IPNs come from. */
  topicArn: string;
  close(): Promise<void>;
  getSession(checkoutSessionId: string): AmazonPayStandinSession | undefined;
  getCharge(chargeId: string): AmazonPayStandinCharge | undefined;
  getRefund(refundId: string): AmazonPayStandinRefund | undefined;
  getDispute(disputeId: string): AmazonPayStandinDispute | undefined;
  /** The buyer presses 「今すぐ支払う」 on Amazon's page (no browser); returns the URL Amazon sends them to. */
  approve(checkoutSessionId: string): string;
  /** The payment is declined on Amazon's page: the session is canceled with reasonCode Declined. */
  decline(checkoutSessionId: string): string;
  /** The buyer cancels on Amazon's page (BuyerCanceled). */
  cancel(checkoutSessionId: string): string;
  /** 24 hours pass without Complete Checkout Session: Amazon cancels the session (Expired). */
  expire(checkoutSessionId: string): void;
  /** A refund made in Seller Central, settled at once; sends the REFUND IPN. Takes a charge or session id. */
  refund(chargeOrSessionId: string, amountJpy: number): Promise<AmazonPayStandinRefund>;
  /** The buyer's bank opens a chargeback (dispute UnderReview); sends the CHARGEBACK IPN. */
  chargeback(chargeOrSessionId: string): Promise<AmazonPayStandinDispute>;
  /** Closes a dispute with a resolution; sends the CHARGEBACK IPN again. */
  resolveDispute(disputeId: string, resolution: 'BuyerWon' | 'MerchantWon'): Promise<AmazonPayStandinDispute>;
  /** (Re)sends an IPN for an object; returns what was sent. */
  sendNotification(objectType: AmazonPayObjectType, objectId: string): Promise<AmazonPayStandinNotification>;
  /** Builds a signed IPN without sending it (tests tamper with it, or date it in the past). */
  buildNotification(input: {
    objectType: AmazonPayObjectType;
    objectId: string;
    timestamp?: Date;
    signatureVersion?: '1' | '2';
  }): { headers: Record<string, string>; rawBody: string };
  /** Sends an SNS SubscriptionConfirmation for the topic to the webhook URL. */
  sendSubscriptionConfirmation(): Promise<AmazonPayStandinNotification>;
  /** Whether the SubscribeURL was visited with the right token. */
  readonly subscriptionConfirmed: boolean;
  /** Every SNS message built so far, oldest first. */
  readonly notifications: readonly AmazonPayStandinNotification[];
  /** How often the signing certificate was downloaded. */
  readonly certificateDownloads: number;
  /** The next `count` API calls (matching `path`, when given) fail with `status` (default 503). */
  failNext(count: number, status?: number, path?: RegExp): void;
}

const API_PREFIXES = ['/v2', '/live/v2', '/sandbox/v2'] as const;
const SESSION_LIFETIME_MS = 24 * 3_600_000;
const ALGORITHMS: Record<string, number> = { 'AMZN-PAY-RSASSA-PSS-V2': 32, 'AMZN-PAY-RSASSA-PSS': 20 };

/** Everything the stand-in holds, passed explicitly to each handler and state change. */
interface AmazonPayState {
  options: AmazonPayStandinOptions;
  /** The merchant's public key: every API request's signature is checked with it. */
  merchantKey: KeyObject;
  apiHost: string;
  merchantId: string;
  skewMs: number;
  snsVersion: '1' | '2';
  sessions: Map<string, AmazonPayStandinSession>;
  /** Sessions the buyer approved on the page (Complete Checkout Session may follow). */
  approved: Set<string>;
  charges: Map<string, AmazonPayStandinCharge>;
  permissions: Map<
    string,
    { chargePermissionId: string; sessionId: string; statusDetails: Status; creationTimestamp: string }
  >;
  refunds: Map<string, AmazonPayStandinRefund>;
  disputes: Map<string, AmazonPayStandinDispute>;
  idempotency: Map<string, { fingerprint: string; status: number; body: unknown }>;
  notifications: AmazonPayStandinNotification[];
  /** IPN deliveries still running (close() waits for them). */
  inFlight: Set<Promise<unknown>>;
  timers: Set<NodeJS.Timeout>;
  /** Injected failures for the next API requests. */
  failures: { status: number; path?: RegExp }[];
  subscriptionToken: string;
  subscriptionConfirmed: boolean;
  certificateDownloads: number;
  /** SNS's signing key and certificate. */
  pems: { private: string; cert: string };
  certId: string;
  topicArn: string;
  subscriptionArn: string;
  /** Where the browser reaches the hosted page, and where SNS's certificate is served (known once listening). */
  publicBase: string;
  snsOrigin: string;
}

type Env = { Variables: { rawBody: string; environment: 'Sandbox' | 'Live' } };
type ApiContext = Context<Env>;
type Route<C> = {
  method: 'get' | 'post' | 'delete';
  path: string;
  handle: (state: AmazonPayState, c: C) => Response | Promise<Response>;
};

/** Starts the Amazon Pay stand-in on `port` (0 = any free port). */
export async function startAmazonpayStandin(options: AmazonPayStandinOptions): Promise<AmazonPayStandin> {
  const merchantId = options.merchantId ?? 'A2STANDIN0MERCHANT';
  // SNS's signing key and certificate (self-signed; the adapter trusts it only through trustedSnsOrigins).
  const pems = await generateCertificate([{ name: 'commonName', value: 'sns.standin.amazonaws.local' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - 86_400_000),
    notAfterDate: new Date(Date.now() + 365 * 86_400_000),
  });
  const topicArn = `arn:aws:sns:us-west-2:000000000000:${merchantId}`;
  const state: AmazonPayState = {
    options,
    merchantKey: typeof options.publicKey === 'string' ? createPublicKey(options.publicKey) : options.publicKey,
    apiHost: options.apiHost ?? 'pay-api.amazon.jp',
    merchantId,
    skewMs: (options.maxClockSkewSeconds ?? 900) * 1000,
    snsVersion: options.snsSignatureVersion ?? '1',
    sessions: new Map(),
    approved: new Set(),
    charges: new Map(),
    permissions: new Map(),
    refunds: new Map(),
    disputes: new Map(),
    idempotency: new Map(),
    notifications: [],
    inFlight: new Set(),
    timers: new Set(),
    failures: [],
    subscriptionToken: randomBytes(32).toString('hex'),
    subscriptionConfirmed: false,
    certificateDownloads: 0,
    pems,
    certId: createHash('sha256').update(pems.cert).digest('hex').slice(0, 32),
    topicArn,
    subscriptionArn: `${topicArn}:${randomUUID()}`,
    publicBase: '',
    snsOrigin: '',
  };
  const listening = await listenStandin(createAmazonpayApp(state).fetch, options);
  state.publicBase = (options.publicUrl ?? listening.url).replace(/\/+$/, '');
  state.snsOrigin = listening.url;
  return controlsOf(state, listening);
}

/** What tests and the shop's wiring hold: URLs, close(), and Seller Central-like controls. */
function controlsOf(state: AmazonPayState, listening: Awaited<ReturnType<typeof listenStandin>>): AmazonPayStandin {
  return {
    url: listening.url,
    snsOrigin: state.snsOrigin,
    topicArn: state.topicArn,
    async close() {
      for (const timer of state.timers) clearTimeout(timer);
      await Promise.allSettled([...state.inFlight]);
      await new Promise<void>((resolve) => {
        listening.server.close(() => resolve());
        (listening.server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
    getSession: (id) => {
      const s = state.sessions.get(id);
      return s ? structuredClone(sessionView(state, s)) : undefined;
    },
    getCharge: (id) => {
      const charge = state.charges.get(id);
      return charge ? structuredClone(chargeView(state, charge)) : undefined;
    },
    getRefund: (id) => {
      const refund = state.refunds.get(id);
      return refund ? structuredClone(refundView(state, refund)) : undefined;
    },
    getDispute: (id) => {
      const dispute = state.disputes.get(id);
      return dispute ? structuredClone(dispute) : undefined;
    },
    approve: (id) => approve(state, id),
    decline: (id) => decline(state, id),
    cancel: (id) => buyerCancel(state, id),
    expire(id) {
      const s = openSession(state, id);
      s.expirationTimestamp = amazonTime(Date.now() - 1000);
      sessionView(state, s);
    },
    async refund(id, amountJpy) {
      const refund = createRefund(state, chargeView(state, chargeOf(state, id)), amountJpy);
      if ('reasonCode' in refund) throw new Error(`amazonpay stand-in: ${refund.reasonCode}: ${refund.message}`);
      if (refund.statusDetails.state === 'RefundInitiated') {
        setStatus(refund, 'Refunded', null, null);
        const charge = state.charges.get(refund.chargeId)!;
        charge.refundedAmount = yen(Number(charge.refundedAmount.amount) + amountJpy);
      }
      await sendNotification(state, 'REFUND', refund.refundId);
      return structuredClone(refund);
    },
    async chargeback(id) {
      const charge = chargeOf(state, id);
      if (charge.statusDetails.state !== 'Captured' || !charge.captureAmount)
        throw new Error(`amazonpay stand-in: charge ${charge.chargeId} is ${charge.statusDetails.state}`);
      const dispute: AmazonPayStandinDispute = {
        disputeId: `${charge.chargePermissionId}-B${digits(6)}`,
        chargeId: charge.chargeId,
        releaseEnvironment: charge.releaseEnvironment,
        disputeType: 'Chargeback',
        disputeAmount: { ...charge.captureAmount },
        filingReason: 'Fraudulent',
        statusDetails: {
          state: 'UnderReview',
          reasonCode: null,
          reasonDescription: null,
          resolution: null,
          lastUpdatedTimestamp: amazonTime(),
        },
        merchantEvidences: [],
        merchantResponseDeadline: amazonTime(Date.now() + 11 * 86_400_000),
        resolutionAuthority: 'AmazonPay',
        creationTimestamp: amazonTime(),
      };
      state.disputes.set(dispute.disputeId, dispute);
      await sendNotification(state, 'CHARGEBACK', dispute.disputeId);
      return structuredClone(dispute);
    },
    async resolveDispute(disputeId, resolution) {
      const dispute = state.disputes.get(disputeId);
      if (!dispute) throw new Error(`amazonpay stand-in: no dispute ${disputeId}`);
      dispute.statusDetails = {
        state: 'Resolved',
        reasonCode: null,
        reasonDescription: null,
        resolution,
        lastUpdatedTimestamp: amazonTime(),
      };
      await sendNotification(state, 'CHARGEBACK', disputeId);
      return structuredClone(dispute);
    },
    sendNotification: (objectType, objectId) => sendNotification(state, objectType, objectId),
    buildNotification: (input) => buildNotification(state, input),
    sendSubscriptionConfirmation() {
      const subscribeUrl = `${state.snsOrigin}/sns/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(state.topicArn)}&Token=${state.subscriptionToken}`;
      return post(
        state,
        snsMessage(
          state,
          {
            Type: 'SubscriptionConfirmation',
            MessageId: randomUUID(),
            Token: state.subscriptionToken,
            TopicArn: state.topicArn,
            Message: `You have chosen to subscribe to the topic ${state.topicArn}.\nTo confirm the subscription, visit the SubscribeURL included in this message.`,
            SubscribeURL: subscribeUrl,
            Timestamp: new Date().toISOString(),
          },
          state.snsVersion,
        ),
      );
    },
    get subscriptionConfirmed() {
      return state.subscriptionConfirmed;
    },
    get notifications() {
      return state.notifications;
    },
    get certificateDownloads() {
      return state.certificateDownloads;
    },
    failNext(count, statusCode = 503, path) {
      for (let i = 0; i < count; i++) state.failures.push({ status: statusCode, path });
    },
  };
}

// --- routing ----------------------------------------------------------------------------------

/** The v2 API (under each of API_PREFIXES), one handler per operation. */
const API_ROUTES: readonly Route<ApiContext>[] = [
  { method: 'post', path: '/checkoutSessions', handle: createCheckoutSession },
  { method: 'get', path: '/checkoutSessions/:id', handle: getCheckoutSession },
  { method: 'post', path: '/checkoutSessions/:id/complete', handle: completeCheckoutSession },
  { method: 'get', path: '/charges/:id', handle: getCharge },
  { method: 'post', path: '/charges/:id/capture', handle: captureCharge },
  { method: 'delete', path: '/charges/:id/cancel', handle: cancelCharge },
  { method: 'post', path: '/refunds', handle: createRefundOperation },
  { method: 'get', path: '/refunds/:id', handle: getRefund },
  { method: 'get', path: '/disputes/:id', handle: getDispute },
  { method: 'get', path: '/chargePermissions/:id', handle: getChargePermission },
];

/** The hosted page look-alike and SNS's side. */
const PAGE_ROUTES: readonly Route<Context>[] = [
  { method: 'get', path: '/checkout/:id', handle: showCheckoutPage },
  { method: 'post', path: '/checkout/:id', handle: submitCheckoutPage },
  { method: 'get', path: '/sns/:file', handle: snsCertificate },
  { method: 'get', path: '/sns/', handle: snsSubscriptionAction },
];

/** The stand-in's HTTP app: the routing tables above, each handler given the state. */
function createAmazonpayApp(state: AmazonPayState): Hono {
  const api = new Hono<Env>();
  api.use('*', (c, next) => checkRequest(state, c, next));
  for (const route of API_ROUTES) api.on(route.method.toUpperCase(), route.path, (c) => route.handle(state, c));
  const app = new Hono();
  for (const prefix of API_PREFIXES) app.route(prefix, api);
  app.notFound((c) => amazonError(c, 404, 'ResourceNotFound', 'The requested resource does not exist.'));
  for (const route of PAGE_ROUTES) app.on(route.method.toUpperCase(), route.path, (c) => route.handle(state, c));
  return app;
}

// --- the API ----------------------------------------------------------------------------------

/** Every API request: the signature, injected failures, the raw body and environment, Idempotency-Key replay. */
async function checkRequest(state: AmazonPayState, c: ApiContext, next: Next): Promise<Response | void> {
  const rawBody = c.req.method === 'GET' || c.req.method === 'HEAD' ? '' : await c.req.text();
  const problem = checkSignature(state, c, rawBody);
  if (problem) return amazonError(c, problem.status, problem.reasonCode, problem.message);
  const failure = state.failures.findIndex((f) => !f.path || f.path.test(new URL(c.req.url).pathname));
  if (failure >= 0) {
    const [f] = state.failures.splice(failure, 1);
    const code =
      f!.status === 429
        ? 'TooManyRequests'
        : f!.status === 503
          ? 'ServiceUnavailable'
          : f!.status >= 500
            ? 'InternalServerError'
            : 'InvalidRequest';
    return amazonError(c, f!.status, code, 'Injected failure (stand-in test control).');
  }
  const pathname = new URL(c.req.url).pathname;
  c.set('rawBody', rawBody);
  c.set(
    'environment',
    pathname.startsWith('/live/') || state.options.publicKeyId.toUpperCase().startsWith('LIVE') ? 'Live' : 'Sandbox',
  );
  const key = c.req.header('x-amz-pay-idempotency-key');
  if (c.req.method === 'POST' && key !== undefined) {
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(key))
      return amazonError(
        c,
        400,
        'InvalidHeaderValue',
        'x-amz-pay-idempotency-key must be 1-32 characters of A-Z a-z 0-9 - _.',
      );
    const fingerprint = `${c.req.method} ${pathname.replace(/^\/(live|sandbox)/, '')}\n${rawBody}`;
    const saved = state.idempotency.get(key);
    if (saved) {
      if (saved.fingerprint !== fingerprint)
        return amazonError(
          c,
          400,
          'DuplicateIdempotencyKey',
          'The idempotency key was already used for a different request.',
        );
      return c.json(saved.body as object, saved.status as 200);
    }
    await next();
    if (c.res.status < 500)
      state.idempotency.set(key, {
        fingerprint,
        status: c.res.status,
        body: await c.res
          .clone()
          .json()
          .catch(() => null),
      });
    return;
  }
  await next();
}

/** Amazon's canonical request, rebuilt from what arrived, and the RSASSA-PSS check against it. */
function checkSignature(
  state: AmazonPayState,
  c: Context,
  rawBody: string,
): { status: 400 | 401; reasonCode: string; message: string } | null {
  const authorization = c.req.header('authorization');
  if (!authorization)
    return { status: 400, reasonCode: 'MissingHeader', message: 'The authorization header is missing.' };
  const m =
    /^(AMZN-PAY-RSASSA-PSS(?:-V2)?) PublicKeyId=([^,\s]+), ?SignedHeaders=([^,\s]+), ?Signature=([A-Za-z0-9+/=]+)$/.exec(
      authorization.trim(),
    );
  if (!m)
    return { status: 401, reasonCode: 'InvalidRequestSignature', message: 'The authorization header is malformed.' };
  const [, algorithm, publicKeyId, signedHeadersRaw, signature] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
  ];
  if (publicKeyId !== state.options.publicKeyId)
    return { status: 401, reasonCode: 'InvalidRequestSignature', message: 'Unknown PublicKeyId.' };
  const signed = signedHeadersRaw.split(';').map((h) => h.toLowerCase());
  for (const required of ['x-amz-pay-date', 'x-amz-pay-host', 'x-amz-pay-region']) {
    if (!c.req.header(required))
      return { status: 400, reasonCode: 'MissingHeader', message: `The ${required} header is missing.` };
    if (!signed.includes(required))
      return { status: 401, reasonCode: 'InvalidRequestSignature', message: `${required} must be signed.` };
  }
  // Every x-amz-pay-* header that arrived must be covered by the signature (e.g. the state.idempotency key).
  for (const [name] of Object.entries(c.req.header())) {
    if (name.toLowerCase().startsWith('x-amz-pay-') && !signed.includes(name.toLowerCase())) {
      return { status: 401, reasonCode: 'InvalidRequestSignature', message: `${name} is not signed.` };
    }
  }
  if (c.req.header('x-amz-pay-region') !== 'jp')
    return { status: 400, reasonCode: 'InvalidHeaderValue', message: 'x-amz-pay-region must be jp for this endpoint.' };
  const payHost = c.req.header('x-amz-pay-host');
  if (payHost !== state.apiHost && payHost !== c.req.header('host'))
    return { status: 400, reasonCode: 'InvalidHeaderValue', message: `x-amz-pay-host must be ${state.apiHost}.` };
  const date = Date.parse(fromAmazonTime(c.req.header('x-amz-pay-date')!));
  if (Number.isNaN(date) || Math.abs(Date.now() - date) > state.skewMs)
    return {
      status: 400,
      reasonCode: 'InvalidHeaderValue',
      message: 'x-amz-pay-date is missing, malformed or too far from the current time.',
    };
  const url = new URL(c.req.url);
  const query = [...url.searchParams.keys()]
    .sort()
    .map((k) => `${k}=${encodeURIComponent(url.searchParams.get(k)!)}`)
    .join('&');
  let canonical = `${c.req.method}\n${url.pathname}\n${query}\n`;
  for (const name of signed) {
    const value = c.req.header(name);
    if (value === undefined)
      return { status: 401, reasonCode: 'InvalidRequestSignature', message: `Signed header ${name} is missing.` };
    canonical += `${name}:${value}\n`;
  }
  canonical += `\n${signedHeadersRaw}\n${createHash('sha256').update(rawBody).digest('hex')}`;
  const stringToSign = `${algorithm}\n${createHash('sha256').update(canonical).digest('hex')}`;
  let ok = false;
  try {
    ok = verify(
      'sha256',
      Buffer.from(stringToSign, 'utf8'),
      {
        key: state.merchantKey,
        padding: cryptoConstants.RSA_PKCS1_PSS_PADDING,
        saltLength: ALGORITHMS[algorithm]!,
      },
      Buffer.from(signature, 'base64'),
    );
  } catch {
    ok = false;
  }
  return ok
    ? null
    : {
        status: 401,
        reasonCode: 'InvalidRequestSignature',
        message: 'The request signature we calculated does not match the signature you provided.',
      };
}

/** The request's JSON body when it is an object. */
function bodyOf(c: ApiContext): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(c.get('rawBody') || 'null');
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** POST /v2/checkoutSessions: validates the session our adapter asks for and opens it. */
function createCheckoutSession(state: AmazonPayState, c: ApiContext): Response {
  if (!c.req.header('x-amz-pay-idempotency-key'))
    return amazonError(c, 400, 'MissingHeader', 'x-amz-pay-idempotency-key is required.');
  const body = bodyOf(c);
  if (!body) return amazonError(c, 400, 'InvalidRequestFormat', 'The request body is not valid JSON.');
  const web = isRecord(body.webCheckoutDetails) ? body.webCheckoutDetails : {};
  const payment = isRecord(body.paymentDetails) ? body.paymentDetails : {};
  const meta = isRecord(body.merchantMetadata) ? body.merchantMetadata : {};
  const amount = isRecord(payment.chargeAmount) ? payment.chargeAmount : null;
  const resultUrl = str(web.checkoutResultReturnUrl);
  const reviewUrl = str(web.checkoutReviewReturnUrl);
  if (!resultUrl && !reviewUrl)
    return amazonError(c, 400, 'MissingParameterValue', 'webCheckoutDetails.checkoutResultReturnUrl is required.');
  for (const u of [resultUrl, reviewUrl, str(web.checkoutCancelUrl)])
    if (u && !isHttpUrl(u)) return amazonError(c, 400, 'InvalidParameterValue', `The URL ${u} is invalid.`);
  const storeId = str(body.storeId);
  if (!storeId) return amazonError(c, 400, 'MissingParameterValue', 'storeId is required.');
  if (state.options.storeId && storeId !== state.options.storeId)
    return amazonError(c, 400, 'InvalidParameterValue', 'The storeId is not registered to this merchant.');
  if (!amount || str(amount.currencyCode) !== 'JPY' || !/^[1-9][0-9]{0,8}$/.test(str(amount.amount) ?? '')) {
    return amazonError(c, 400, 'InvalidParameterValue', 'paymentDetails.chargeAmount must be a whole JPY amount.');
  }
  const intent = str(payment.paymentIntent) ?? 'Confirm';
  if (!['Authorize', 'AuthorizeWithCapture', 'Confirm'].includes(intent))
    return amazonError(c, 400, 'InvalidParameterValue', 'paymentDetails.paymentIntent is invalid.');
  const id = randomUUID();
  const now = Date.now();
  const session: AmazonPayStandinSession = {
    checkoutSessionId: id,
    webCheckoutDetails: {
      checkoutReviewReturnUrl: reviewUrl,
      checkoutResultReturnUrl: resultUrl,
      checkoutCancelUrl: str(web.checkoutCancelUrl),
      amazonPayRedirectUrl: `${state.publicBase}/checkout/${id}`,
      checkoutMode: str(web.checkoutMode),
    },
    productType: null,
    paymentDetails: {
      paymentIntent: intent,
      canHandlePendingAuthorization: payment.canHandlePendingAuthorization === true,
      chargeAmount: { amount: str(amount.amount)!, currencyCode: 'JPY' },
      totalOrderAmount: null,
      softDescriptor: str(payment.softDescriptor),
      presentmentCurrency: 'JPY',
      allowOvercharge: null,
      extendExpiration: null,
    },
    chargePermissionType: str(body.chargePermissionType) ?? 'OneTime',
    merchantMetadata: {
      merchantReferenceId: str(meta.merchantReferenceId),
      merchantStoreName: str(meta.merchantStoreName),
      noteToBuyer: str(meta.noteToBuyer),
      customInformation: str(meta.customInformation),
    },
    buyer: null,
    billingAddress: null,
    paymentPreferences: [],
    statusDetails: status('Open', null, null),
    shippingAddress: null,
    platformId: str(body.platformId),
    chargePermissionId: null,
    chargeId: null,
    constraints: [],
    creationTimestamp: amazonTime(now),
    expirationTimestamp: amazonTime(now + SESSION_LIFETIME_MS),
    storeId,
    providerMetadata: { providerReferenceId: null },
    releaseEnvironment: c.get('environment'),
  };
  state.sessions.set(id, session);
  return c.json(session, 201);
}

/** GET /v2/checkoutSessions/:id (an open session past its 24 hours reads Canceled/Expired). */
function getCheckoutSession(state: AmazonPayState, c: ApiContext): Response {
  const s = state.sessions.get(idParam(c));
  return s ? c.json(sessionView(state, s)) : notFound(c, 'Checkout Session');
}

/** POST /v2/checkoutSessions/:id/complete: after the buyer approved, with the same amount; makes the charge permission (and the charge). */
function completeCheckoutSession(state: AmazonPayState, c: ApiContext): Response {
  const s = state.sessions.get(idParam(c));
  if (!s) return notFound(c, 'Checkout Session');
  sessionView(state, s);
  const body = bodyOf(c);
  const amount = body && isRecord(body.chargeAmount) ? body.chargeAmount : null;
  if (!amount) return amazonError(c, 400, 'MissingParameterValue', 'chargeAmount is required.');
  if (s.statusDetails.state === 'Canceled')
    return amazonError(
      c,
      422,
      'CheckoutSessionCanceled',
      `The Checkout Session was canceled (${s.statusDetails.reasonCode}).`,
    );
  if (s.statusDetails.state !== 'Open' || !state.approved.has(s.checkoutSessionId)) {
    return amazonError(
      c,
      422,
      'InvalidCheckoutSessionStatus',
      `You tried to call an operation on a Checkout Session that is in a state where that operation is not allowed (${s.statusDetails.state}).`,
    );
  }
  if (
    str(amount.amount) !== s.paymentDetails.chargeAmount.amount ||
    str(amount.currencyCode) !== s.paymentDetails.chargeAmount.currencyCode
  ) {
    return amazonError(
      c,
      400,
      'AmountMismatch',
      'The chargeAmount does not match the Checkout Session paymentDetails.chargeAmount.',
    );
  }
  const envLetter = s.releaseEnvironment === 'Live' ? 'P' : 'S';
  const chargePermissionId = `${envLetter}03-${digits(7)}-${digits(7)}`;
  state.permissions.set(chargePermissionId, {
    chargePermissionId,
    sessionId: s.checkoutSessionId,
    statusDetails: status('Chargeable', null, null),
    creationTimestamp: amazonTime(),
  });
  s.chargePermissionId = chargePermissionId;
  if (s.paymentDetails.paymentIntent !== 'Confirm') {
    const captureNow = s.paymentDetails.paymentIntent === 'AuthorizeWithCapture';
    const charge: AmazonPayStandinCharge = {
      chargeId: `${chargePermissionId}-C${digits(6)}`,
      chargePermissionId,
      chargeAmount: { ...s.paymentDetails.chargeAmount },
      captureAmount: captureNow ? { ...s.paymentDetails.chargeAmount } : null,
      refundedAmount: yen(0),
      convertedAmount: null,
      conversionRate: null,
      softDescriptor: s.paymentDetails.softDescriptor,
      merchantMetadata: { ...s.merchantMetadata },
      providerMetadata: { providerReferenceId: null },
      statusDetails: status(captureNow ? 'Captured' : 'Authorized', null, null),
      creationTimestamp: amazonTime(),
      expirationTimestamp: amazonTime(Date.now() + 30 * 86_400_000),
      releaseEnvironment: s.releaseEnvironment,
    };
    state.charges.set(charge.chargeId, charge);
    s.chargeId = charge.chargeId;
    deliverLater(state, 'CHARGE', charge.chargeId);
  }
  setStatus(s, 'Completed', null, null);
  return c.json(s);
}

/** GET /v2/charges/:id. */
function getCharge(state: AmazonPayState, c: ApiContext): Response {
  const charge = state.charges.get(idParam(c));
  return charge ? c.json(chargeView(state, charge)) : notFound(c, 'Charge');
}

/** POST /v2/charges/:id/capture: an authorised charge, at most its amount. */
function captureCharge(state: AmazonPayState, c: ApiContext): Response {
  const charge = state.charges.get(idParam(c));
  if (!charge) return notFound(c, 'Charge');
  if (!c.req.header('x-amz-pay-idempotency-key'))
    return amazonError(c, 400, 'MissingHeader', 'x-amz-pay-idempotency-key is required.');
  const body = bodyOf(c);
  const amount = body && isRecord(body.captureAmount) ? body.captureAmount : null;
  if (!amount) return amazonError(c, 400, 'MissingParameterValue', 'captureAmount is required.');
  if (charge.statusDetails.state !== 'Authorized')
    return amazonError(
      c,
      422,
      'InvalidChargeStatus',
      `You tried to capture a Charge in state ${charge.statusDetails.state}.`,
    );
  if (str(amount.currencyCode) !== 'JPY')
    return amazonError(c, 400, 'CurrencyMismatch', 'The currency does not match the Charge.');
  const value = Number(str(amount.amount));
  if (!Number.isSafeInteger(value) || value <= 0 || value > Number(charge.chargeAmount.amount)) {
    return amazonError(c, 400, 'TransactionAmountExceeded', 'The capture amount exceeds the authorized amount.');
  }
  charge.captureAmount = yen(value);
  setStatus(charge, 'Captured', null, null);
  deliverLater(state, 'CHARGE', charge.chargeId);
  return c.json(charge);
}

/** DELETE /v2/charges/:id/cancel: an authorisation not captured. */
function cancelCharge(state: AmazonPayState, c: ApiContext): Response {
  const charge = state.charges.get(idParam(c));
  if (!charge) return notFound(c, 'Charge');
  if (charge.statusDetails.state !== 'Authorized' && charge.statusDetails.state !== 'AuthorizationInitiated') {
    return amazonError(
      c,
      422,
      'InvalidChargeStatus',
      `You tried to cancel a Charge in state ${charge.statusDetails.state}.`,
    );
  }
  const body = bodyOf(c);
  setStatus(charge, 'Canceled', 'MerchantCanceled', str(body?.cancellationReason) ?? 'Canceled by the merchant.');
  deliverLater(state, 'CHARGE', charge.chargeId);
  return c.json(charge);
}

/** POST /v2/refunds: of a captured charge, settling after refundSettleMs. */
function createRefundOperation(state: AmazonPayState, c: ApiContext): Response {
  if (!c.req.header('x-amz-pay-idempotency-key'))
    return amazonError(c, 400, 'MissingHeader', 'x-amz-pay-idempotency-key is required.');
  const body = bodyOf(c);
  if (!body) return amazonError(c, 400, 'InvalidRequestFormat', 'The request body is not valid JSON.');
  const charge = state.charges.get(str(body.chargeId) ?? '');
  if (!charge) return notFound(c, 'Charge');
  const amount = isRecord(body.refundAmount) ? body.refundAmount : null;
  if (!amount) return amazonError(c, 400, 'MissingParameterValue', 'refundAmount is required.');
  if (str(amount.currencyCode) !== 'JPY')
    return amazonError(c, 400, 'CurrencyMismatch', 'The currency does not match the Charge.');
  const value = Number(str(amount.amount));
  if (!Number.isSafeInteger(value) || value <= 0)
    return amazonError(c, 400, 'InvalidParameterValue', 'refundAmount.amount must be a positive whole JPY amount.');
  const refund = createRefund(state, chargeView(state, charge), value);
  if ('reasonCode' in refund) return amazonError(c, refund.status, refund.reasonCode, refund.message);
  return c.json(refund, 201);
}

/** GET /v2/refunds/:id. */
function getRefund(state: AmazonPayState, c: ApiContext): Response {
  const refund = state.refunds.get(idParam(c));
  return refund ? c.json(refundView(state, refund)) : notFound(c, 'Refund');
}

/** GET /v2/disputes/:id. */
function getDispute(state: AmazonPayState, c: ApiContext): Response {
  const dispute = state.disputes.get(idParam(c));
  return dispute ? c.json(dispute) : notFound(c, 'Dispute');
}

/** GET /v2/chargePermissions/:id. */
function getChargePermission(state: AmazonPayState, c: ApiContext): Response {
  const p = state.permissions.get(idParam(c));
  if (!p) return notFound(c, 'Charge Permission');
  const s = state.sessions.get(p.sessionId)!;
  return c.json({
    chargePermissionId: p.chargePermissionId,
    chargePermissionReferenceId: null,
    buyer: s.buyer,
    releaseEnvironment: s.releaseEnvironment,
    shippingAddress: null,
    billingAddress: null,
    paymentPreferences: s.paymentPreferences,
    statusDetails: p.statusDetails,
    creationTimestamp: p.creationTimestamp,
    expirationTimestamp: amazonTime(Date.parse(fromAmazonTime(p.creationTimestamp)) + 180 * 86_400_000),
    merchantMetadata: s.merchantMetadata,
    platformId: s.platformId,
    limits: { amountLimit: s.paymentDetails.chargeAmount, amountBalance: yen(0) },
    presentmentCurrency: 'JPY',
    chargePermissionType: s.chargePermissionType,
  });
}

// --- the hosted page and SNS ------------------------------------------------------------------

/** GET /checkout/:id: the hosted page look-alike of an open session. */
function showCheckoutPage(state: AmazonPayState, c: Context): Response {
  const s = state.sessions.get(idParam(c));
  if (!s) return c.html(errorPage('このお支払いは見つかりません。'), 404);
  sessionView(state, s);
  if (s.statusDetails.state !== 'Open' || state.approved.has(s.checkoutSessionId)) {
    return c.html(errorPage('このお支払いはすでに手続きが終わっています。', returnTo(s, false)), 409);
  }
  return c.html(checkoutPage(s));
}

/** POST /checkout/:id: the buyer's button (approve, decline, cancel); 303 to the shop. */
async function submitCheckoutPage(state: AmazonPayState, c: Context): Promise<Response> {
  const s = state.sessions.get(idParam(c));
  if (!s) return c.html(errorPage('このお支払いは見つかりません。'), 404);
  sessionView(state, s);
  if (s.statusDetails.state !== 'Open' || state.approved.has(s.checkoutSessionId)) {
    return c.html(errorPage('このお支払いはすでに手続きが終わっています。', returnTo(s, false)), 409);
  }
  const form = await c.req.parseBody();
  const action = typeof form.action === 'string' ? form.action : '';
  if (action === 'approve') return c.redirect(approve(state, s.checkoutSessionId), 303);
  if (action === 'decline') return c.redirect(decline(state, s.checkoutSessionId), 303);
  if (action === 'cancel') return c.redirect(buyerCancel(state, s.checkoutSessionId), 303);
  return c.html(errorPage('操作が正しくありません。'), 400);
}

/** GET /sns/?Action=ConfirmSubscription|Unsubscribe: SNS's links in its messages. */
function snsSubscriptionAction(state: AmazonPayState, c: Context): Response {
  const action = c.req.query('Action');
  if (
    action === 'ConfirmSubscription' &&
    c.req.query('Token') === state.subscriptionToken &&
    c.req.query('TopicArn') === state.topicArn
  ) {
    state.subscriptionConfirmed = true;
    return c.body(
      `<ConfirmSubscriptionResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><ConfirmSubscriptionResult><SubscriptionArn>${state.subscriptionArn}</SubscriptionArn></ConfirmSubscriptionResult></ConfirmSubscriptionResponse>`,
      200,
      { 'content-type': 'text/xml' },
    );
  }
  if (action === 'Unsubscribe')
    return c.body('<UnsubscribeResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"/>', 200, {
      'content-type': 'text/xml',
    });
  return c.body('<ErrorResponse><Error><Type>Sender</Type><Code>InvalidParameter</Code></Error></ErrorResponse>', 400, {
    'content-type': 'text/xml',
  });
}

/** GET /sns/SimpleNotificationService-<id>.pem: SNS's signing certificate (SigningCertURL). */
function snsCertificate(state: AmazonPayState, c: Context): Response {
  if (c.req.param('file') !== `SimpleNotificationService-${state.certId}.pem`)
    return amazonError(c, 404, 'ResourceNotFound', 'The requested resource does not exist.');
  state.certificateDownloads += 1;
  return c.body(state.pems.cert, 200, { 'content-type': 'application/x-pem-file' });
}

// --- objects ----------------------------------------------------------------------------------

function sessionView(state: AmazonPayState, s: AmazonPayStandinSession): AmazonPayStandinSession {
  if (s.statusDetails.state === 'Open' && Date.now() > Date.parse(fromAmazonTime(s.expirationTimestamp))) {
    setStatus(s, 'Canceled', 'Expired', 'The Checkout Session expired after 24 hours.');
  }
  return s;
}

function chargeOf(state: AmazonPayState, id: string): AmazonPayStandinCharge {
  const charge = state.charges.get(id) ?? state.charges.get(state.sessions.get(id)?.chargeId ?? '');
  if (!charge) throw new Error(`amazonpay stand-in: no charge for ${id}`);
  return charge;
}

function openSession(state: AmazonPayState, id: string): AmazonPayStandinSession {
  const s = state.sessions.get(id);
  if (!s) throw new Error(`amazonpay stand-in: no checkout session ${id}`);
  sessionView(state, s);
  if (s.statusDetails.state !== 'Open' || state.approved.has(id))
    throw new Error(
      `amazonpay stand-in: session ${id} is ${s.statusDetails.state}${state.approved.has(id) ? ' (approved)' : ''}`,
    );
  return s;
}

function returnTo(s: AmazonPayStandinSession, cancel: boolean): string {
  const target =
    (cancel && s.webCheckoutDetails.checkoutCancelUrl) ||
    s.webCheckoutDetails.checkoutResultReturnUrl ||
    s.webCheckoutDetails.checkoutReviewReturnUrl!;
  const url = new URL(target);
  url.searchParams.set('amazonCheckoutSessionId', s.checkoutSessionId);
  return url.toString();
}

function approve(state: AmazonPayState, id: string): string {
  const s = openSession(state, id);
  state.approved.add(id);
  s.buyer = {
    buyerId: `amzn1.account.${token(28).toUpperCase()}`,
    name: '山田 太郎',
    email: 'buyer@example.jp',
    phoneNumber: null,
  };
  s.paymentPreferences = [{ paymentDescriptor: 'Visa ****1111 (Amazon Pay)' }];
  return returnTo(s, false);
}

function decline(state: AmazonPayState, id: string): string {
  const s = openSession(state, id);
  setStatus(s, 'Canceled', 'Declined', 'The buyer\u2019s payment instrument was declined.');
  return returnTo(s, false);
}

function buyerCancel(state: AmazonPayState, id: string): string {
  const s = openSession(state, id);
  setStatus(s, 'Canceled', 'BuyerCanceled', 'The buyer canceled checkout.');
  return returnTo(s, true);
}

function settleRefund(state: AmazonPayState, refund: AmazonPayStandinRefund): void {
  if (refund.statusDetails.state !== 'RefundInitiated') return;
  setStatus(refund, 'Refunded', null, null);
  const charge = state.charges.get(refund.chargeId)!;
  charge.refundedAmount = yen(Number(charge.refundedAmount.amount) + Number(refund.refundAmount.amount));
  deliverLater(state, 'REFUND', refund.refundId);
}

function refundView(state: AmazonPayState, refund: AmazonPayStandinRefund): AmazonPayStandinRefund {
  if (Date.now() - Date.parse(fromAmazonTime(refund.creationTimestamp)) >= (state.options.refundSettleMs ?? 0))
    settleRefund(state, refund);
  return refund;
}

function chargeView(state: AmazonPayState, charge: AmazonPayStandinCharge): AmazonPayStandinCharge {
  // Refunds that are due settle whenever anything reads their charge (as well as by their timer).
  for (const refund of state.refunds.values()) if (refund.chargeId === charge.chargeId) refundView(state, refund);
  return charge;
}

function createRefund(
  state: AmazonPayState,
  charge: AmazonPayStandinCharge,
  amount: number,
): AmazonPayStandinRefund | { status: 400 | 422; reasonCode: string; message: string } {
  if (charge.statusDetails.state !== 'Captured' || !charge.captureAmount) {
    return {
      status: 422,
      reasonCode: 'InvalidChargeStatus',
      message: `You tried to refund a Charge in state ${charge.statusDetails.state}.`,
    };
  }
  const pending = [...state.refunds.values()]
    .filter((r) => r.chargeId === charge.chargeId && r.statusDetails.state !== 'Declined')
    .reduce((sum, r) => sum + Number(r.refundAmount.amount), 0);
  if (pending + amount > Number(charge.captureAmount.amount)) {
    return {
      status: 400,
      reasonCode: 'TransactionAmountExceeded',
      message: 'The refund amount exceeds the captured amount that has not been refunded.',
    };
  }
  const refund: AmazonPayStandinRefund = {
    refundId: `${charge.chargePermissionId}-R${digits(6)}`,
    chargeId: charge.chargeId,
    creationTimestamp: amazonTime(),
    refundAmount: yen(amount),
    softDescriptor: 'AMZ*STANDIN',
    statusDetails: status('RefundInitiated', null, null),
    releaseEnvironment: charge.releaseEnvironment,
  };
  state.refunds.set(refund.refundId, refund);
  const timer = setTimeout(() => {
    state.timers.delete(timer);
    settleRefund(state, refund);
  }, state.options.refundSettleMs ?? 0);
  state.timers.add(timer);
  return refund;
}

// --- SNS ------------------------------------------------------------------------------------

function signSns(state: AmazonPayState, envelope: Record<string, string>, version: '1' | '2'): string {
  const keys =
    envelope.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  const text = keys
    .filter((k) => envelope[k] !== undefined)
    .map((k) => `${k}\n${envelope[k]}\n`)
    .join('');
  return sign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256', Buffer.from(text, 'utf8'), state.pems.private).toString(
    'base64',
  );
}

function snsMessage(
  state: AmazonPayState,
  fields: Record<string, string>,
  version: '1' | '2',
): { headers: Record<string, string>; rawBody: string } {
  const envelope: Record<string, string> = {
    ...fields,
    SignatureVersion: version,
    Signature: '',
    SigningCertURL: `${state.snsOrigin}/sns/SimpleNotificationService-${state.certId}.pem`,
  };
  envelope.Signature = signSns(state, envelope, version);
  if (envelope.Type === 'Notification') {
    envelope.UnsubscribeURL = `${state.snsOrigin}/sns/?Action=Unsubscribe&SubscriptionArn=${encodeURIComponent(state.subscriptionArn)}`;
  }
  return {
    headers: {
      'content-type': 'text/plain; charset=UTF-8',
      'x-amz-sns-message-type': envelope.Type!,
      'x-amz-sns-message-id': envelope.MessageId!,
      'x-amz-sns-topic-arn': state.topicArn,
      'x-amz-sns-subscription-arn': state.subscriptionArn,
      'user-agent': 'Amazon Simple Notification Service Agent',
    },
    rawBody: JSON.stringify(envelope, null, 2),
  };
}

function chargePermissionIdOf(state: AmazonPayState, objectType: AmazonPayObjectType, objectId: string): string {
  switch (objectType) {
    case 'CHARGE':
      return chargeOf(state, objectId).chargePermissionId;
    case 'REFUND':
      return chargeOf(state, state.refunds.get(objectId)?.chargeId ?? '').chargePermissionId;
    case 'CHARGEBACK':
      return chargeOf(state, state.disputes.get(objectId)?.chargeId ?? '').chargePermissionId;
    case 'CHARGE_PERMISSION':
      return objectId;
  }
}

function buildNotification(
  state: AmazonPayState,
  input: { objectType: AmazonPayObjectType; objectId: string; timestamp?: Date; signatureVersion?: '1' | '2' },
) {
  const chargePermissionId = chargePermissionIdOf(state, input.objectType, input.objectId);
  const environment = chargePermissionId.startsWith('P') ? 'Live' : 'Sandbox';
  const message = JSON.stringify({
    ReleaseEnvironment: environment,
    MerchantID: state.merchantId,
    ObjectType: input.objectType,
    ObjectId: input.objectId,
    ChargePermissionId: chargePermissionId,
    NotificationType: 'STATE_CHANGE',
    NotificationId: randomUUID(),
    NotificationVersion: 'V2',
  });
  return snsMessage(
    state,
    {
      Type: 'Notification',
      MessageId: randomUUID(),
      TopicArn: state.topicArn,
      Message: message,
      Timestamp: (input.timestamp ?? new Date()).toISOString(),
    },
    input.signatureVersion ?? state.snsVersion,
  );
}

async function post(
  state: AmazonPayState,
  built: { headers: Record<string, string>; rawBody: string },
): Promise<AmazonPayStandinNotification> {
  const record: AmazonPayStandinNotification = { ...built, deliveredStatus: null };
  state.notifications.push(record);
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

/** Builds and sends the IPN of an object's state change. */
function sendNotification(
  state: AmazonPayState,
  objectType: AmazonPayObjectType,
  objectId: string,
): Promise<AmazonPayStandinNotification> {
  return post(state, buildNotification(state, { objectType, objectId }));
}

/** Sends an IPN without holding up the API answer that caused it; close() waits for it. */
function deliverLater(state: AmazonPayState, objectType: AmazonPayObjectType, objectId: string): void {
  const p = sendNotification(state, objectType, objectId).finally(() => state.inFlight.delete(p));
  state.inFlight.add(p);
}

/** The :id of a route (handlers are registered from a table, so the path is not typed). */
function idParam(c: Context): string {
  return c.req.param('id') ?? '';
}

// ---------------------------------------------------------------------------------------------

/** Amazon Pay's timestamp format, e.g. 20191015T204327Z. */
function amazonTime(ms = Date.now()): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** Accepts both 20191015T204327Z and 2019-10-15T20:43:27Z (the SDK sends the latter in x-amz-pay-date). */
function fromAmazonTime(value: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z` : value;
}

function status(state: string, reasonCode: string | null, reasonDescription: string | null): Status {
  return { state, reasonCode, reasonDescription, lastUpdatedTimestamp: amazonTime() };
}

function setStatus(
  target: { statusDetails: Status },
  state: string,
  reasonCode: string | null,
  reasonDescription: string | null,
): void {
  target.statusDetails = status(state, reasonCode, reasonDescription);
}

const yen = (amount: number): Price => ({ amount: String(amount), currencyCode: 'JPY' });

function amazonError(c: Context, statusCode: number, reasonCode: string, message: string) {
  return c.json({ reasonCode, message }, statusCode as 400);
}

function notFound(c: Context, what: string) {
  return amazonError(c, 404, 'ResourceNotFound', `The ${what} you requested does not exist.`);
}

function checkoutPage(s: AmazonPayStandinSession): string {
  const amount = Number(s.paymentDetails.chargeAmount.amount).toLocaleString('ja-JP');
  const store = s.merchantMetadata.merchantStoreName ?? 'ストア';
  return page(
    'Amazon Pay でお支払い',
    `<p class="brand">amazon pay <span class="tag">テスト環境</span></p>
<h1>${escapeHtml(store)}</h1>
<p class="item">${escapeHtml(s.merchantMetadata.noteToBuyer ?? 'ご注文')}</p>
<p class="amount">￥${escapeHtml(amount)}</p>
<p class="pay">お支払い方法: Visa ****1111（Amazon アカウントに登録済み）</p>
<p class="note">これは Amazon Pay のお支払いページを模したローカルのテスト画面です。実際の請求は発生しません。</p>
<form method="post">
<button type="submit" name="action" value="approve" class="primary">お支払いを承認</button>
<button type="submit" name="action" value="decline">拒否</button>
<button type="submit" name="action" value="cancel" class="link">キャンセル</button>
</form>`,
  );
}

function errorPage(message: string, back?: string): string {
  const link = back ? `<p><a href="${escapeHtml(back)}">ストアに戻る</a></p>` : '';
  return page(
    'エラー',
    `<p class="brand">amazon pay <span class="tag">テスト環境</span></p><h1>お支払いを続けられません</h1><p>${escapeHtml(message)}</p>${link}`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Hiragino Sans","Noto Sans JP",sans-serif;background:#f3f3f3;color:#0f1111}
main{max-width:420px;margin:0 auto;padding:24px 16px}
.brand{font-weight:700;margin:0 0 12px;color:#232f3e}.tag{font-size:12px;background:#fff3c4;color:#7a5b00;padding:2px 6px;border-radius:4px;font-weight:400}
h1{font-size:20px;margin:0 0 8px}.item{margin:0 0 4px}.amount{font-size:32px;font-weight:700;margin:8px 0 12px}
.pay{font-size:14px;background:#fff;border:1px solid #ddd;border-radius:8px;padding:10px}.note{font-size:13px;color:#555}
button{display:block;width:100%;padding:14px;margin:10px 0;font-size:16px;border-radius:8px;border:1px solid #a88734;background:#fff;color:#0f1111}
button.primary{background:#ffd814;border-color:#fcd200}button.link{border:none;background:none;text-decoration:underline;color:#555}
</style></head><body><main>${body}</main></body></html>`;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 ? v : null;
}

function digits(n: number): string {
  const bytes = randomBytes(n);
  let out = '';
  for (let i = 0; i < n; i++) out += String(bytes[i]! % 10);
  return out;
}

function token(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[bytes[i]! % alphabet.length];
  return out;
}
