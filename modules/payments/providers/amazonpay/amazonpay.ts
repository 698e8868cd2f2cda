// Amazon Pay (Japan, Checkout v2) adapter: the official Node SDK signs every call (AMZN-PAY-RSASSA-PSS-V2); IPNs arrive as signed Amazon SNS messages.
//
// How an Amazon Pay payment flows here (see amazonpay.md for the documentation it follows):
// - createCheckout creates a Checkout Session in "additional payment button" style without the button:
//   checkoutMode 'ProcessOrder', paymentIntent 'AuthorizeWithCapture', amount and our order id
//   (merchantMetadata.merchantReferenceId) set up front, and sends the member to
//   webCheckoutDetails.amazonPayRedirectUrl. providerRef is the checkoutSessionId.
// - Amazon sends the member back to our return URL with `?amazonCheckoutSessionId=…`. Amazon Pay does
//   not finalise the payment until the merchant calls Complete Checkout Session, so fetchPayment does
//   that (with the order's amount, which Amazon checks) when the return parameters name this order's
//   session, and reads the session and its Charge otherwise. Completing twice is harmless: the second
//   call is refused with InvalidCheckoutSessionStatus and the session is read instead.
// - IPNs are Amazon SNS messages. verifyWebhook checks the SNS signature with the certificate from
//   SigningCertURL (only from an allowed host), then re-reads the object it names (Charge, Refund,
//   Dispute) with our key: the envelope only names an object, the API says what state it is in.
//
// Pointing the SDK elsewhere: the SDK's only switch is `overrideServiceUrl`, which forces https:// and
// sets NODE_TLS_REJECT_UNAUTHORIZED=0 for the whole process (it is meant for Amazon's internal test
// hosts). That would switch off certificate checks for every HTTPS call the shop makes, so it is never
// used. Instead AmazonPayClient.apiCall is overridden in a subclass of the SDK's WebStoreClient: it still
// uses the SDK's own prepareOptions/signHeaders (the signature is the SDK's, byte for byte) and its
// axios transport, and only chooses the base URL (and adds a timeout, which the SDK lacks). The signed
// x-amz-pay-host stays pay-api.amazon.jp, as the SDK computes it from the region.
import { createHash, verify as verifySignature, X509Certificate, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';
import { z } from 'zod';
import { ProviderError, WebhookRejected, isRetryableStatus } from '../types';
import type {
  CheckoutRequest,
  CheckoutStart,
  OrderRef,
  PaymentProvider,
  ProviderPayment,
  VerifiedWebhookEvent,
  WebhookRequest,
} from '../types';

export interface AmazonPayProviderOptions {
  /** Public key id from Seller Central (e.g. SANDBOX-AEXAMPLE… or LIVE-AEXAMPLE…). */
  publicKeyId: string;
  /** The RSA private key (PEM) whose public key was registered in Seller Central for publicKeyId. */
  privateKey: string | Buffer;
  /** Store ID (the Login with Amazon client id, amzn1.application-oa2-client.…). */
  storeId: string;
  /** Shown to the buyer on Amazon's page and in Amazon's e-mails (at most 50 characters). */
  merchantStoreName?: string;
  /** Only for public key ids without a SANDBOX-/LIVE- prefix: send requests to the sandbox. */
  sandbox?: boolean;
  /**
   * 'AuthorizeWithCapture' (default): Amazon captures when checkout completes. 'Authorize': Amazon only
   * authorises and fetchPayment captures (idempotently) the first time it sees the authorisation.
   */
  paymentIntent?: 'AuthorizeWithCapture' | 'Authorize';
  /** API base URL; https://pay-api.amazon.jp in production, the stand-in's URL in tests and demos. */
  apiBase?: string;
  /** Per-request timeout in milliseconds (API calls, certificate downloads). Default 15 s. */
  timeoutMs?: number;
  /** SNS certificate and SubscribeURL hosts accepted over https. Default: sns.<region>.amazonaws.com(.cn). */
  snsHostPattern?: RegExp;
  /**
   * Extra origins (scheme://host:port, exact match) trusted to serve SNS certificates and SubscribeURLs,
   * plain http allowed: only for tests and the local demo, where the stand-in plays SNS.
   */
  trustedSnsOrigins?: string[];
  /** When set, IPNs from any other SNS topic are rejected (AWS recommends checking the TopicArn). */
  snsTopicArns?: string[];
  /** How old an SNS message may be. Default 3600 s (SNS retries keep the original Timestamp). */
  snsMaxAgeSeconds?: number;
  /** Confirm SNS subscriptions by GETting SubscribeURL (only on an allowed host). Default true. */
  confirmSubscriptions?: boolean;
  /** Told about every verified SubscriptionConfirmation / UnsubscribeConfirmation, for the log. */
  onSubscriptionMessage?: (info: {
    type: string;
    topicArn: string;
    subscribeUrl: string | null;
    confirmed: boolean;
  }) => void;
  /** Injected fetch for certificates and SubscribeURL (tests); defaults to the global fetch. */
  fetch?: typeof fetch;
  /** For tests: the clock used to judge SNS message age and certificate validity. */
  now?: () => number;
}

// ---------------------------------------------------------------------------------------------
// The SDK (CommonJS, no type declarations): only the parts used here are typed.

interface SdkConfig {
  publicKeyId: string;
  privateKey: string | Buffer;
  region: string;
  sandbox?: boolean;
  algorithm?: string;
}
type SdkHeaders = Record<string, string>;
interface SdkRequest {
  method: string;
  urlFragment: string;
  payload?: unknown;
  headers?: SdkHeaders | null;
  queryParams?: Record<string, string> | null;
}
interface SdkResponse {
  status: number;
  data: unknown;
}
interface SdkWebStoreClient {
  readonly configArgs: Readonly<SdkConfig>;
  apiCall(options: SdkRequest, maxRedirects?: number): Promise<SdkResponse>;
  createCheckoutSession(payload: unknown, headers: SdkHeaders): Promise<SdkResponse>;
  getCheckoutSession(checkoutSessionId: string): Promise<SdkResponse>;
  completeCheckoutSession(checkoutSessionId: string, payload: unknown): Promise<SdkResponse>;
  getCharge(chargeId: string): Promise<SdkResponse>;
  captureCharge(chargeId: string, payload: unknown, headers: SdkHeaders): Promise<SdkResponse>;
  cancelCharge(chargeId: string, payload: unknown): Promise<SdkResponse>;
  createRefund(payload: unknown, headers: SdkHeaders): Promise<SdkResponse>;
  getRefund(refundId: string): Promise<SdkResponse>;
  getDispute(disputeId: string): Promise<SdkResponse>;
  getChargePermission(chargePermissionId: string): Promise<SdkResponse>;
}
interface SdkModule {
  WebStoreClient: new (config: SdkConfig) => SdkWebStoreClient;
}
interface SdkHelper {
  prepareOptions(config: Readonly<SdkConfig>, options: SdkRequest): SdkRequest & { payload?: string };
  signHeaders(config: Readonly<SdkConfig>, options: SdkRequest): SdkHeaders;
  retryLogic(axiosOptions: Record<string, unknown>, count: number): Promise<SdkResponse>;
}
interface SdkConstants {
  API_ENDPOINTS: Record<string, string>;
  DEFAULT_REDIRECT: number;
}

const requireCjs = createRequire(import.meta.url);
const SDK_PACKAGE = '@amazonpay/amazon-pay-api-sdk-nodejs';
const sdk = requireCjs(SDK_PACKAGE) as SdkModule;
const sdkHelper = requireCjs(`${SDK_PACKAGE}/src/clientHelper.js`) as SdkHelper;
const sdkConstants = requireCjs(`${SDK_PACKAGE}/src/constants.js`) as SdkConstants;

/** The Japanese region's API host, as the SDK knows it. */
export const AMAZON_PAY_JP_HOST = sdkConstants.API_ENDPOINTS.jp ?? 'pay-api.amazon.jp';

/** The SDK's canonical query string (sorted keys, encodeURIComponent values). */
function sdkQueryString(params: Record<string, string> | null | undefined): string {
  if (!params) return '';
  return `?${Object.keys(params)
    .sort()
    .map((k) => `${k}=${encodeURIComponent(params[k]!)}`)
    .join('&')}`;
}

/**
 * The SDK's WebStoreClient with the transport's base URL chosen by us. Signing is untouched: the request
 * goes through the SDK's prepareOptions and signHeaders exactly as in AmazonPayClient.apiCall.
 */
class RoutedWebStoreClient extends sdk.WebStoreClient {
  constructor(
    config: SdkConfig,
    private readonly route: { base: string; timeoutMs: number },
  ) {
    super(config);
  }

  override apiCall(options: SdkRequest, maxRedirects = sdkConstants.DEFAULT_REDIRECT): Promise<SdkResponse> {
    const prepared = sdkHelper.prepareOptions(this.configArgs, options);
    prepared.headers = sdkHelper.signHeaders(this.configArgs, prepared);
    // The same axios options as the SDK's invokeApi, but our base URL and a timeout.
    return sdkHelper.retryLogic(
      {
        method: prepared.method,
        json: false,
        headers: prepared.headers,
        url: `${this.route.base}/${prepared.urlFragment}${sdkQueryString(prepared.queryParams)}`,
        data: prepared.payload,
        maxRedirects,
        timeout: this.route.timeoutMs,
        validateStatus: (status: number) => (status >= 200 && status < 300) || (maxRedirects === 0 && status === 303),
      },
      1,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Amazon Pay objects (only the fields read here).

const price = z.object({ amount: z.string(), currencyCode: z.string() });
const statusDetails = z.object({
  state: z.string(),
  reasonCode: z.string().nullish(),
  reasonDescription: z.string().nullish(),
});
const merchantMetadata = z.object({ merchantReferenceId: z.string().nullish() }).nullish();

const checkoutSessionSchema = z.object({
  checkoutSessionId: z.string(),
  statusDetails,
  chargeId: z.string().nullish(),
  chargePermissionId: z.string().nullish(),
  merchantMetadata,
  paymentDetails: z.object({ chargeAmount: price.nullish() }).nullish(),
  webCheckoutDetails: z.object({ amazonPayRedirectUrl: z.string().nullish() }).nullish(),
});
const chargeSchema = z.object({
  chargeId: z.string(),
  chargePermissionId: z.string().nullish(),
  chargeAmount: price,
  captureAmount: price.nullish(),
  refundedAmount: price.nullish(),
  merchantMetadata,
  statusDetails,
});
const refundSchema = z.object({ refundId: z.string(), chargeId: z.string(), refundAmount: price, statusDetails });
const disputeSchema = z.object({
  disputeId: z.string(),
  chargeId: z.string(),
  statusDetails: z.object({ state: z.string(), resolution: z.string().nullish(), reasonCode: z.string().nullish() }),
});
const chargePermissionSchema = z.object({ chargePermissionId: z.string(), merchantMetadata, statusDetails });

type CheckoutSession = z.infer<typeof checkoutSessionSchema>;
type Charge = z.infer<typeof chargeSchema>;

const snsEnvelopeSchema = z.object({
  Type: z.string(),
  MessageId: z.string().min(1),
  TopicArn: z.string().min(1),
  Message: z.string(),
  Timestamp: z.string(),
  SignatureVersion: z.string(),
  Signature: z.string().min(1),
  SigningCertURL: z.string().min(1),
  Subject: z.string().optional(),
  SubscribeURL: z.string().optional(),
  Token: z.string().optional(),
  UnsubscribeURL: z.string().optional(),
});
type SnsEnvelope = z.infer<typeof snsEnvelopeSchema>;

/** The IPN inside an SNS Notification (NotificationVersion V2; older pages spell the keys in camelCase). */
const ipnSchema = z.object({
  ObjectType: z.string().min(1),
  ObjectId: z.string().min(1),
  ChargePermissionId: z.string().nullish(),
  NotificationType: z.string().nullish(),
  NotificationId: z.string().nullish(),
});

/** An error answer from Amazon Pay, with its HTTP status and reasonCode kept for the adapter's logic. */
export class AmazonPayApiError extends ProviderError {
  constructor(
    message: string,
    retryable: boolean,
    readonly status: number | null,
    readonly reasonCode: string | null,
    cause?: unknown,
  ) {
    super(message, retryable, cause);
    this.name = 'AmazonPayApiError';
  }
}

function apiError(error: unknown, action: string): AmazonPayApiError {
  const e = error as {
    isAxiosError?: boolean;
    response?: { status?: number; data?: unknown };
    code?: string;
    message?: string;
  } | null;
  const status = e?.response?.status;
  if (typeof status !== 'number') {
    // No HTTP answer: network trouble or a timeout (axios), or the SDK refusing its input (e.g. a bad key).
    const network = e?.isAxiosError === true;
    return new AmazonPayApiError(
      `Amazon Pay ${action}: ${network ? 'network error' : 'request failed'} (${e?.code ?? e?.message ?? String(error)})`,
      network,
      null,
      null,
      error,
    );
  }
  const data = (e?.response?.data ?? {}) as { reasonCode?: unknown; message?: unknown };
  const reasonCode = typeof data.reasonCode === 'string' ? data.reasonCode : null;
  const detail = typeof data.message === 'string' ? data.message : '';
  const retryable = isRetryableStatus(status);
  return new AmazonPayApiError(
    `Amazon Pay ${action}: HTTP ${status} ${reasonCode ?? ''} ${detail}`.trim(),
    retryable,
    status,
    reasonCode,
    error,
  );
}

function parseBody<S extends z.ZodType>(schema: S, response: SdkResponse, action: string): z.infer<S> {
  const parsed = schema.safeParse(response.data);
  if (!parsed.success) throw new ProviderError(`Amazon Pay ${action}: unexpected response`, false, parsed.error);
  return parsed.data;
}

/**
 * Amazon Pay amounts are decimal strings; JPY has no minor unit, so only whole yen are accepted.
 * @example jpyFromAmazon({ amount: '1000', currencyCode: 'JPY' }) === 1000
 */
export function jpyFromAmazon(p: { amount: string; currencyCode: string }): number {
  if (p.currencyCode !== 'JPY') throw new ProviderError(`Amazon Pay answered in ${p.currencyCode}, not JPY`, false);
  const m = /^(\d{1,12})(?:\.0+)?$/.exec(p.amount.trim());
  if (!m) throw new ProviderError(`Amazon Pay amount ${p.amount} is not a whole number of yen`, false);
  return Number(m[1]);
}

const jpy = (amountJpy: number) => ({ amount: String(amountJpy), currencyCode: 'JPY' });

/** Amazon idempotency keys: at most 32 characters of [A-Za-z0-9_-], derived so a retry reuses the key. */
function idempotencyKey(kind: string, ...parts: string[]): string {
  const digest = createHash('sha256').update(parts.join('\n')).digest('base64url');
  return `${kind}-${digest}`.slice(0, 32);
}

/** Default SNS host: the regional SNS endpoints (the same pattern as AWS's own message validators). */
export const SNS_HOST_PATTERN = /^sns\.[a-z0-9-]{3,}\.amazonaws\.com(\.cn)?$/i;

/** The SNS string to sign: the documented keys, each as "Key\nValue\n", in this order, when present. */
export function snsStringToSign(message: Partial<Record<string, string>>): string {
  const keys =
    message.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  let out = '';
  for (const key of keys) {
    const value = message[key];
    if (value !== undefined) out += `${key}\n${value}\n`;
  }
  return out;
}

const MAX_CERTIFICATE_BYTES = 16_384;

/** @example const amazonpay = createAmazonpayProvider({ publicKeyId, privateKey, storeId }) */
export function createAmazonpayProvider(options: AmazonPayProviderOptions): PaymentProvider {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const base = (options.apiBase ?? `https://${AMAZON_PAY_JP_HOST}`).replace(/\/+$/, '');
  const client = new RoutedWebStoreClient(
    {
      publicKeyId: options.publicKeyId,
      privateKey: options.privateKey,
      region: 'jp',
      sandbox: options.sandbox ?? false,
      algorithm: 'AMZN-PAY-RSASSA-PSS-V2',
    },
    { base, timeoutMs },
  );
  const paymentIntent = options.paymentIntent ?? 'AuthorizeWithCapture';
  const storeName = (options.merchantStoreName ?? 'オリパショップ').slice(0, 50);
  const httpFetch = options.fetch ?? ((input: string | URL | Request, init?: RequestInit) => fetch(input, init));
  const clock = options.now ?? (() => Date.now());
  const snsHost = options.snsHostPattern ?? SNS_HOST_PATTERN;
  const trustedOrigins = new Set((options.trustedSnsOrigins ?? []).map((o) => new URL(o).origin));
  const maxAgeMs = (options.snsMaxAgeSeconds ?? 3600) * 1000;
  const certificates = new Map<string, { key: KeyObject; validTo: number }>();

  async function call(action: string, run: () => Promise<SdkResponse>): Promise<SdkResponse> {
    try {
      return await run();
    } catch (error) {
      throw apiError(error, action);
    }
  }

  async function getSession(checkoutSessionId: string): Promise<CheckoutSession> {
    const res = await call('getCheckoutSession', () => client.getCheckoutSession(checkoutSessionId));
    return parseBody(checkoutSessionSchema, res, 'getCheckoutSession');
  }

  async function getCharge(chargeId: string): Promise<Charge> {
    const res = await call('getCharge', () => client.getCharge(chargeId));
    return parseBody(chargeSchema, res, 'getCharge');
  }

  /** Confirms the member came back; Amazon finalises the payment only now. Idempotent by re-reading. */
  async function complete(order: OrderRef): Promise<CheckoutSession | { failed: string }> {
    try {
      const res = await client.completeCheckoutSession(order.providerRef, { chargeAmount: jpy(order.amountJpy) });
      return parseBody(checkoutSessionSchema, res, 'completeCheckoutSession');
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      const e = apiError(error, 'completeCheckoutSession');
      // Already completed (by an earlier call) or canceled (declined, abandoned, expired): read what it is.
      if (e.reasonCode === 'InvalidCheckoutSessionStatus' || e.reasonCode === 'CheckoutSessionCanceled')
        return getSession(order.providerRef);
      // Our amount is not the session's: nothing is finalised, and Amazon cancels the session in 24 hours.
      if (e.reasonCode === 'AmountMismatch') return { failed: 'AmountMismatch' };
      throw e;
    }
  }

  function ownedBy(
    orderId: string,
    meta: { merchantReferenceId?: string | null } | null | undefined,
    what: string,
  ): void {
    const ref = meta?.merchantReferenceId;
    if (ref && ref !== orderId)
      throw new ProviderError(`Amazon Pay ${what} belongs to order ${ref}, not ${orderId}`, false);
  }

  async function paymentFromCharge(order: OrderRef, charge: Charge): Promise<ProviderPayment> {
    ownedBy(order.orderId, charge.merchantMetadata, `charge ${charge.chargeId}`);
    const reason = [charge.statusDetails.reasonCode, charge.statusDetails.reasonDescription].filter(Boolean).join(': ');
    switch (charge.statusDetails.state) {
      case 'Captured': {
        const captured = jpyFromAmazon(charge.captureAmount ?? charge.chargeAmount);
        const refunded = charge.refundedAmount ? jpyFromAmazon(charge.refundedAmount) : 0;
        if (refunded > 0)
          return { status: 'refunded', amountJpy: captured, refundedJpy: refunded, providerPaymentId: charge.chargeId };
        return { status: 'paid', amountJpy: captured, providerPaymentId: charge.chargeId };
      }
      case 'Authorized': {
        // Authorised but not captured (paymentIntent 'Authorize'): capture now. The key is per charge, so
        // a second fetch (or a retry after a timeout) gets Amazon's saved answer, not a second capture.
        const res = await call('captureCharge', () =>
          client.captureCharge(
            charge.chargeId,
            { captureAmount: charge.chargeAmount },
            { 'x-amz-pay-idempotency-key': idempotencyKey('cp', charge.chargeId) },
          ),
        );
        const captured = parseBody(chargeSchema, res, 'captureCharge');
        return captured.statusDetails.state === 'Authorized'
          ? { status: 'pending' }
          : paymentFromCharge(order, captured);
      }
      case 'AuthorizationInitiated':
      case 'CaptureInitiated':
        return { status: 'pending' };
      case 'Declined':
        return { status: 'failed', reason: `amazonpay:${reason || 'Declined'}` };
      case 'Canceled':
        return { status: 'canceled' };
      default:
        throw new ProviderError(
          `Amazon Pay charge ${charge.chargeId} is in unknown state ${charge.statusDetails.state}`,
          false,
        );
    }
  }

  async function paymentFromSession(order: OrderRef, session: CheckoutSession): Promise<ProviderPayment> {
    switch (session.statusDetails.state) {
      case 'Open':
        return { status: 'pending' };
      case 'Completed':
        if (!session.chargeId)
          throw new ProviderError(
            `Amazon Pay checkout session ${session.checkoutSessionId} completed without a charge`,
            false,
          );
        return paymentFromCharge(order, await getCharge(session.chargeId));
      case 'Canceled': {
        const code = session.statusDetails.reasonCode ?? 'Canceled';
        // The member left (or never came back within 24 hours): nothing was charged.
        if (code === 'BuyerCanceled' || code === 'Expired') return { status: 'canceled' };
        return {
          status: 'failed',
          reason: `amazonpay:${[code, session.statusDetails.reasonDescription].filter(Boolean).join(': ')}`,
        };
      }
      default:
        throw new ProviderError(
          `Amazon Pay checkout session is in unknown state ${session.statusDetails.state}`,
          false,
        );
    }
  }

  // --- SNS ------------------------------------------------------------------------------------

  function trustedSnsUrl(raw: string, requirePem: boolean): boolean {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return false;
    }
    if (url.username || url.password) return false;
    if (requirePem && !url.pathname.endsWith('.pem')) return false;
    if (trustedOrigins.has(url.origin)) return true;
    return url.protocol === 'https:' && url.port === '' && snsHost.test(url.hostname);
  }

  async function certificateKey(certUrl: string): Promise<KeyObject> {
    const now = clock();
    const cached = certificates.get(certUrl);
    if (cached && cached.validTo > now) return cached.key;
    let response: Response;
    try {
      response = await httpFetch(certUrl, { redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      // SNS retries a delivery we answer with 5xx; the message may well be genuine.
      throw new ProviderError('Amazon Pay IPN: could not download the SNS signing certificate', true, error);
    }
    if (!response.ok) {
      await response.body?.cancel();
      if (response.status >= 500)
        throw new ProviderError(`Amazon Pay IPN: certificate host answered ${response.status}`, true);
      throw new WebhookRejected(`SNS signing certificate not available (${response.status})`, 401);
    }
    const pem = await response.text();
    if (pem.length > MAX_CERTIFICATE_BYTES) throw new WebhookRejected('SNS signing certificate is too large', 401);
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(pem);
    } catch {
      throw new WebhookRejected('SNS signing certificate is unreadable', 401);
    }
    const validFrom = Date.parse(cert.validFrom);
    const validTo = Date.parse(cert.validTo);
    if (!(validFrom <= now && now <= validTo))
      throw new WebhookRejected('SNS signing certificate is not valid now', 401);
    if (certificates.size >= 16) certificates.delete(certificates.keys().next().value!);
    certificates.set(certUrl, { key: cert.publicKey, validTo });
    return cert.publicKey;
  }

  async function verifiedEnvelope(request: WebhookRequest): Promise<SnsEnvelope> {
    let json: unknown;
    try {
      json = JSON.parse(request.rawBody);
    } catch {
      throw new WebhookRejected('body is not JSON', 400);
    }
    const parsed = snsEnvelopeSchema.safeParse(json);
    if (!parsed.success) throw new WebhookRejected('not a signed Amazon SNS message', 400);
    const env = parsed.data;
    // SNS names the message in headers too; they must be there and agree with the signed body.
    const typeHeader = request.headers.get('x-amz-sns-message-type');
    const idHeader = request.headers.get('x-amz-sns-message-id');
    if (!typeHeader || !idHeader)
      throw new WebhookRejected('missing x-amz-sns-message-type / x-amz-sns-message-id header', 400);
    const topicHeader = request.headers.get('x-amz-sns-topic-arn');
    if (
      typeHeader !== env.Type ||
      idHeader !== env.MessageId ||
      (topicHeader !== null && topicHeader !== env.TopicArn)
    ) {
      throw new WebhookRejected('SNS headers do not match the message', 400);
    }
    if (
      env.Type !== 'Notification' &&
      env.Type !== 'SubscriptionConfirmation' &&
      env.Type !== 'UnsubscribeConfirmation'
    ) {
      throw new WebhookRejected(`unknown SNS message type ${env.Type}`, 400);
    }
    if (env.Type !== 'Notification' && (!env.SubscribeURL || !env.Token))
      throw new WebhookRejected('SNS confirmation without SubscribeURL/Token', 400);
    if (env.SignatureVersion !== '1' && env.SignatureVersion !== '2')
      throw new WebhookRejected(`unsupported SNS SignatureVersion ${env.SignatureVersion}`, 400);
    if (options.snsTopicArns && !options.snsTopicArns.includes(env.TopicArn))
      throw new WebhookRejected('unexpected SNS topic', 403);
    // The certificate is only fetched from SNS itself (or the configured stand-in): a forged message could
    // otherwise name a certificate of its own.
    if (!trustedSnsUrl(env.SigningCertURL, true))
      throw new WebhookRejected('SigningCertURL is not an Amazon SNS certificate URL', 403);
    const sentAt = Date.parse(env.Timestamp);
    if (Number.isNaN(sentAt)) throw new WebhookRejected('SNS Timestamp is unreadable', 400);
    const age = clock() - sentAt;
    if (age > maxAgeMs) throw new WebhookRejected('SNS message is too old', 400);
    if (age < -300_000) throw new WebhookRejected('SNS message is from the future', 400);
    const key = await certificateKey(env.SigningCertURL);
    const algorithm = env.SignatureVersion === '1' ? 'RSA-SHA1' : 'RSA-SHA256';
    let ok = false;
    try {
      ok = verifySignature(
        algorithm,
        Buffer.from(snsStringToSign(env), 'utf8'),
        key,
        Buffer.from(env.Signature, 'base64'),
      );
    } catch {
      ok = false;
    }
    if (!ok) throw new WebhookRejected('SNS signature does not verify', 401);
    return env;
  }

  /** Re-reads the object an IPN names; a signed envelope only says which object changed. */
  async function eventFromIpn(env: SnsEnvelope): Promise<VerifiedWebhookEvent> {
    let raw: unknown;
    try {
      raw = JSON.parse(env.Message);
    } catch {
      throw new WebhookRejected('IPN Message is not JSON', 400);
    }
    const r = (raw ?? {}) as Record<string, unknown>;
    const parsed = ipnSchema.safeParse({
      ObjectType: r.ObjectType ?? r.objectType,
      ObjectId: r.ObjectId ?? r.objectId,
      ChargePermissionId: r.ChargePermissionId ?? r.chargePermissionId,
      NotificationType: r.NotificationType ?? r.notificationType,
      NotificationId: r.NotificationId ?? r.notificationId,
    });
    if (!parsed.success) throw new WebhookRejected('IPN without ObjectType/ObjectId', 400);
    const ipn = parsed.data;
    const type = `${ipn.ObjectType}.${ipn.NotificationType ?? 'STATE_CHANGE'}`;
    const event = (orderId: string | null | undefined, hint: VerifiedWebhookEvent['hint']): VerifiedWebhookEvent => ({
      eventId: env.MessageId,
      type,
      orderId: orderId ?? null,
      // The IPN names charges, refunds and disputes, never the checkout session we keep as providerRef.
      providerRef: null,
      hint,
    });
    try {
      switch (ipn.ObjectType.toUpperCase()) {
        case 'CHARGE': {
          const charge = await getCharge(ipn.ObjectId);
          return event(charge.merchantMetadata?.merchantReferenceId, chargeHint(charge));
        }
        case 'REFUND': {
          const res = await call('getRefund', () => client.getRefund(ipn.ObjectId));
          const refund = parseBody(refundSchema, res, 'getRefund');
          const charge = await getCharge(refund.chargeId);
          return event(
            charge.merchantMetadata?.merchantReferenceId,
            refund.statusDetails.state === 'Refunded' ? 'refunded' : 'unknown',
          );
        }
        case 'CHARGEBACK': {
          const res = await call('getDispute', () => client.getDispute(ipn.ObjectId));
          const dispute = parseBody(disputeSchema, res, 'getDispute');
          const charge = await getCharge(dispute.chargeId);
          return event(charge.merchantMetadata?.merchantReferenceId, disputeHint(dispute.statusDetails));
        }
        case 'CHARGE_PERMISSION': {
          const res = await call('getChargePermission', () => client.getChargePermission(ipn.ObjectId));
          const permission = parseBody(chargePermissionSchema, res, 'getChargePermission');
          return event(permission.merchantMetadata?.merchantReferenceId, 'unknown');
        }
        default:
          return event(null, 'unknown');
      }
    } catch (error) {
      // Signed by SNS but unknown to the API with our key (e.g. a Sandbox IPN at a Live shop).
      if (error instanceof AmazonPayApiError && error.status === 404)
        throw new WebhookRejected(`IPN names an unknown ${ipn.ObjectType}`, 404);
      throw error;
    }
  }

  async function confirmSubscription(env: SnsEnvelope): Promise<boolean> {
    const url = env.SubscribeURL!;
    if (env.Type !== 'SubscriptionConfirmation' || options.confirmSubscriptions === false || !trustedSnsUrl(url, false))
      return false;
    let response: Response;
    try {
      response = await httpFetch(url, { redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new ProviderError('Amazon Pay IPN: could not confirm the SNS subscription', true, error);
    }
    await response.body?.cancel();
    if (response.status >= 500)
      throw new ProviderError(`Amazon Pay IPN: SubscribeURL answered ${response.status}`, true);
    return response.ok;
  }

  return {
    method: 'amazonpay',

    async createCheckout(request: CheckoutRequest): Promise<CheckoutStart> {
      if (!Number.isSafeInteger(request.amountJpy) || request.amountJpy <= 0)
        throw new ProviderError(`invalid amount ${request.amountJpy}`, false);
      const payload = {
        webCheckoutDetails: {
          checkoutResultReturnUrl: request.returnUrl,
          checkoutCancelUrl: request.cancelUrl,
          checkoutMode: 'ProcessOrder',
        },
        storeId: options.storeId,
        chargePermissionType: 'OneTime',
        paymentDetails: {
          paymentIntent,
          canHandlePendingAuthorization: false,
          chargeAmount: jpy(request.amountJpy),
          presentmentCurrency: 'JPY',
        },
        merchantMetadata: {
          merchantReferenceId: request.orderId,
          merchantStoreName: storeName,
          noteToBuyer: request.description.slice(0, 255),
        },
      };
      // One key per order: a retried call gets the same session back instead of a second one.
      const res = await call('createCheckoutSession', () =>
        client.createCheckoutSession(payload, {
          'x-amz-pay-idempotency-key': idempotencyKey('cs', request.orderId),
        }),
      );
      const session = parseBody(checkoutSessionSchema, res, 'createCheckoutSession');
      const redirectUrl = session.webCheckoutDetails?.amazonPayRedirectUrl;
      if (!redirectUrl) throw new ProviderError('Amazon Pay createCheckoutSession: no amazonPayRedirectUrl', false);
      return { redirectUrl, providerRef: session.checkoutSessionId };
    },

    async fetchPayment(order: OrderRef, returnParams?: URLSearchParams): Promise<ProviderPayment> {
      let session = await getSession(order.providerRef);
      ownedBy(order.orderId, session.merchantMetadata, `checkout session ${session.checkoutSessionId}`);
      // Only the member's return (naming this very session) completes it; without it an open session
      // is simply not paid yet, and Amazon cancels it after 24 hours without charging anything.
      if (
        session.statusDetails.state === 'Open' &&
        returnParams?.get('amazonCheckoutSessionId') === order.providerRef
      ) {
        const completed = await complete(order);
        if ('failed' in completed) return { status: 'failed', reason: `amazonpay:${completed.failed}` };
        session = completed;
      }
      return paymentFromSession(order, session);
    },

    async cancel(order: OrderRef): Promise<void> {
      const session = await getSession(order.providerRef);
      ownedBy(order.orderId, session.merchantMetadata, `checkout session ${session.checkoutSessionId}`);
      // Open: Amazon has no call to cancel a session; it is not finalised without our Complete call and
      // Amazon cancels it after 24 hours. Canceled: nothing to do.
      if (session.statusDetails.state !== 'Completed' || !session.chargeId) return;
      const charge = await getCharge(session.chargeId);
      switch (charge.statusDetails.state) {
        case 'Canceled':
        case 'Declined':
          return;
        case 'Authorized':
        case 'AuthorizationInitiated':
          try {
            await client.cancelCharge(charge.chargeId, { cancellationReason: 'Order canceled by the shop' });
          } catch (error) {
            const e = apiError(error, 'cancelCharge');
            // Canceled meanwhile (a concurrent cancel): read it; anything else is a real refusal.
            if (
              e.reasonCode === 'InvalidChargeStatus' &&
              (await getCharge(charge.chargeId)).statusDetails.state === 'Canceled'
            )
              return;
            throw e;
          }
          return;
        default:
          throw new ProviderError(
            `Amazon Pay charge ${charge.chargeId} is ${charge.statusDetails.state}; refund it instead of canceling`,
            false,
          );
      }
    },

    async refund(order, amountJpy, _reason): Promise<void> {
      if (!Number.isSafeInteger(amountJpy) || amountJpy <= 0)
        throw new ProviderError(`invalid refund amount ${amountJpy}`, false);
      // Create Refund has no free-text reason (softDescriptor is the buyer's statement line), so the
      // reason stays in the shop's records. One key per (order, charge, amount): a retry is not a second refund.
      const res = await call('createRefund', () =>
        client.createRefund(
          { chargeId: order.providerPaymentId, refundAmount: jpy(amountJpy) },
          {
            'x-amz-pay-idempotency-key': idempotencyKey(
              'rf',
              order.orderId,
              order.providerPaymentId,
              String(amountJpy),
            ),
          },
        ),
      );
      const refund = parseBody(refundSchema, res, 'createRefund');
      if (refund.statusDetails.state === 'Declined') {
        throw new ProviderError(
          `Amazon Pay declined the refund: ${refund.statusDetails.reasonCode ?? ''} ${refund.statusDetails.reasonDescription ?? ''}`.trim(),
          false,
        );
      }
    },

    async verifyWebhook(request: WebhookRequest): Promise<VerifiedWebhookEvent[]> {
      const env = await verifiedEnvelope(request);
      if (env.Type === 'Notification') return [await eventFromIpn(env)];
      const confirmed = await confirmSubscription(env);
      options.onSubscriptionMessage?.({
        type: env.Type,
        topicArn: env.TopicArn,
        subscribeUrl: env.SubscribeURL ?? null,
        confirmed,
      });
      // Not about a payment: stored for the record, it names no order.
      return [{ eventId: env.MessageId, type: env.Type, orderId: null, providerRef: null, hint: 'unknown' }];
    },
  };
}

/** What a charge's state announces. */
function chargeHint(charge: Charge): VerifiedWebhookEvent['hint'] {
  switch (charge.statusDetails.state) {
    case 'Captured':
      return charge.refundedAmount && Number(charge.refundedAmount.amount) > 0 ? 'refunded' : 'paid';
    case 'Declined':
      return 'failed';
    case 'Canceled':
      return 'canceled';
    case 'Authorized':
    case 'AuthorizationInitiated':
    case 'CaptureInitiated':
      return 'pending';
    default:
      return 'unknown';
  }
}

/** A dispute under review, or lost, holds the money; won, the payment stands. */
function disputeHint(status: { state: string; resolution?: string | null }): VerifiedWebhookEvent['hint'] {
  if (status.resolution === 'MerchantWon') return 'paid';
  if (status.resolution === 'BuyerWon') return 'charged_back';
  if (status.state === 'UnderReview' || status.state === 'ActionRequired') return 'charged_back';
  return 'unknown';
}
