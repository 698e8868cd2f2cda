// メルペイ (Merpay) adapter for the "Merpay Online payments API" as Mercari's official PHP SDK (mercari/merpay-netpayment-sdk-php 1.4.1) speaks it.
//
// What the SDK shows, and this adapter follows (see merpay.md for file-by-file sources):
// - Auth: OAuth2 client credentials at https://{authHost}/jp/v1/token (Basic clientId:clientSecret,
//   form grant_type=client_credentials, scope netpayment:transaction:write) → access_token. API calls are
//   JSON POSTs to https://{apiHost}{path} with `authorization: <access_token>` (the SDK sends the bare
//   token, no "Bearer"). A non-200 answer carries `{ code, message, requestId, details }`.
//   The SDK fetches a token for every call; this adapter caches it until shortly before it expires and
//   fetches a new one when the API answers 401, which stays compatible with the SDK's behaviour.
// - Transactions: /v1/transaction:create (→ transactionId, paymentUrl), :capture, :cancel, :refund,
//   /v1/transactions:batchGet (payment amounts and refunds) and /v1/transitionStatus:get (screen state,
//   returnUrl). There is no single "get transaction" path in the SDK, so reading is batchGet of one id.
// - Callbacks: Merpay POSTs JSON to the confirmUrl (before it charges: ConfirmRequest {url, transactionId,
//   orderId, amount, shippingFee}) and to the completionUrl (after: CompletionRequest {…, inquiryCode,
//   buyer, …}). They carry no signature, and everything in their body (transaction id, our order id, the
//   amount) is known to the member who pays, so a body alone proves nothing. The callback URLs therefore
//   carry a token only Merpay and we know: an HMAC of the order id and amount under our client secret,
//   sent server to server in transaction:create and never shown to the member. verifyWebhook refuses a
//   callback without the right token (401) before it asks Merpay anything, then proves the rest with our
//   credentials: a paid transaction is read with batchGet (orderId and amount must agree); before payment,
//   the transaction's returnUrl (read with transitionStatus:get) must carry the order id and amount this
//   adapter bound into it at creation, since no public read returns a transaction's amount before it is paid.
// - We create with capture=false: fetchPayment captures an authorised payment once its amount matches
//   the order (and cancels it otherwise), so a wrong amount never becomes a sale.
// Unknown numeric enums (payment status, transitionStatus, entry type) are never relied on: state comes
// from the amounts and timestamps, which the SDK names.
import { isUuid } from '#modules/kernel';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ProviderError, WebhookRejected, assertWholeYen, isRetryableStatus } from '../types';
import type {
  CheckoutRequest,
  CheckoutStart,
  OrderRef,
  PaymentProvider,
  ProviderPayment,
  VerifiedWebhookEvent,
  WebhookRequest,
} from '../types';

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

/** BatchGetTransactionsResponse\TransactionPayment (messages.php). Amounts may arrive as strings (proto3 int64 JSON). */
export interface MerpayTransactionPayment {
  orderId?: string;
  authorizedAmount?: number | string;
  capturedAmount?: number | string;
  canceledAmount?: number | string;
  /** An enum whose values the SDK does not name; not relied on. */
  status?: number;
  authorizedAt?: string | null;
  capturedAt?: string | null;
  canceledAt?: string | null;
}

/** BatchGetTransactionsResponse\Transaction (messages.php): a payment entry or a refund entry. */
export interface MerpayTransactionEntry {
  transactionId?: string;
  /** An enum whose values the SDK does not name; entries are told apart by `payment` / `refund`. */
  type?: number;
  payment?: MerpayTransactionPayment | null;
  refund?: { amount?: number | string; refundedAt?: string | null } | null;
}

/** GetTransitionStatusResponse (messages.php). */
export interface MerpayTransitionStatus {
  transactionId?: string;
  /** Screen-transition state (the SDK: "different from payment statuses"); values unnamed, not relied on. */
  transitionStatus?: number;
  cancelUrl?: string;
  returnUrl?: string;
  createdAt?: string;
  serverTime?: string;
}

/** The request body of /v1/transaction:create, field for field as api.php sends it (plus orderName from messages.php). */
export interface MerpayCreateTransactionRequest {
  orderId: string;
  orderName?: string;
  amount: number;
  useDeliveryAddress: boolean;
  useShippingFee: boolean;
  isFixedShippingFee: boolean;
  fixedShippingFee: number;
  shippingFeeUrl: string;
  confirmUrl: string;
  completionUrl: string;
  cancelUrl: string;
  returnUrl: string;
  paymentContractType: number;
  capture: boolean;
  items: { name: string; unitPrice: number; quantity: number }[];
  metadata: Record<string, unknown>;
}

export const MERPAY_PATHS = {
  token: '/jp/v1/token',
  create: '/v1/transaction:create',
  capture: '/v1/transaction:capture',
  cancel: '/v1/transaction:cancel',
  refund: '/v1/transaction:refund',
  batchGet: '/v1/transactions:batchGet',
  transitionStatus: '/v1/transitionStatus:get',
} as const;

export const MERPAY_SCOPE = 'netpayment:transaction:write';
/** Query parameters this adapter adds to the returnUrl it registers, so a confirm callback can be checked before payment. */
export const MERPAY_BOUND_ORDER_PARAM = 'merpay_order';
export const MERPAY_BOUND_AMOUNT_PARAM = 'merpay_amount';
/** Query parameter of the confirm and completion URLs: the callback token (see callbackToken). */
export const MERPAY_CALLBACK_TOKEN_PARAM = 'token';

// The README's example passes 1; the SDK does not name the values. One-time payment is all the shop sells.
const PAYMENT_CONTRACT_TYPE = 1;
const USER_AGENT = 'oripa-shop-merpay/1 (node)';
// Merpay's id format is not documented: accept what is safe to store and to echo in JSON.
const TRANSACTION_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const HOST =
  /^(?=.{1,253}(?::\d{1,5})?$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(?::\d{1,5})?$/;

type CallbackKind = 'confirm' | 'completion';

/** What a transaction's payment amounts say, independent of the unnamed status enum. */
type Derived =
  | { kind: 'unpaid' }
  | { kind: 'authorized'; amount: number }
  | { kind: 'captured'; amount: number; refundedJpy: number; refundAmounts: number[] }
  | { kind: 'canceled' };

interface TransactionRead {
  payment: MerpayTransactionPayment | null;
  refundAmounts: number[];
}

/** Creates the Merpay adapter. */
export function createMerpayProvider(options: MerpayProviderOptions): PaymentProvider {
  if (!options.clientId) throw new Error('merpay: clientId is required');
  if (!options.clientSecret) throw new Error('merpay: clientSecret is required');
  const apiBase = baseOf('apiHost', options.apiHost, 'apiBase', options.apiBase);
  const authBase = baseOf('authHost', options.authHost, 'authBase', options.authBase);
  const timeoutMs = options.timeoutMs ?? 15_000;
  const renewBeforeMs = (options.tokenRenewBeforeSec ?? 60) * 1000;
  const fallbackTtlMs = (options.tokenFallbackTtlSec ?? 300) * 1000;
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;

  let cachedToken: { value: string; renewAt: number } | null = null;
  // Concurrent calls share one token request instead of each asking for its own.
  let tokenInFlight: Promise<string> | null = null;

  async function requestToken(): Promise<string> {
    const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`, 'utf8').toString('base64');
    // The same form fields as the SDK's AuthClient (it also sends its user agent as a form field).
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      scope: MERPAY_SCOPE,
      'user-agent': USER_AGENT,
    });
    const issuedAt = now();
    let response: Response;
    try {
      response = await doFetch(`${authBase}${MERPAY_PATHS.token}`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${basic}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          'user-agent': USER_AGENT,
        },
        body: form.toString(),
        signal: AbortSignal.timeout(timeoutMs),
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
    const lifetimeMs = expiresInSec !== null && expiresInSec > 0 ? expiresInSec * 1000 : fallbackTtlMs;
    // Renewed before it runs out; a very short lifetime is still used for the call at hand.
    cachedToken = { value: parsed.access_token, renewAt: issuedAt + Math.max(0, lifetimeMs - renewBeforeMs) };
    return parsed.access_token;
  }

  function accessToken(): Promise<string> {
    if (cachedToken && now() < cachedToken.renewAt) return Promise.resolve(cachedToken.value);
    tokenInFlight ??= requestToken().finally(() => {
      tokenInFlight = null;
    });
    return tokenInFlight;
  }

  async function call<T>(path: string, params: Record<string, unknown>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      const token = await accessToken();
      let response: Response;
      try {
        response = await doFetch(`${apiBase}${path}`, {
          method: 'POST',
          // As the SDK's Client::request: the bare access token in `authorization`.
          headers: {
            authorization: token,
            'content-type': 'application/json',
            accept: 'application/json',
            'user-agent': USER_AGENT,
          },
          body: JSON.stringify(params),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new ProviderError(`merpay: ${path} failed to reach Merpay`, true, error);
      }
      const text = await response.text().catch(() => '');
      // A token revoked or expired early: forget it and try once with a new one.
      if (response.status === 401 && attempt === 0) {
        if (cachedToken?.value === token) cachedToken = null;
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

  async function readTransaction(transactionId: string): Promise<TransactionRead> {
    const answer = await call<{ transactions?: unknown }>(MERPAY_PATHS.batchGet, { transactionIds: [transactionId] });
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

  function transactionIdOf(ref: string): string {
    if (!TRANSACTION_ID.test(ref))
      throw new ProviderError(`merpay: ${JSON.stringify(ref)} is not a Merpay transaction id`, false);
    return ref;
  }

  function assertOurs(read: TransactionRead, transactionId: string, orderId: string): void {
    if (read.payment && read.payment.orderId !== orderId) {
      throw new ProviderError(`merpay: transaction ${transactionId} does not belong to order ${orderId}`, false);
    }
  }

  /** Cancels, treating "already canceled / nothing to cancel" as done when a fresh read agrees. */
  async function cancelTransaction(transactionId: string): Promise<void> {
    try {
      await call(MERPAY_PATHS.cancel, { transactionId });
    } catch (error) {
      if (!(error instanceof MerpayApiError) || error.retryable) throw error;
      const state = derive(await readTransaction(transactionId));
      // Unpaid: nothing can be taken back; a payment that still goes through arrives by its completion
      // callback and the shop treats it as a late payment.
      if (state.kind === 'canceled' || state.kind === 'unpaid') return;
      throw error;
    }
  }

  return {
    method: 'merpay',

    async createCheckout(request: CheckoutRequest): Promise<CheckoutStart> {
      assertWholeYen('merpay', request.amountJpy);
      const body: MerpayCreateTransactionRequest = {
        orderId: request.orderId,
        orderName: request.description,
        amount: request.amountJpy,
        // Coins are digital: no delivery address, no shipping fee (so no shippingFeeUrl either).
        useDeliveryAddress: false,
        useShippingFee: false,
        isFixedShippingFee: false,
        fixedShippingFee: 0,
        shippingFeeUrl: '',
        // Only Merpay learns these URLs (this request is server to server), so their token proves a callback is Merpay's.
        confirmUrl: withParams(request.webhookUrl, {
          kind: 'confirm',
          [MERPAY_CALLBACK_TOKEN_PARAM]: callbackToken(options.clientSecret, request.orderId, request.amountJpy),
        }),
        completionUrl: withParams(request.webhookUrl, {
          kind: 'completion',
          [MERPAY_CALLBACK_TOKEN_PARAM]: callbackToken(options.clientSecret, request.orderId, request.amountJpy),
        }),
        cancelUrl: request.cancelUrl,
        // Bound here so a confirm callback can be checked against Merpay's record before anything is paid.
        returnUrl: withParams(request.returnUrl, {
          [MERPAY_BOUND_ORDER_PARAM]: request.orderId,
          [MERPAY_BOUND_AMOUNT_PARAM]: String(request.amountJpy),
        }),
        paymentContractType: PAYMENT_CONTRACT_TYPE,
        capture: false,
        items: [{ name: request.description, unitPrice: request.amountJpy, quantity: 1 }],
        // Nothing about the member goes to Merpay that the payment does not need.
        metadata: {},
      };
      const created = await call<{ transactionId?: unknown; paymentUrl?: unknown }>(MERPAY_PATHS.create, { ...body });
      const transactionId = typeof created?.transactionId === 'string' ? created.transactionId : '';
      const paymentUrl = typeof created?.paymentUrl === 'string' ? created.paymentUrl : '';
      if (!TRANSACTION_ID.test(transactionId))
        throw new ProviderError('merpay: transaction:create answered without a usable transactionId', false);
      // The member's browser is sent there (form-action https: with real providers); anything else cannot be followed.
      if (!/^https?:\/\//i.test(paymentUrl))
        throw new ProviderError(
          `merpay: transaction:create answered with paymentUrl ${JSON.stringify(paymentUrl.slice(0, 80))}, not an http(s) URL`,
          false,
        );
      return { redirectUrl: paymentUrl, providerRef: transactionId };
    },

    // returnParams are ignored: what Merpay's API says about the transaction is the only word on it.
    async fetchPayment(order: OrderRef): Promise<ProviderPayment> {
      const transactionId = transactionIdOf(order.providerRef);
      let read = await readTransaction(transactionId);
      assertOurs(read, transactionId, order.orderId);
      let state = derive(read);
      if (state.kind === 'authorized') {
        if (state.amount !== order.amountJpy) {
          await cancelTransaction(transactionId);
          return {
            status: 'failed',
            reason: `金額が一致しません（注文 ${order.amountJpy.toLocaleString('ja-JP')}円 / メルペイ ${state.amount.toLocaleString('ja-JP')}円）`,
          };
        }
        try {
          await call(MERPAY_PATHS.capture, { transactionId, amount: state.amount });
        } catch (error) {
          // Another caller captured first (return page and callback race): the read decides.
          if (!(error instanceof MerpayApiError) || error.retryable) throw error;
          read = await readTransaction(transactionId);
          if (derive(read).kind === 'authorized') throw error;
        }
        read = await readTransaction(transactionId);
        state = derive(read);
      }
      switch (state.kind) {
        case 'unpaid':
        case 'authorized':
          return { status: 'pending' };
        case 'canceled':
          return { status: 'canceled' };
        case 'captured':
          return state.refundedJpy > 0
            ? {
                status: 'refunded',
                amountJpy: state.amount,
                refundedJpy: state.refundedJpy,
                providerPaymentId: transactionId,
              }
            : { status: 'paid', amountJpy: state.amount, providerPaymentId: transactionId };
      }
    },

    async cancel(order: OrderRef): Promise<void> {
      const transactionId = transactionIdOf(order.providerRef);
      const read = await readTransaction(transactionId);
      assertOurs(read, transactionId, order.orderId);
      const state = derive(read);
      if (state.kind === 'canceled') return;
      if (state.kind === 'captured')
        throw new ProviderError(`merpay: transaction ${transactionId} is captured; refund it instead`, false);
      await cancelTransaction(transactionId);
    },

    async refund(order, amountJpy): Promise<void> {
      assertWholeYen('merpay', amountJpy);
      const transactionId = transactionIdOf(order.providerPaymentId);
      const read = await readTransaction(transactionId);
      assertOurs(read, transactionId, order.orderId);
      const state = derive(read);
      if (state.kind !== 'captured')
        throw new ProviderError(
          `merpay: transaction ${transactionId} is not captured (${state.kind}); nothing to refund`,
          false,
        );
      // transaction:refund takes no merchant reference: the shop asks for what is still held (refundOrder
      // reads it first), so only a refund beyond the captured amount is refused here.
      if (state.refundedJpy + amountJpy > state.amount) {
        throw new ProviderError(
          `merpay: refund of ${amountJpy} exceeds what transaction ${transactionId} still holds`,
          false,
        );
      }
      await call(MERPAY_PATHS.refund, { transactionId, amount: amountJpy });
    },

    async verifyWebhook(request: WebhookRequest): Promise<VerifiedWebhookEvent[]> {
      let body: Record<string, unknown>;
      try {
        const parsed: unknown = JSON.parse(request.rawBody);
        if (!isObject(parsed)) throw new Error('not an object');
        body = parsed;
      } catch {
        throw new WebhookRejected('merpay: callback body is not a JSON object', 400);
      }
      const kind = callbackKind(body);
      if (!kind) throw new WebhookRejected('merpay: not a confirm or completion callback', 422);
      const transactionId = typeof body.transactionId === 'string' ? body.transactionId : '';
      if (!TRANSACTION_ID.test(transactionId))
        throw new WebhookRejected('merpay: callback has no valid transactionId', 400);
      const orderId = typeof body.orderId === 'string' ? body.orderId : '';
      // Every order of this shop is a UUID: anything else is not ours.
      if (!isUuid(orderId)) throw new WebhookRejected('merpay: callback orderId is not one of our order ids', 422);
      const amount = toInt(body.amount);
      if (amount === null || amount <= 0) throw new WebhookRejected('merpay: callback has no valid amount', 400);
      // We never ask for shipping: a fee on top would change what the member pays.
      const shippingFee = body.shippingFee === undefined || body.shippingFee === null ? 0 : toInt(body.shippingFee);
      if (shippingFee !== 0)
        throw new WebhookRejected('merpay: callback carries a shipping fee this shop never asked for', 422);
      // The token of the URL Merpay was given for this order and amount: without it the callback may come
      // from anyone who knows the order (the member does), so it is refused before Merpay is asked anything.
      if (!hasCallbackToken([request.url, body.url], options.clientSecret, orderId, amount)) {
        throw new WebhookRejected('merpay: callback URL does not carry the token given to Merpay for this order', 401);
      }

      // Unsigned: only Merpay's API, asked with our credentials, can vouch for it.
      const read = await readOrReject(() => readTransaction(transactionId), transactionId);
      const state = derive(read);
      if (read.payment) {
        if (read.payment.orderId !== orderId)
          throw new WebhookRejected('merpay: callback orderId disagrees with the transaction', 422);
        const authorized = toInt(read.payment.authorizedAmount) ?? 0;
        if (authorized !== amount)
          throw new WebhookRejected('merpay: callback amount disagrees with the transaction', 422);
        if (kind === 'confirm' && state.kind === 'canceled')
          throw new WebhookRejected('merpay: confirm for a canceled transaction', 422);
      } else {
        if (kind === 'completion')
          throw new WebhookRejected('merpay: completion for a transaction Merpay shows no payment for', 422);
        // Before payment Merpay's public reads give no amount: check the binding we put in the returnUrl.
        const status = await readOrReject(
          () => call<MerpayTransitionStatus>(MERPAY_PATHS.transitionStatus, { transactionId }),
          transactionId,
        );
        const bound = boundOrder(status?.returnUrl);
        if (!bound) throw new WebhookRejected('merpay: the transaction was not created by this shop', 422);
        if (bound.orderId !== orderId)
          throw new WebhookRejected('merpay: callback orderId disagrees with the transaction', 422);
        if (bound.amount !== amount)
          throw new WebhookRejected('merpay: callback amount disagrees with the transaction', 422);
      }
      return [
        {
          eventId: `${kind}:${transactionId}`,
          type: kind,
          orderId,
          providerRef: transactionId,
          hint: kind === 'confirm' ? 'pending' : 'paid',
          // Merpay waits on this answer (the confirm decides whether it charges): a plain 200 with an
          // empty JSON object, which any response message parses, rather than our receipt fields.
          reply: { status: 200, json: {} },
        },
      ];
    },
  };
}

/**
 * Reads for a callback. An id Merpay does not know (404) or will not show us (400, 403) is a forged
 * callback; anything else (an outage, our own credentials refused) stays an error, so the route answers
 * 5xx, Merpay may retry, and the operator sees it.
 */
async function readOrReject<T>(read: () => Promise<T>, transactionId: string): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof MerpayApiError && error.notFound)
      throw new WebhookRejected(`merpay: transaction ${transactionId} does not exist at Merpay`, 404);
    if (error instanceof MerpayApiError && (error.status === 400 || error.status === 403)) {
      throw new WebhookRejected(
        `merpay: Merpay refused to show transaction ${transactionId} (${error.status})`,
        error.status,
      );
    }
    throw error;
  }
}

/** The state the payment's amounts and timestamps describe (the status enum is not named by the SDK). */
function derive(read: TransactionRead): Derived {
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

/** confirm or completion: from the `?kind=` of the URL Merpay called (the body's `url`), else from the body's shape. */
function callbackKind(body: Record<string, unknown>): CallbackKind | null {
  if (typeof body.url === 'string') {
    try {
      const kind = new URL(body.url).searchParams.get('kind');
      if (kind === 'confirm' || kind === 'completion') return kind;
    } catch {
      // Not a URL: fall back to the shape.
    }
  }
  // GetShippingFeeRequest carries `area`; this shop never registers a shippingFeeUrl.
  if ('area' in body) return null;
  const completionOnly = ['inquiryCode', 'orderName', 'buyer', 'paymentContractType', 'deliveryAddress'];
  return completionOnly.some((field) => field in body) ? 'completion' : 'confirm';
}

/**
 * The token the callback URLs carry: HMAC-SHA256 of the order id and amount, keyed by our client secret.
 * @example callbackToken('secret', '0b7c…', 1000) // 43 base64url characters
 */
export function callbackToken(clientSecret: string, orderId: string, amountJpy: number): string {
  return createHmac('sha256', clientSecret)
    .update(`merpay-callback\u0000${orderId.toLowerCase()}\u0000${amountJpy}`)
    .digest('base64url');
}

/**
 * Whether one of the URLs (the one the request came to, then the callback's own `url` field) carries the
 * token for this order and amount. The token is the secret, so either place proves the same.
 */
function hasCallbackToken(urls: unknown[], clientSecret: string, orderId: string, amountJpy: number): boolean {
  const expected = Buffer.from(callbackToken(clientSecret, orderId, amountJpy));
  return urls.some((url) => {
    if (typeof url !== 'string') return false;
    let given: string | null;
    try {
      given = new URL(url).searchParams.get(MERPAY_CALLBACK_TOKEN_PARAM);
    } catch {
      return false;
    }
    const candidate = Buffer.from(given ?? '');
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  });
}

/** The order id and amount createCheckout put into the returnUrl, or null when they are not there. */
function boundOrder(returnUrl: unknown): { orderId: string; amount: number } | null {
  if (typeof returnUrl !== 'string') return null;
  try {
    const params = new URL(returnUrl).searchParams;
    const orderId = params.get(MERPAY_BOUND_ORDER_PARAM);
    const amount = toInt(params.get(MERPAY_BOUND_AMOUNT_PARAM));
    return orderId && amount !== null ? { orderId, amount } : null;
  } catch {
    return null;
  }
}

function withParams(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [key, value] of Object.entries(params)) u.searchParams.set(key, value);
  return u.toString();
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

/** Whole numbers as JSON numbers or as the decimal strings proto3 JSON uses for int64. */
function toInt(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value)) return Number(value);
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-200 answer from the Merpay API (`{ code, message, requestId, details }`), keeping the HTTP status. */
export class MerpayApiError extends ProviderError {
  readonly code: unknown;
  readonly requestId: string | null;
  constructor(
    readonly status: number,
    body: string,
    path: string,
  ) {
    super(`merpay: ${path} answered ${status}${describeError(body)}`, isRetryableStatus(status));
    this.name = 'MerpayApiError';
    const parsed = parseError(body);
    this.code = parsed?.code ?? null;
    this.requestId = typeof parsed?.requestId === 'string' ? parsed.requestId : null;
  }

  /** 404, or the gRPC-style NOT_FOUND code (5) a 200-less answer may carry. */
  get notFound(): boolean {
    return this.status === 404 || this.code === 'NOT_FOUND' || this.code === 5;
  }
}

function parseError(body: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(body);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** `: code — message (requestId …)` from the SDK's error shape, or OAuth's `error` / `error_description`. */
function describeError(body: string): string {
  const parsed = parseError(body);
  if (!parsed) return '';
  const parts = [parsed.code ?? parsed.error, parsed.message ?? parsed.error_description]
    .filter((p): p is string | number => typeof p === 'string' || typeof p === 'number')
    .map(String);
  const requestId = typeof parsed.requestId === 'string' ? ` (requestId ${parsed.requestId})` : '';
  return parts.length ? `: ${parts.join(' — ')}${requestId}` : requestId;
}
