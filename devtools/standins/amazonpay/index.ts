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
import { createHash, createPublicKey, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { generate as generateCertificate } from 'selfsigned';
import { listenStandin } from '#devtools/standins/shared';

import { controlsOf } from './controls';

import { createAmazonpayApp } from './routing';

import type { AmazonPayState } from './state';

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

export type Price = { amount: string; currencyCode: string };
export type Status = {
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
