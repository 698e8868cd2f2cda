// Paidy's REST API as the adapter calls it: the options, the payment and webhook shapes (API version
// 2018-04-10), the authenticated call, and capture and close that tolerate a lost race.
import { ProviderError, isRetryableStatus } from '../types';

export interface PaidyProviderOptions {
  /** Paidy secret key (sk_live_… or sk_test_…); the API authenticates every call with it. */
  secretKey: string;
  /** Paidy API base URL; https://api.paidy.com in production, the stand-in's URL in tests and demos. */
  apiBase?: string;
  /** Value of the Paidy-Version header; the payment shapes below are those of 2018-04-10. */
  apiVersion?: string;
  /**
   * Origin that serves the Paidy Checkout page `/shop/checkout/paidy/widget`. In production that is the
   * shop itself (the default: the origin of the request's returnUrl); in demos and tests the stand-in.
   */
  widgetBase?: string;
  /** Per-request timeout in milliseconds. */
  timeoutMs?: number;
  /** Injected fetch (tests); defaults to the global fetch. */
  fetch?: typeof fetch;
}

/** The Paidy payment object (API version 2018-04-10), only the fields this adapter reads. */
export interface PaidyPayment {
  id: string;
  status: 'authorized' | 'closed' | 'rejected';
  amount: number;
  currency: string;
  created_at?: string;
  expires_at?: string;
  order?: { order_ref?: string | null };
  captures?: { id: string; amount: number; created_at?: string }[];
  refunds?: { id: string; capture_id: string; amount: number; reason?: string | null; created_at?: string }[];
}

/** Body of a Paidy payment webhook (https://paidy.com/docs/en/webhook.html). */
export interface PaidyWebhookBody {
  payment_id?: unknown;
  capture_id?: unknown;
  event_type?: unknown;
  status?: unknown;
  order_ref?: unknown;
  timestamp?: unknown;
}

export const DEFAULT_API_BASE = 'https://api.paidy.com';
export const DEFAULT_API_VERSION = '2018-04-10';
// Paidy ids are `pay_` plus letters and digits; anything else never reaches a URL path.
export const PAYMENT_ID = /^pay_[A-Za-z0-9]{1,64}$/;

/** The client's settings, read once from its options. */
export interface PaidyClient {
  options: PaidyProviderOptions;
  apiBase: string;
  apiVersion: string;
  timeoutMs: number;
  doFetch: typeof fetch;
}

/** @example const client = paidyClient({ secretKey: 'sk_test_…' }) */
export function paidyClient(options: PaidyProviderOptions): PaidyClient {
  if (!options.secretKey) throw new Error('paidy: secretKey is required');
  return {
    options,
    apiBase: (options.apiBase ?? DEFAULT_API_BASE).replace(/\/+$/, ''),
    apiVersion: options.apiVersion ?? DEFAULT_API_VERSION,
    timeoutMs: options.timeoutMs ?? 15_000,
    doFetch: options.fetch ?? fetch,
  };
}

/** One authenticated call to Paidy's API; a non-2xx answer becomes a PaidyApiError. */
export async function call<T>(client: PaidyClient, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await client.doFetch(`${client.apiBase}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${client.options.secretKey}`,
        'Paidy-Version': client.apiVersion,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(client.timeoutMs),
    });
  } catch (error) {
    throw new ProviderError(`paidy: ${method} ${path} failed to reach Paidy`, true, error);
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) {
    throw new PaidyApiError(response.status, text, `${method} ${path}`);
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new ProviderError(`paidy: ${method} ${path} answered with a body that is not JSON`, true, error);
  }
}

/** Reads one payment. */
export const getPayment = (client: PaidyClient, id: string) =>
  call<PaidyPayment>(client, 'GET', `/payments/${encodeURIComponent(id)}`);

/** Captures an AUTHORIZED payment once; a lost race (already captured by a parallel call) is not an error. */
export async function captureOnce(client: PaidyClient, payment: PaidyPayment, orderId: string): Promise<PaidyPayment> {
  try {
    return await call<PaidyPayment>(client, 'POST', `/payments/${encodeURIComponent(payment.id)}/captures`, {
      metadata: { order_id: orderId },
    });
  } catch (error) {
    if (!(error instanceof PaidyApiError) || error.retryable) throw error;
    // Paidy refuses to capture a payment that is no longer AUTHORIZED: read it back and report what it is.
    const fresh = await getPayment(client, payment.id);
    if (fresh.status === 'authorized') throw error;
    return fresh;
  }
}

/** Closes a payment once; closed meanwhile by a parallel call is not an error. */
export async function closeOnce(client: PaidyClient, id: string): Promise<void> {
  try {
    await call<PaidyPayment>(client, 'POST', `/payments/${encodeURIComponent(id)}/close`, {});
  } catch (error) {
    if (!(error instanceof PaidyApiError) || error.retryable) throw error;
    const fresh = await getPayment(client, id);
    if (fresh.status === 'authorized') throw error;
  }
}

/** A non-2xx answer from the Paidy API; keeps the HTTP status so callers can tell 404 and 4xx apart. */
export class PaidyApiError extends ProviderError {
  constructor(
    readonly status: number,
    body: string,
    what: string,
  ) {
    super(`paidy: ${what} answered ${status}${describeError(body)}`, isRetryableStatus(status));
  }
}

/** Paidy errors are `{ reference, status, code, title, description }`; keep code and title for the log. */
function describeError(body: string): string {
  try {
    const parsed = JSON.parse(body) as { code?: unknown; title?: unknown; description?: unknown };
    const parts = [parsed.code, parsed.title ?? parsed.description].filter((p): p is string => typeof p === 'string');
    return parts.length ? `: ${parts.join(' — ')}` : '';
  } catch {
    return '';
  }
}
