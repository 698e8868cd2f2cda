// PayPay's official Node SDK as the adapter drives it: the options, one configured SDK instance per
// adapter (pointed at the stand-in through the documented `conf`, with one trusted certificate), and the
// SDK's answers read as status, code and data (the why: the header of paypay.ts).
import type { RequestOptions } from 'node:https';
import paypaySdk from '@paypayopa/paypayopa-sdk-node';
import {
  HttpsClient,
  type HttpsClientError,
  type HttpsClientMessage,
  type HttpsClientSuccess,
} from '@paypayopa/paypayopa-sdk-node/dist/lib/httpsClient.js';
import { ProviderError } from '../types';

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

export type SdkResult = HttpsClientSuccess | HttpsClientError;

export interface OpaResponse {
  status: number;
  code: string;
  message: string;
  data: unknown;
}

export interface PaymentDetails {
  paymentId?: unknown;
  status?: unknown;
  merchantPaymentId?: unknown;
  amount?: { amount?: unknown; currency?: unknown } | null;
  refunds?: { data?: { amount?: { amount?: unknown } | null; status?: unknown }[] | null } | null;
}

// Our order ids are UUIDs; PayPay ids are letters, digits, '-' and '_'. The SDK pastes path parameters
// into the URL unencoded, so anything else must never reach it (a webhook names the order we look up).
export const MERCHANT_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const CODE_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
export const PAYMENT_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

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

/** The configured SDK and the options the operations read. */
export interface PayPayContext {
  sdk: InstanceType<typeof paypaySdk.PayPayRestSDK>;
  options: PayPayProviderOptions;
}

/** @example const ctx = payPayContext({ apiKey, apiSecret, merchantId }) */
export function payPayContext(options: PayPayProviderOptions): PayPayContext {
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
  return { sdk, options };
}

/** Get Payment Details for one merchantPaymentId. */
export async function readDetails(ctx: PayPayContext, merchantPaymentId: string): Promise<OpaResponse> {
  return call('Get Payment Details', () => ctx.sdk.getCodePaymentDetails([merchantPaymentId]));
}

export async function call(operation: string, run: () => Promise<SdkResult>): Promise<OpaResponse> {
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

export function succeeded(res: OpaResponse): boolean {
  return (
    res.status >= 200 &&
    res.status < 300 &&
    (res.code === 'SUCCESS' || res.code === 'REQUEST_ACCEPTED' || res.code === 'CREATED')
  );
}

export function isNotFound(res: OpaResponse): boolean {
  return res.status === 404 || /NOT_FOUND$/.test(res.code);
}

/** A 4xx that says something about the payment (not about our credentials or the rate limit). */
export function isBenignClientError(res: OpaResponse): boolean {
  return res.status >= 400 && res.status < 500 && res.status !== 401 && res.status !== 403 && res.status !== 429;
}

export function failure(operation: string, res: OpaResponse): ProviderError {
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
