// The one interface every payment provider adapter implements. The shop's rules (orders, caps,
// crediting once, reversals) live in modules/payments; an adapter only speaks its provider's API.
//
// Rules for adapters:
// - Calls happen outside database transactions; an adapter never touches the database.
// - Amounts are integer JPY. No floats.
// - `fetchPayment` is the source of truth: the return page and the webhook processor both ask it,
//   so a forged return URL or a replayed/out-of-order webhook cannot credit anything by itself.
// - `verifyWebhook` must check the provider's documented signature scheme (or, where the provider
//   does not sign, confirm the event by calling the provider's API) and throw WebhookRejected
//   for anything it cannot prove came from the provider.

export const PAYMENT_METHODS = ['sandbox', 'stripe', 'paypay', 'paidy', 'merpay', 'amazonpay'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export interface CheckoutRequest {
  /** Our order id (UUID); send it to the provider as the merchant reference where one exists. */
  orderId: string;
  amountJpy: number;
  /** What the member buys, in Japanese, e.g. 「コイン 1,000枚（+50ボーナス）」. */
  description: string;
  memberId: string;
  /** Member's email when known (some providers prefill it). */
  email?: string | null;
  /** Absolute URL the provider sends the member back to after paying (our /shop/backfrom* page, with ?order=). */
  returnUrl: string;
  /** Absolute URL for "cancel / go back" on the provider's page. */
  cancelUrl: string;
  /** Absolute URL of our webhook endpoint for this provider (for providers that take it per payment). */
  webhookUrl: string;
}

export interface CheckoutStart {
  /** Where to send the member's browser (the provider's hosted page). */
  redirectUrl: string;
  /** The provider's id for this payment/session; stored on the order and used to fetch it later. */
  providerRef: string;
}

export interface OrderRef {
  orderId: string;
  providerRef: string;
  amountJpy: number;
}

/** What the provider says about a payment right now. */
export type ProviderPayment =
  | { status: 'pending' }
  /** Paid (authorised and captured, or completed). `amountJpy` is what the provider says was paid. */
  | { status: 'paid'; amountJpy: number; providerPaymentId: string }
  | { status: 'failed'; reason: string }
  | { status: 'canceled' }
  /** Money went back to the payer, fully or in part (refundedJpy is the total refunded so far). */
  | { status: 'refunded'; amountJpy: number; refundedJpy: number; providerPaymentId: string }
  /** A chargeback / dispute the shop lost or that holds the money. */
  | { status: 'charged_back'; amountJpy: number; providerPaymentId: string };

export interface WebhookRequest {
  /**
   * The URL the delivery came to, with its query: a provider that signs nothing but calls URLs we give
   * it per payment (Merpay) is proven by a token in that URL.
   */
  url?: string;
  headers: Headers;
  /** The exact bytes received, as text (signatures are over the raw body). */
  rawBody: string;
}

/** A webhook event after its signature (or its confirmation with the provider) checked out. */
export interface VerifiedWebhookEvent {
  /** Unique per event at the provider (used to store each event once). */
  eventId: string;
  /** Provider's event type as sent, e.g. 'checkout.session.completed'. */
  type: string;
  /** Our order id when the event carries it (merchant reference / metadata). */
  orderId: string | null;
  /** The provider's payment/session id when the event carries it. */
  providerRef: string | null;
  /** The payment state the event announces; processing still re-reads the provider (fetchPayment). */
  hint: ProviderPayment['status'] | 'unknown';
  /**
   * The answer the provider waits for, when it needs a particular one before it goes on (Merpay's
   * confirm callback: a 2xx lets the payment proceed). The webhook route answers with the first
   * event's reply when present, instead of its own receipt.
   */
  reply?: { status: number; json: unknown };
}

export class WebhookRejected extends Error {
  constructor(
    message: string,
    readonly status: 400 | 401 | 403 | 404 | 422 = 400,
  ) {
    super(message);
    this.name = 'WebhookRejected';
  }
}

/** The provider refused or failed; `retryable` when a later attempt may work (network, 5xx). */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** A provider answer worth trying again later: its outage, overload or timeout. */
export const isRetryableStatus = (status: number) => status >= 500 || status === 429 || status === 408;

/**
 * Amounts reach providers only as positive whole yen.
 * @example assertWholeYen('paidy', 1000) // passes; assertWholeYen('paidy', 10.5) throws
 */
export function assertWholeYen(provider: string, amountJpy: number): void {
  if (!Number.isSafeInteger(amountJpy) || amountJpy <= 0)
    throw new ProviderError(`${provider}: amount must be a positive integer JPY, got ${amountJpy}`, false);
}

export interface PaymentProvider {
  readonly method: PaymentMethod;
  /** Creates the provider's hosted checkout for one order. Must be idempotent per orderId where the provider supports it. */
  createCheckout(request: CheckoutRequest): Promise<CheckoutStart>;
  /**
   * Reads the payment's current state from the provider. `returnParams` are the query parameters the
   * provider appended to our return URL (some providers need a token from there to complete, e.g.
   * Amazon Pay's checkoutSessionId / Paidy's payment id); an adapter that must "complete" or
   * "capture" a payment does it here, idempotently.
   */
  fetchPayment(order: OrderRef, returnParams?: URLSearchParams): Promise<ProviderPayment>;
  /** Cancels a payment not yet completed (member abandoned, or our side refused it). Idempotent. */
  cancel(order: OrderRef): Promise<void>;
  /** Refunds `amountJpy` of a paid order (operator action). Idempotent per (order, amount) where possible. */
  refund(order: OrderRef & { providerPaymentId: string }, amountJpy: number, reason: string): Promise<void>;
  /** Verifies a webhook delivery; throws WebhookRejected when it cannot be proven genuine. */
  verifyWebhook(request: WebhookRequest): Promise<VerifiedWebhookEvent[]>;
}
