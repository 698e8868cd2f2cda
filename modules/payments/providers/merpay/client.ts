// The Merpay API client: the options, the OAuth2 client-credentials token (cached, shared by concurrent
// calls, renewed on a 401) and the JSON POST every call is, plus the reads and the cancel the adapter shares.
import { ProviderError, isRetryableStatus } from '../types';
import {
  MERPAY_PATHS,
  MERPAY_SCOPE,
  MerpayApiError,
  describeError,
  isObject,
  toInt,
  type Derived,
  type MerpayTransactionEntry,
  type TransactionRead,
} from './protocol';

export interface MerpayProviderOptions {
  /** API host name Merpay issues at contract (no scheme, no path); calls go to https://{apiHost}{path}. */
  apiHost?: string;
  /** Authentication host name Merpay issues at contract; tokens come from https://{authHost}/jp/v1/token. */
  authHost?: string;
  /** Full API base URL instead of apiHost (the local stand-in, which speaks http). */
  apiBase?: string;
  /** Full authentication base URL instead of authHost (the local stand-in). */
  authBase?: string;
  /** OAuth2 client id issued by Merpay. */
  clientId: string;
  /** OAuth2 client secret issued by Merpay (server only). */
  clientSecret: string;
  /** A cached token is replaced this many seconds before it expires (default 60). */
  tokenRenewBeforeSec?: number;
  /** How long a token is kept when the token answer has no expires_in, in seconds (default 300). */
  tokenFallbackTtlSec?: number;
  /** Per-request timeout in milliseconds (default 15000). */
  timeoutMs?: number;
  /** Injected fetch (tests); defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Clock in milliseconds, for the token cache (tests). */
  now?: () => number;
}

const USER_AGENT = 'oripa-shop-merpay/1 (node)';
const HOST =
  /^(?=.{1,253}(?::\d{1,5})?$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(?::\d{1,5})?$/;

/** The client's settings, read once from its options, and its token cache. */
export interface MerpayClient {
  options: MerpayProviderOptions;
  apiBase: string;
  authBase: string;
  timeoutMs: number;
  renewBeforeMs: number;
  fallbackTtlMs: number;
  doFetch: typeof fetch;
  now: () => number;
  cachedToken: { value: string; renewAt: number } | null;
  // Concurrent calls share one token request instead of each asking for its own.
  tokenInFlight: Promise<string> | null;
}

/** @example const client = merpayClient({ clientId, clientSecret, apiHost, authHost }) */
export function merpayClient(options: MerpayProviderOptions): MerpayClient {
  if (!options.clientId) throw new Error('merpay: clientId is required');
  if (!options.clientSecret) throw new Error('merpay: clientSecret is required');
  return {
    options,
    apiBase: baseOf('apiHost', options.apiHost, 'apiBase', options.apiBase),
    authBase: baseOf('authHost', options.authHost, 'authBase', options.authBase),
    timeoutMs: options.timeoutMs ?? 15_000,
    renewBeforeMs: (options.tokenRenewBeforeSec ?? 60) * 1000,
    fallbackTtlMs: (options.tokenFallbackTtlSec ?? 300) * 1000,
    doFetch: options.fetch ?? fetch,
    now: options.now ?? Date.now,
    cachedToken: null,
    tokenInFlight: null,
  };
}

async function requestToken(client: MerpayClient): Promise<string> {
  const basic = Buffer.from(`${client.options.clientId}:${client.options.clientSecret}`, 'utf8').toString('base64');
  // The same form fields as the SDK's AuthClient (it also sends its user agent as a form field).
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    scope: MERPAY_SCOPE,
    'user-agent': USER_AGENT,
  });
  const issuedAt = client.now();
  let response: Response;
  try {
    response = await client.doFetch(`${client.authBase}${MERPAY_PATHS.token}`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        'user-agent': USER_AGENT,
      },
      body: form.toString(),
      signal: AbortSignal.timeout(client.timeoutMs),
    });
  } catch (error) {
    throw new ProviderError('merpay: the token endpoint could not be reached', true, error);
  }
  const text = await response.text().catch(() => '');
  if (response.status !== 200) {
    throw new ProviderError(
      `merpay: the token endpoint answered ${response.status}${describeError(text)} (check MERPAY_CLIENT_ID / MERPAY_CLIENT_SECRET)`,
      isRetryableStatus(response.status),
    );
  }
  let parsed: { access_token?: unknown; expires_in?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch (error) {
    throw new ProviderError('merpay: the token endpoint answered with a body that is not JSON', true, error);
  }
  if (typeof parsed?.access_token !== 'string' || parsed.access_token.length === 0) {
    throw new ProviderError('merpay: the token endpoint answered without access_token', false);
  }
  const expiresInSec = toInt(parsed.expires_in);
  const lifetimeMs = expiresInSec !== null && expiresInSec > 0 ? expiresInSec * 1000 : client.fallbackTtlMs;
  // Renewed before it runs out; a very short lifetime is still used for the call at hand.
  client.cachedToken = {
    value: parsed.access_token,
    renewAt: issuedAt + Math.max(0, lifetimeMs - client.renewBeforeMs),
  };
  return parsed.access_token;
}

function accessToken(client: MerpayClient): Promise<string> {
  if (client.cachedToken && client.now() < client.cachedToken.renewAt) return Promise.resolve(client.cachedToken.value);
  client.tokenInFlight ??= requestToken(client).finally(() => {
    client.tokenInFlight = null;
  });
  return client.tokenInFlight;
}

/** One API call: a JSON POST with the access token, retried once with a new token on a 401. */
export async function call<T>(client: MerpayClient, path: string, params: Record<string, unknown>): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    const token = await accessToken(client);
    let response: Response;
    try {
      response = await client.doFetch(`${client.apiBase}${path}`, {
        method: 'POST',
        // As the SDK's Client::request: the bare access token in `authorization`.
        headers: {
          authorization: token,
          'content-type': 'application/json',
          accept: 'application/json',
          'user-agent': USER_AGENT,
        },
        body: JSON.stringify(params),
        signal: AbortSignal.timeout(client.timeoutMs),
      });
    } catch (error) {
      throw new ProviderError(`merpay: ${path} failed to reach Merpay`, true, error);
    }
    const text = await response.text().catch(() => '');
    // A token revoked or expired early: forget it and try once with a new one.
    if (response.status === 401 && attempt === 0) {
      if (client.cachedToken?.value === token) client.cachedToken = null;
      continue;
    }
    if (response.status !== 200) throw new MerpayApiError(response.status, text, path);
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new ProviderError(`merpay: ${path} answered with a body that is not JSON`, true, error);
    }
  }
}

/** A transaction's payment entry and its refunds, read with batchGet of one id. */
export async function readTransaction(client: MerpayClient, transactionId: string): Promise<TransactionRead> {
  const answer = await call<{ transactions?: unknown }>(client, MERPAY_PATHS.batchGet, {
    transactionIds: [transactionId],
  });
  const entries = Array.isArray(answer?.transactions)
    ? ((answer.transactions as unknown[]).filter(isObject) as MerpayTransactionEntry[])
    : [];
  // The payment entry is the one for our id; refunds are entries carrying `refund` (their own ids).
  const paymentEntry = entries.find((e) => e.transactionId === transactionId && isObject(e.payment));
  const refundAmounts = entries
    .filter((e) => isObject(e.refund) && !isObject(e.payment))
    .map((e) => toInt(e.refund?.amount) ?? 0)
    .filter((amount) => amount > 0);
  return { payment: paymentEntry?.payment ?? null, refundAmounts };
}

/** Cancels, treating "already canceled / nothing to cancel" as done when a fresh read agrees. */
export async function cancelTransaction(client: MerpayClient, transactionId: string): Promise<void> {
  try {
    await call(client, MERPAY_PATHS.cancel, { transactionId });
  } catch (error) {
    if (!(error instanceof MerpayApiError) || error.retryable) throw error;
    const state = derive(await readTransaction(client, transactionId));
    // Unpaid: nothing can be taken back; a payment that still goes through arrives by its completion
    // callback and the shop treats it as a late payment.
    if (state.kind === 'canceled' || state.kind === 'unpaid') return;
    throw error;
  }
}

/** The state the payment's amounts and timestamps describe (the status enum is not named by the SDK). */
export function derive(read: TransactionRead): Derived {
  const p = read.payment;
  if (!p) return { kind: 'unpaid' };
  const authorized = toInt(p.authorizedAmount) ?? 0;
  const captured = toInt(p.capturedAmount) ?? 0;
  const canceled = toInt(p.canceledAmount) ?? 0;
  if (captured > 0) {
    const refundedJpy = read.refundAmounts.reduce((sum, a) => sum + a, 0);
    return { kind: 'captured', amount: captured, refundedJpy, refundAmounts: read.refundAmounts };
  }
  if (p.canceledAt || (canceled > 0 && canceled >= authorized)) return { kind: 'canceled' };
  if (authorized > 0) return { kind: 'authorized', amount: authorized };
  return { kind: 'unpaid' };
}

function baseOf(hostName: string, host: string | undefined, baseName: string, base: string | undefined): string {
  if (base) {
    let url: URL;
    try {
      url = new URL(base);
    } catch {
      throw new Error(`merpay: ${baseName} is not a URL`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new Error(`merpay: ${baseName} must be an http(s) URL`);
    return base.replace(/\/+$/, '');
  }
  if (host) {
    // As in the SDK: the host only; the scheme is always https.
    if (!HOST.test(host))
      throw new Error(`merpay: ${hostName} must be a host name such as api.example.jp (no scheme, no path)`);
    return `https://${host}`;
  }
  throw new Error(`merpay: ${hostName} (or ${baseName}) is required`);
}
