// The Stripe SDK as the adapter uses it: the options, the client they configure (pointed at the local
// stand-in when apiBaseUrl is set), and the mapping of the SDK's errors.
import Stripe from 'stripe';
import { ProviderError } from '../types';

export interface StripeProviderOptions {
  /** Secret (sk_live_… / sk_test_…) or restricted (rk_…) API key. */
  secretKey: string;
  /** Signing secret of our webhook endpoint (whsec_…), shown per endpoint in the Dashboard. */
  webhookSecret: string;
  /** API base URL; only set it to point the SDK at the local stand-in (e.g. http://127.0.0.1:4242). */
  apiBaseUrl?: string;
  /** Oldest webhook timestamp accepted, in seconds (Stripe's libraries default to 300). */
  webhookToleranceSeconds?: number;
  /** SDK retries for network errors, 409 and 5xx (POSTs carry idempotency keys). Default 2. */
  maxNetworkRetries?: number;
  /** Per-request timeout in milliseconds. Default 20 000 (the SDK's own default is 80 s). */
  timeoutMs?: number;
}

/** Dispute states in which the money has been taken back from us (or the shop lost). */
export const DISPUTE_HOLDS_FUNDS = new Set([
  'needs_response',
  'under_review',
  'lost',
  'appeal_needs_response',
  'appeal_under_review',
]);

/** The configured SDK client and the settings the operations read. */
export interface StripeContext {
  stripe: Stripe;
  options: StripeProviderOptions;
  tolerance: number;
}

/** @example const ctx = stripeContext({ secretKey, webhookSecret }) */
export function stripeContext(options: StripeProviderOptions): StripeContext {
  if (!options.secretKey) throw new Error('Stripe: secretKey is required');
  if (!options.webhookSecret) throw new Error('Stripe: webhookSecret is required');

  const config: Stripe.StripeConfig = {
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    timeout: options.timeoutMs ?? 20_000,
    appInfo: { name: 'oripa-shop' },
  };
  if (options.apiBaseUrl) {
    const base = new URL(options.apiBaseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('Stripe: apiBaseUrl must be http(s)');
    config.host = base.hostname;
    config.protocol = base.protocol === 'http:' ? 'http' : 'https';
    config.port = base.port || (base.protocol === 'http:' ? 80 : 443);
  }
  const stripe = new Stripe(options.secretKey, config);
  const tolerance = options.webhookToleranceSeconds ?? 300;
  return { stripe, options, tolerance };
}

export function assertYen(amountJpy: number): void {
  if (!Number.isSafeInteger(amountJpy) || amountJpy <= 0)
    throw new ProviderError(`Stripe: amount must be a positive integer of yen, got ${amountJpy}`, false);
}

/** Maps SDK errors to ProviderError: network trouble, 409 (concurrent idempotent request), 429 and 5xx are worth retrying. */
export function toProviderError(err: unknown, action: string): ProviderError {
  if (err instanceof ProviderError) return err;
  if (err instanceof Stripe.errors.StripeError) {
    const status = err.statusCode;
    const retryable =
      err instanceof Stripe.errors.StripeConnectionError ||
      err instanceof Stripe.errors.StripeRateLimitError ||
      status === undefined ||
      status === 409 ||
      status === 429 ||
      status >= 500;
    const detail = [status, err.code, err.message].filter((part) => part !== undefined && part !== '').join(' ');
    return new ProviderError(`Stripe: ${action}に失敗しました (${detail})`, retryable, err);
  }
  return new ProviderError(
    `Stripe: ${action}に失敗しました (${err instanceof Error ? err.message : String(err)})`,
    true,
    err,
  );
}
