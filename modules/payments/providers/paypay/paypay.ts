// PayPay adapter: web payment through PayPay OPA's "Create a QR Code" (ORDER_QR + WEB_LINK), driven by PayPay's official Node SDK.
//
// How a PayPay payment flows here (see paypay.md):
// - createCheckout creates a code with merchantPaymentId = our orderId and redirectUrl = our return page;
//   the member pays on PayPay's page (`url`). providerRef is PayPay's codeId (needed to delete the code).
// - fetchPayment asks Get Payment Details (/v2/codes/payments/{merchantPaymentId}); PayPay appends
//   nothing to the return URL, so returnParams carry no information and are ignored. Web payments
//   complete immediately (isAuthorization=false), so there is nothing to capture.
// - cancel deletes the code and then calls Cancel a payment, which PayPay documents for "not sure what
//   happened" and which guarantees that money taken in a race goes back to the member.
// - PayPay does not sign its Transaction webhooks, so verifyWebhook proves an event by reading the
//   payment back from PayPay (state and amount must agree) and rejects anything it cannot confirm.
//
// Pointing the SDK elsewhere: the SDK's documented `conf` option (a `Conf({ hostName, portNumber })`)
// replaces the built-in hosts. The SDK always uses node:https, so a local stand-in serves TLS with a
// self-signed certificate; `trustedCaPem` trusts exactly that certificate for this adapter's requests
// only (through the SDK's public setHttpsClient hook), never by switching TLS checks off.
import type { RequestOptions } from 'node:https';
import { createHash } from 'node:crypto';
import paypaySdk from '@paypayopa/paypayopa-sdk-node';
import {
  HttpsClient,
  type HttpsClientError,
  type HttpsClientMessage,
  type HttpsClientSuccess,
} from '@paypayopa/paypayopa-sdk-node/dist/lib/httpsClient.js';
import {
  ProviderError,
  WebhookRejected,
  type CheckoutRequest,
  type CheckoutStart,
  type OrderRef,
  type PaymentProvider,
  type ProviderPayment,
  type VerifiedWebhookEvent,
  type WebhookRequest,
  assertWholeYen,
} from '../types';

export interface PayPayProviderOptions {
  /** API key from the PayPay for Developers / merchant panel. */
  apiKey: string;
  /** API key secret (signs every request, OPA-Auth HMAC). */
  apiSecret: string;
  /** Merchant ID, sent as X-ASSUME-MERCHANT and compared with webhooks' merchant_id. */
  merchantId: string;
  /** true: production API (apigw.paypay.ne.jp); false (default): sandbox (apigw.sandbox.paypay.ne.jp). */
  production?: boolean;
  /** Another API origin, e.g. the local stand-in's `https://127.0.0.1:PORT`. Must be https (the SDK only speaks TLS). */
  baseUrl?: string;
  /** PEM certificate to trust for `baseUrl` only (the stand-in's self-signed one; tests and demo). */
  trustedCaPem?: string;
  /** Per-request timeout (ms, default 15000). */
  timeoutMs?: number;
}

type SdkResult = HttpsClientSuccess | HttpsClientError;

interface OpaResponse {
  status: number;
  code: string;
  message: string;
  data: unknown;
}

interface PaymentDetails {
  paymentId?: unknown;
  status?: unknown;
  merchantPaymentId?: unknown;
  amount?: { amount?: unknown; currency?: unknown } | null;
  refunds?: { data?: { amount?: { amount?: unknown } | null; status?: unknown }[] | null } | null;
}

// Our order ids are UUIDs; PayPay ids are letters, digits, '-' and '_'. The SDK pastes path parameters
// into the URL unencoded, so anything else must never reach it (a webhook names the order we look up).
const MERCHANT_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const CODE_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
const PAYMENT_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Webhook states and the payment states PayPay may show by the time we confirm them. */
const CONSISTENT_STATES: Record<string, readonly string[]> = {
  // A refund sends no webhook, so a late COMPLETED delivery may meet a refunded payment.
  COMPLETED: ['COMPLETED', 'REFUNDED'],
};

const HINTS: Record<string, VerifiedWebhookEvent['hint']> = {
  COMPLETED: 'paid',
  FAILED: 'failed',
  CANCELED: 'canceled',
  EXPIRED: 'canceled',
  EXPIRED_USER_CONFIRMATION: 'canceled',
  AUTHORIZED: 'pending',
  REAUTHORIZING: 'pending',
  REFUNDED: 'refunded',
};

/** The SDK's own HTTPS client, plus a timeout and (for the stand-in only) one trusted certificate. */
class PayPayHttpsClient extends HttpsClient {
  constructor(
    private readonly trustedCaPem: string | undefined,
    private readonly timeoutMs: number,
  ) {
    super();
  }

  override httpsCall(
    options: RequestOptions & { apiKey?: string },
    payload: unknown,
    callback: HttpsClientMessage,
  ): void {
    super.httpsCall(
      {
        ...options,
        ...(this.trustedCaPem ? { ca: this.trustedCaPem } : {}),
        signal: AbortSignal.timeout(this.timeoutMs),
      },
      payload,
      callback,
    );
  }

  // The SDK would console.log a troubleshooting link for every non-2xx answer; errors reach the shop as ProviderError instead.
  override printDebugMessage(): void {}
}

/** Creates the PayPay adapter (one SDK instance per adapter, never the SDK's global singleton). */
export function createPayPayProvider(options: PayPayProviderOptions): PaymentProvider {
  if (!options.apiKey || !options.apiSecret || !options.merchantId)
    throw new Error('PayPay: apiKey, apiSecret and merchantId are required');
  if (options.trustedCaPem && !options.baseUrl)
    throw new Error('PayPay: trustedCaPem only applies to a baseUrl (local stand-in)');

  const sdk = new paypaySdk.PayPayRestSDK();
  sdk.configure({
    clientId: options.apiKey,
    clientSecret: options.apiSecret,
    merchantId: options.merchantId,
    ...(options.baseUrl ? { conf: confFor(options.baseUrl) } : { env: options.production ? 'PROD' : 'STAGING' }),
  });
  sdk.setHttpsClient(new PayPayHttpsClient(options.trustedCaPem, options.timeoutMs ?? 15_000));

  async function readDetails(merchantPaymentId: string): Promise<OpaResponse> {
    return call('Get Payment Details', () => sdk.getCodePaymentDetails([merchantPaymentId]));
  }

  return {
    method: 'paypay',

    async createCheckout(request: CheckoutRequest): Promise<CheckoutStart> {
      assertMerchantPaymentId(request.orderId);
      assertWholeYen('paypay', request.amountJpy);
      if (!/^https?:\/\//i.test(request.returnUrl))
        throw new ProviderError('PayPay: returnUrl must be an absolute http(s) URL', false);
      const res = await call('Create a QR Code', () =>
        sdk.qrCodeCreate({
          merchantPaymentId: request.orderId,
          amount: { amount: request.amountJpy, currency: 'JPY' },
          codeType: 'ORDER_QR',
          orderDescription: truncate(request.description, 255),
          isAuthorization: false,
          redirectUrl: request.returnUrl,
          redirectType: 'WEB_LINK',
        }),
      );
      if (res.code === 'DUPLICATE_DYNAMIC_QR_REQUEST') {
        // PayPay keeps one code per merchantPaymentId and offers no way to read its URL again.
        throw new ProviderError(
          `PayPay: a code already exists for order ${request.orderId}; start a new order`,
          false,
          { status: res.status, code: res.code },
        );
      }
      if (!succeeded(res)) throw failure('Create a QR Code', res);
      const data = res.data as { codeId?: unknown; url?: unknown } | null;
      if (typeof data?.codeId !== 'string' || typeof data.url !== 'string') {
        throw new ProviderError('PayPay Create a QR Code: the answer has no codeId/url', false, res);
      }
      return { redirectUrl: data.url, providerRef: data.codeId };
    },

    async fetchPayment(order: OrderRef): Promise<ProviderPayment> {
      assertMerchantPaymentId(order.orderId);
      const res = await readDetails(order.orderId);
      if (isNotFound(res))
        throw new ProviderError(`PayPay: no payment for order ${order.orderId}`, false, {
          status: res.status,
          code: res.code,
        });
      if (!succeeded(res)) throw failure('Get Payment Details', res);
      return toProviderPayment(order.orderId, res.data as PaymentDetails | null);
    },

    async cancel(order: OrderRef): Promise<void> {
      assertMerchantPaymentId(order.orderId);
      // 1. Delete the code so that the member can no longer pay with it (already deleted/paid/expired is fine).
      if (order.providerRef && CODE_ID_PATTERN.test(order.providerRef)) {
        const deleted = await call('Delete a QR Code', () => sdk.qrCodeDelete([order.providerRef]));
        if (!succeeded(deleted) && !isBenignClientError(deleted)) throw failure('Delete a QR Code', deleted);
      }
      // 2. Cancel the payment: if the member paid in the meantime, PayPay returns the money.
      const canceled = await call('Cancel a payment', () => sdk.paymentCancel([order.orderId]));
      if (succeeded(canceled) || isNotFound(canceled)) return;
      if (isBenignClientError(canceled)) {
        // Refused (e.g. ORDER_NOT_REVERSIBLE): fine when no money was taken, otherwise it needs a refund.
        const details = await readDetails(order.orderId);
        if (isNotFound(details)) return;
        if (succeeded(details)) {
          const status = (details.data as PaymentDetails | null)?.status;
          if (status !== 'COMPLETED' && status !== 'REFUNDED' && status !== 'AUTHORIZED') return;
        }
      }
      throw failure('Cancel a payment', canceled);
    },

    async refund(order, amountJpy: number, reason: string): Promise<void> {
      assertWholeYen('paypay', amountJpy);
      if (!PAYMENT_ID_PATTERN.test(order.providerPaymentId))
        throw new ProviderError('PayPay: invalid paymentId', false);
      const merchantRefundId = refundIdFor(order.orderId, amountJpy);
      const res = await call('Refund a payment', () =>
        sdk.paymentRefund({
          merchantRefundId,
          paymentId: order.providerPaymentId,
          amount: { amount: amountJpy, currency: 'JPY' },
          reason: truncate(reason, 255),
        }),
      );
      // Both CREATED and REFUNDED mean PayPay accepted the refund (it retries internally until REFUNDED).
      if (succeeded(res)) return;
      if (isBenignClientError(res)) {
        // A retry after a lost answer: PayPay keeps the first refund under the same merchantRefundId.
        const prior = await call('Get refund details', () => sdk.getRefundDetails([merchantRefundId]));
        const data = prior.data as { paymentId?: unknown; amount?: { amount?: unknown } | null } | null;
        if (succeeded(prior) && data?.paymentId === order.providerPaymentId && data.amount?.amount === amountJpy)
          return;
      }
      throw failure('Refund a payment', res);
    },

    async verifyWebhook(request: WebhookRequest): Promise<VerifiedWebhookEvent[]> {
      let parsed: unknown;
      try {
        parsed = JSON.parse(request.rawBody);
      } catch {
        throw new WebhookRejected('PayPay webhook: the body is not JSON', 400);
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        throw new WebhookRejected('PayPay webhook: the body is not a JSON object', 400);
      const event = parsed as Record<string, unknown>;
      if (event.notification_type !== 'Transaction') {
        throw new WebhookRejected(
          `PayPay webhook: unsupported notification_type ${JSON.stringify(event.notification_type)}`,
          422,
        );
      }
      const orderId = event.merchant_order_id;
      const state = event.state;
      const amount = parseAmount(event.order_amount);
      if (typeof orderId !== 'string' || !MERCHANT_ID_PATTERN.test(orderId))
        throw new WebhookRejected('PayPay webhook: missing or invalid merchant_order_id', 400);
      if (typeof state !== 'string' || !/^[A-Z_]{1,40}$/.test(state))
        throw new WebhookRejected('PayPay webhook: missing or invalid state', 400);
      if (amount === null) throw new WebhookRejected('PayPay webhook: missing or invalid order_amount', 400);
      const paypayOrderId = event.order_id;
      if (paypayOrderId !== undefined && paypayOrderId !== null && typeof paypayOrderId !== 'string') {
        throw new WebhookRejected('PayPay webhook: invalid order_id', 400);
      }
      const merchant = event.merchant_id;
      if (merchant !== undefined && merchant !== null && merchant !== '' && String(merchant) !== options.merchantId) {
        throw new WebhookRejected('PayPay webhook: merchant_id is not ours', 403);
      }

      // PayPay does not sign webhooks: the event counts only if PayPay itself reports the same payment.
      const res = await readDetails(orderId);
      if (isNotFound(res)) throw new WebhookRejected(`PayPay webhook: PayPay knows no payment for ${orderId}`, 404);
      if (!succeeded(res)) throw failure('Get Payment Details (webhook confirmation)', res);
      const details = res.data as PaymentDetails | null;
      const actual = typeof details?.status === 'string' ? details.status : '';
      if (!(CONSISTENT_STATES[state] ?? [state]).includes(actual)) {
        throw new WebhookRejected(`PayPay webhook: state ${state} but PayPay reports ${actual || 'nothing'}`, 422);
      }
      if (details?.amount?.amount !== amount)
        throw new WebhookRejected('PayPay webhook: order_amount differs from PayPay', 422);
      if (details.merchantPaymentId !== undefined && details.merchantPaymentId !== orderId) {
        throw new WebhookRejected('PayPay webhook: PayPay reports another merchantPaymentId', 422);
      }
      const paymentId = typeof details.paymentId === 'string' ? details.paymentId : null;
      if (typeof paypayOrderId === 'string' && paypayOrderId !== '' && paypayOrderId !== paymentId) {
        throw new WebhookRejected('PayPay webhook: order_id differs from PayPay', 422);
      }

      return [
        {
          // PayPay events carry no id; one payment reaches each state once, and retries repeat the same pair.
          eventId: `paypay:${paymentId ?? orderId}:${state}`,
          type: `Transaction.${state}`,
          orderId,
          // The event names PayPay's payment (order_id), not the codeId we store as providerRef.
          providerRef: null,
          hint: HINTS[state] ?? 'unknown',
        },
      ];
    },
  };
}

/** Maps Get Payment Details to the shop's view of the payment. */
function toProviderPayment(orderId: string, details: PaymentDetails | null): ProviderPayment {
  const status = details?.status;
  if (details?.merchantPaymentId !== undefined && details.merchantPaymentId !== orderId) {
    throw new ProviderError(`PayPay: Get Payment Details answered for another order`, false);
  }
  switch (status) {
    case 'CREATED': // code issued, nobody paid yet (PayPay also reports an expired, unpaid code this way)
    case 'AUTHORIZED': // pre-authorisation only; this shop creates codes with isAuthorization=false
    case 'REAUTHORIZING':
      return { status: 'pending' };
    case 'COMPLETED':
    case 'REFUNDED': {
      const amountJpy = details?.amount?.amount;
      const paymentId = details?.paymentId;
      if (!Number.isSafeInteger(amountJpy) || typeof paymentId !== 'string') {
        throw new ProviderError('PayPay: a completed payment without amount or paymentId', false, details);
      }
      // Every accepted refund counts: PayPay retries a refund internally until it is REFUNDED.
      let refundedJpy = 0;
      for (const refund of details?.refunds?.data ?? []) {
        const value = refund?.amount?.amount;
        if (Number.isSafeInteger(value)) refundedJpy += value as number;
      }
      if (status === 'REFUNDED' && refundedJpy === 0) refundedJpy = amountJpy as number;
      if (refundedJpy > 0)
        return { status: 'refunded', amountJpy: amountJpy as number, refundedJpy, providerPaymentId: paymentId };
      return { status: 'paid', amountJpy: amountJpy as number, providerPaymentId: paymentId };
    }
    case 'FAILED':
      return { status: 'failed', reason: 'PayPayでのお支払いが完了しませんでした' };
    case 'CANCELED':
    case 'EXPIRED':
      return { status: 'canceled' };
    default:
      throw new ProviderError(`PayPay: unknown payment status ${JSON.stringify(status)}`, false, details);
  }
}

async function call(operation: string, run: () => Promise<SdkResult>): Promise<OpaResponse> {
  let result: SdkResult;
  try {
    result = await run();
  } catch (error) {
    throw new ProviderError(
      `PayPay ${operation}: ${error instanceof Error ? error.message : String(error)}`,
      true,
      error,
    );
  }
  // The SDK reports network failures, timeouts and unparseable answers as ERROR.
  if ('ERROR' in result) throw new ProviderError(`PayPay ${operation} failed: ${result.ERROR}`, true, result);
  const body = (result.BODY ?? {}) as { resultInfo?: { code?: unknown; message?: unknown }; data?: unknown };
  return {
    status: result.STATUS,
    code: typeof body.resultInfo?.code === 'string' ? body.resultInfo.code : '',
    message: typeof body.resultInfo?.message === 'string' ? body.resultInfo.message : '',
    data: body.data ?? null,
  };
}

function succeeded(res: OpaResponse): boolean {
  return (
    res.status >= 200 &&
    res.status < 300 &&
    (res.code === 'SUCCESS' || res.code === 'REQUEST_ACCEPTED' || res.code === 'CREATED')
  );
}

function isNotFound(res: OpaResponse): boolean {
  return res.status === 404 || /NOT_FOUND$/.test(res.code);
}

/** A 4xx that says something about the payment (not about our credentials or the rate limit). */
function isBenignClientError(res: OpaResponse): boolean {
  return res.status >= 400 && res.status < 500 && res.status !== 401 && res.status !== 403 && res.status !== 429;
}

function failure(operation: string, res: OpaResponse): ProviderError {
  const retryable = res.status >= 500 || res.status === 429;
  return new ProviderError(
    `PayPay ${operation} failed: HTTP ${res.status} ${res.code} ${res.message}`.trim(),
    retryable,
    {
      status: res.status,
      code: res.code,
    },
  );
}

function confFor(baseUrl: string) {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`PayPay: baseUrl is not a URL: ${baseUrl}`);
  }
  if (url.protocol !== 'https:') throw new Error('PayPay: baseUrl must be https (the SDK only speaks TLS)');
  if (url.pathname !== '/' || url.search) throw new Error('PayPay: baseUrl must be an origin without path');
  const hostName = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new paypaySdk.Conf({ hostName, portNumber: url.port ? Number(url.port) : 443 });
}

function assertMerchantPaymentId(orderId: string): void {
  if (!MERCHANT_ID_PATTERN.test(orderId))
    throw new ProviderError('PayPay: the order id is not a valid merchantPaymentId', false);
}

function parseAmount(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return null;
}

/** One merchantRefundId per (order, amount), so a retried refund is recognised instead of paid twice. */
function refundIdFor(orderId: string, amountJpy: number): string {
  const id = `${orderId}-R${amountJpy}`;
  if (id.length <= 64) return id;
  return `R-${createHash('sha256').update(id).digest('base64url').slice(0, 43)}`;
}

function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join('');
}
