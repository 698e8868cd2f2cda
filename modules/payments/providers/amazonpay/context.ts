// What every part of the Amazon Pay adapter shares: its options, and the context built from them once
// (the SDK client, the clock, the SNS trust settings, the certificate cache).
import type { KeyObject } from 'node:crypto';
import { AMAZON_PAY_JP_HOST, RoutedWebStoreClient } from './sdk';
import { SNS_HOST_PATTERN } from './sns';

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

/** The adapter's state, built once from its options; every operation takes it first. */
export interface AmazonPayContext {
  options: AmazonPayProviderOptions;
  client: RoutedWebStoreClient;
  timeoutMs: number;
  paymentIntent: 'AuthorizeWithCapture' | 'Authorize';
  storeName: string;
  httpFetch: (input: string, init?: RequestInit) => Promise<Response>;
  clock: () => number;
  snsHost: RegExp;
  trustedOrigins: Set<string>;
  maxAgeMs: number;
  certificates: Map<string, { key: KeyObject; validTo: number }>;
}

/** @example const ctx = amazonpayContext({ publicKeyId, privateKey, storeId }) */
export function amazonpayContext(options: AmazonPayProviderOptions): AmazonPayContext {
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
  return {
    options,
    client,
    timeoutMs,
    paymentIntent,
    storeName,
    httpFetch,
    clock,
    snsHost,
    trustedOrigins,
    maxAgeMs,
    certificates,
  };
}
