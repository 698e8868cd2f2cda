// Local stand-in for メルペイ: the token endpoint, the /v1 transaction API and the confirm/completion callbacks as Mercari's PHP SDK shows them, plus a hosted payment page.
//
// Shapes follow mercari/merpay-netpayment-sdk-php 1.4.1 (see providers/merpay.md): OAuth2 client
// credentials at /jp/v1/token (Basic clientId:clientSecret, scope netpayment:transaction:write), API calls
// as JSON POSTs authorised by the bare access token, errors as `{ code, message, requestId, details }`,
// and the callbacks ConfirmRequest / CompletionRequest POSTed to the URLs given at transaction:create.
// What the SDK does not tell (enum values, error codes, how refunds are listed, when the payment is
// authorised relative to the confirm) is this stand-in's choice, listed in merpay.md.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { escapeHtml, isHttpUrl, isRecord, listenStandin, token } from '#devtools/standins/shared';

// The wire shapes of mercari/merpay-netpayment-sdk-php 1.4.1 (messages.php), declared here again rather
// than taken from the adapter: the stand-in is a second, independent reading of Merpay's protocol, so a
// shape the adapter gets wrong shows up as a disagreement in the tests instead of being shared.
/** CreateTransactionRequest as api.php sends it (plus orderName from messages.php). */
interface MerpayCreateTransactionRequest {
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

/** BatchGetTransactionsResponse\TransactionPayment. */
interface MerpayTransactionPayment {
  orderId?: string;
  authorizedAmount?: number | string;
  capturedAmount?: number | string;
  canceledAmount?: number | string;
  status?: number;
  authorizedAt?: string | null;
  capturedAt?: string | null;
  canceledAt?: string | null;
}

/** BatchGetTransactionsResponse\Transaction: a payment entry or a refund entry. */
interface MerpayTransactionEntry {
  transactionId?: string;
  type?: number;
  payment?: MerpayTransactionPayment | null;
  refund?: { amount?: number | string; refundedAt?: string | null } | null;
}

export interface MerpayStandinOptions {
  port?: number;
  host?: string;
  /** The client credentials the token endpoint accepts. */
  clientId: string;
  clientSecret: string;
  /** Base URL the stand-in is reached at from the browser, when it differs from http://host:port. */
  publicUrl?: string;
  /** Lifetime of issued access tokens in seconds (default 3600), given as expires_in. */
  tokenTtlSec?: number;
  /** How long Merpay waits for the shop's answer to a callback, in milliseconds (default 10000). */
  callbackTimeoutMs?: number;
}

/**
 * Where a transaction stands. `created` until the member acts on the page; `confirming` while the
 * shop's confirm callback is out; the payment exists from `authorized` on.
 */
export type MerpayStandinState =
  | 'created'
  | 'confirming'
  | 'declined'
  | 'canceled_by_member'
  | 'refused_by_merchant'
  | 'authorized'
  | 'captured'
  | 'canceled';

export interface MerpayStandinTransaction {
  transactionId: string;
  /** The create request as received. */
  request: MerpayCreateTransactionRequest;
  state: MerpayStandinState;
  payment:
    | (Required<Omit<MerpayTransactionPayment, 'authorizedAmount' | 'capturedAmount' | 'canceledAmount'>> & {
        authorizedAmount: number;
        capturedAmount: number;
        canceledAmount: number;
      })
    | null;
  inquiryCode: string | null;
  refunds: { refundTransactionId: string; amount: number; refundedAt: string; inquiryCode: string }[];
  createdAt: string;
}

export interface MerpayStandinCallback {
  kind: 'confirm' | 'completion';
  transactionId: string;
  url: string;
  body: string;
  /** HTTP status the shop answered, or null when it could not be reached in time. */
  status: number | null;
  answer: string;
}

export interface MerpayStandin {
  url: string;
  close(): Promise<void>;
  getTransaction(transactionId: string): MerpayStandinTransaction | undefined;
  /** The member approves on the page (without a browser): confirm callback, payment, completion callback. */
  approve(transactionId: string): Promise<{ transaction: MerpayStandinTransaction; redirectUrl: string }>;
  /** Merpay declines the payment (e.g. 残高不足); the member is sent to the cancelUrl. */
  decline(transactionId: string): Promise<{ transaction: MerpayStandinTransaction; redirectUrl: string }>;
  /** The member presses キャンセル on the page. */
  cancelByMember(transactionId: string): Promise<{ transaction: MerpayStandinTransaction; redirectUrl: string }>;
  /** A refund made in Merpay's merchant console (Merpay sends no callback for it). */
  refund(transactionId: string, amountJpy: number): MerpayStandinTransaction;
  /** Invalidates every access token issued so far (as an early expiry would). */
  revokeTokens(): void;
  /** Access tokens issued since start. */
  readonly tokensIssued: number;
  readonly callbacks: readonly MerpayStandinCallback[];
}

const MAX_AMOUNT = 1_000_000;
// Written out here, not imported from the adapter, so a wrong scope on either side shows in tests.
const SCOPE = 'netpayment:transaction:write';
// Placeholders: the SDK carries these as integers without naming their values. The adapter ignores them.
const PAYMENT_STATUS = { authorized: 1, captured: 2, canceled: 3 } as const;
const ENTRY_TYPE = { payment: 1, refund: 2 } as const;
const TRANSITION_STATUS: Record<MerpayStandinState, number> = {
  created: 1,
  confirming: 2,
  authorized: 3,
  captured: 3,
  declined: 4,
  canceled_by_member: 5,
  refused_by_merchant: 6,
  canceled: 7,
};

type ErrorStatus = 400 | 401 | 403 | 404 | 409;
class StandinError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Everything the stand-in holds, passed explicitly to each handler and operation. */
interface MerpayState {
  options: MerpayStandinOptions;
  tokenTtlSec: number;
  callbackTimeoutMs: number;
  transactions: Map<string, MerpayStandinTransaction>;
  /** Our order id → transaction id (one transaction per orderId). */
  byOrderId: Map<string, string>;
  /** Refund transaction id → the payment's transaction id. */
  refundOwner: Map<string, string>;
  /** Issued access tokens and when they expire (ms). */
  tokens: Map<string, number>;
  callbacks: MerpayStandinCallback[];
  tokensIssued: number;
  /** Where the stand-in is reached (known once it listens). */
  url: string;
}

type Route = {
  method: 'get' | 'post';
  path: string;
  handle: (state: MerpayState, c: Context) => Response | Promise<Response>;
};

/** The API's methods by path (V1\Api), each an operation on the state. */
const OPERATIONS: Readonly<Record<string, (state: MerpayState, body: Record<string, unknown>) => unknown>> = {
  '/v1/transaction:create': create,
  '/v1/transaction:capture': capture,
  '/v1/transaction:cancel': cancel,
  '/v1/transaction:refund': refund,
  '/v1/transactions:batchGet': batchGet,
  '/v1/transitionStatus:get': transitionStatus,
};

/** Every route: the token endpoint, the transaction API and the hosted page. */
const ROUTES: readonly Route[] = [
  { method: 'post', path: '/jp/v1/token', handle: issueToken },
  { method: 'post', path: '/v1/*', handle: callOperation },
  { method: 'get', path: '/payment', handle: showPaymentPage },
  { method: 'post', path: '/payment', handle: submitPaymentPage },
];

/** Starts the Merpay stand-in on `port` (0 = any free port). */
export async function startMerpayStandin(options: MerpayStandinOptions): Promise<MerpayStandin> {
  if (!options.clientId || !options.clientSecret)
    throw new Error('merpay stand-in: clientId and clientSecret are required');
  const state: MerpayState = {
    options,
    tokenTtlSec: options.tokenTtlSec ?? 3600,
    callbackTimeoutMs: options.callbackTimeoutMs ?? 10_000,
    transactions: new Map(),
    byOrderId: new Map(),
    refundOwner: new Map(),
    tokens: new Map(),
    callbacks: [],
    tokensIssued: 0,
    url: '',
  };
  const app = new Hono();
  for (const route of ROUTES) app.on(route.method.toUpperCase(), route.path, (c) => route.handle(state, c));
  const listening = await listenStandin(app.fetch, options);
  state.url = (options.publicUrl ?? listening.url).replace(/\/+$/, '');
  return {
    url: state.url,
    async close() {
      await new Promise<void>((resolve) => {
        listening.server.close(() => resolve());
        (listening.server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
    getTransaction: (id) => {
      const t = state.transactions.get(id);
      return t ? structuredClone(t) : undefined;
    },
    approve: (id) => control(state, id, 'approve'),
    decline: (id) => control(state, id, 'decline'),
    cancelByMember: (id) => control(state, id, 'cancel'),
    refund(id, amountJpy) {
      const t = mustGet(state, id);
      try {
        addRefund(state, t, amountJpy);
      } catch (error) {
        throw new Error(`merpay stand-in: ${(error as Error).message}`);
      }
      return structuredClone(t);
    },
    revokeTokens: () => state.tokens.clear(),
    get tokensIssued() {
      return state.tokensIssued;
    },
    get callbacks() {
      return state.callbacks;
    },
  };
}

const errorBody = (code: string, message: string) => ({
  code,
  message,
  requestId: `req_${token(20)}`,
  details: [] as unknown[],
});
const fail = (c: Context, e: StandinError) => c.json(errorBody(e.code, e.message), e.status);

// --- Token endpoint (AuthClient::fetchAccessToken) -------------------------------------------

/** POST /jp/v1/token: client credentials (Basic), form grant_type and scope → a bare access token. */
async function issueToken(state: MerpayState, c: Context): Promise<Response> {
  const credentials = basicCredentials(c.req.header('authorization'));
  if (!credentials || credentials.id !== state.options.clientId || credentials.secret !== state.options.clientSecret) {
    return fail(c, new StandinError(401, 'UNAUTHENTICATED', 'Client authentication failed.'));
  }
  if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    return fail(
      c,
      new StandinError(400, 'INVALID_ARGUMENT', 'The token request must be application/x-www-form-urlencoded.'),
    );
  }
  const form = new URLSearchParams(await c.req.text());
  if (form.get('grant_type') !== 'client_credentials')
    return fail(c, new StandinError(400, 'INVALID_ARGUMENT', 'grant_type must be client_credentials.'));
  if (!(form.get('scope') ?? '').split(' ').includes(SCOPE))
    return fail(c, new StandinError(403, 'PERMISSION_DENIED', `scope must include ${SCOPE}.`));
  const accessToken = token(48);
  state.tokens.set(accessToken, Date.now() + state.tokenTtlSec * 1000);
  state.tokensIssued += 1;
  return c.json({ access_token: accessToken, token_type: 'Bearer', expires_in: state.tokenTtlSec, scope: SCOPE });
}

// --- Transaction API (V1\Api) ----------------------------------------------------------------

/** POST /v1/…: the bare access token, a JSON object body, then the operation of that path. */
async function callOperation(state: MerpayState, c: Context): Promise<Response> {
  // As the SDK sends it: the bare token, no "Bearer" (a client that adds one is told so).
  const presented = c.req.header('authorization') ?? '';
  const expiresAt = state.tokens.get(presented);
  if (expiresAt === undefined || expiresAt <= Date.now()) {
    return fail(
      c,
      new StandinError(
        401,
        'UNAUTHENTICATED',
        presented.startsWith('Bearer ')
          ? 'Send the access token itself in authorization.'
          : 'The access token is missing, invalid or expired.',
      ),
    );
  }
  let body: Record<string, unknown>;
  try {
    const parsed: unknown = await c.req.json();
    if (!isRecord(parsed)) throw new Error('not an object');
    body = parsed;
  } catch {
    return fail(c, new StandinError(400, 'INVALID_ARGUMENT', 'The body must be a JSON object.'));
  }
  const path = safeDecode(c.req.path);
  try {
    const operation = Object.hasOwn(OPERATIONS, path) ? OPERATIONS[path] : undefined;
    if (!operation) return fail(c, new StandinError(404, 'NOT_FOUND', `No method at ${path}.`));
    return c.json(operation(state, body) as object);
  } catch (error) {
    if (error instanceof StandinError) return fail(c, error);
    throw error;
  }
}

function create(state: MerpayState, b: Record<string, unknown>) {
  const orderId = b.orderId;
  if (typeof orderId !== 'string' || orderId.length === 0 || orderId.length > 255)
    throw invalid('orderId is required (1–255 characters).');
  const amount = b.amount;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 1 || amount > MAX_AMOUNT)
    throw invalid(`amount must be an integer from 1 to ${MAX_AMOUNT}.`);
  for (const flag of ['useDeliveryAddress', 'useShippingFee', 'isFixedShippingFee', 'capture'] as const) {
    if (typeof b[flag] !== 'boolean') throw invalid(`${flag} must be a boolean.`);
  }
  // Addresses and shipping fees are not part of this stand-in (the shop sells coins).
  if (b.useDeliveryAddress || b.useShippingFee)
    throw invalid('useDeliveryAddress and useShippingFee are not supported by this stand-in.');
  if (typeof b.fixedShippingFee !== 'number' || !Number.isSafeInteger(b.fixedShippingFee) || b.fixedShippingFee < 0)
    throw invalid('fixedShippingFee must be a non-negative integer.');
  if (typeof b.shippingFeeUrl !== 'string') throw invalid('shippingFeeUrl must be a string.');
  for (const key of ['confirmUrl', 'completionUrl', 'cancelUrl', 'returnUrl'] as const) {
    const value = b[key];
    if (typeof value !== 'string' || !isHttpUrl(value)) throw invalid(`${key} must be an http(s) URL.`);
  }
  if (typeof b.paymentContractType !== 'number' || !Number.isSafeInteger(b.paymentContractType))
    throw invalid('paymentContractType must be an integer.');
  if (b.orderName !== undefined && typeof b.orderName !== 'string') throw invalid('orderName must be a string.');
  if (!Array.isArray(b.items) || b.items.length === 0) throw invalid('items must be a non-empty array.');
  let itemsTotal = 0;
  for (const item of b.items as unknown[]) {
    if (!isRecord(item) || typeof item.name !== 'string' || item.name.length === 0)
      throw invalid('each item needs a name.');
    if (typeof item.unitPrice !== 'number' || !Number.isSafeInteger(item.unitPrice) || item.unitPrice < 0)
      throw invalid('item unitPrice must be a non-negative integer.');
    if (typeof item.quantity !== 'number' || !Number.isSafeInteger(item.quantity) || item.quantity < 1)
      throw invalid('item quantity must be a positive integer.');
    itemsTotal += item.unitPrice * item.quantity;
  }
  if (itemsTotal !== amount) throw invalid('The items do not add up to amount.');
  if (!isRecord(b.metadata)) throw invalid('metadata must be an object.');
  if (state.byOrderId.has(orderId))
    throw new StandinError(409, 'ALREADY_EXISTS', 'A transaction with this orderId exists.');
  const transactionId = `mtx_${token(24)}`;
  const transaction: MerpayStandinTransaction = {
    transactionId,
    request: structuredClone(b) as unknown as MerpayCreateTransactionRequest,
    state: 'created',
    payment: null,
    inquiryCode: null,
    refunds: [],
    createdAt: new Date().toISOString(),
  };
  state.transactions.set(transactionId, transaction);
  state.byOrderId.set(orderId, transactionId);
  // "a deeplink to launch mercari-app (a transaction_id is included as a query parameter)"; here, the page.
  return { transactionId, paymentUrl: `${state.url}/payment?transaction_id=${encodeURIComponent(transactionId)}` };
}

function mustFind(state: MerpayState, b: Record<string, unknown>): MerpayStandinTransaction {
  const id = b.transactionId;
  if (typeof id !== 'string' || id.length === 0) throw invalid('transactionId is required.');
  const transaction = state.transactions.get(id);
  if (!transaction) throw new StandinError(404, 'NOT_FOUND', 'No such transaction.');
  return transaction;
}

function capture(state: MerpayState, b: Record<string, unknown>) {
  const t = mustFind(state, b);
  if (t.state !== 'authorized' || !t.payment)
    throw new StandinError(
      409,
      'FAILED_PRECONDITION',
      `The transaction is ${t.state}; only an authorised one can be captured.`,
    );
  if (b.amount !== t.payment.authorizedAmount)
    throw invalid('amount must equal the authorised amount (no partial capture here).');
  t.state = 'captured';
  t.payment.capturedAmount = t.payment.authorizedAmount;
  t.payment.capturedAt = new Date().toISOString();
  t.payment.status = PAYMENT_STATUS.captured;
  return { transactionId: t.transactionId };
}

function cancel(state: MerpayState, b: Record<string, unknown>) {
  const t = mustFind(state, b);
  if (t.state === 'captured')
    throw new StandinError(409, 'FAILED_PRECONDITION', 'The transaction is captured; refund it instead.');
  if (t.state === 'canceled')
    throw new StandinError(409, 'FAILED_PRECONDITION', 'The transaction is already canceled.');
  if (t.state === 'authorized' && t.payment) {
    t.payment.canceledAmount = t.payment.authorizedAmount;
    t.payment.canceledAt = new Date().toISOString();
    t.payment.status = PAYMENT_STATUS.canceled;
  }
  // Unpaid: the page closes, no payment can follow.
  t.state = 'canceled';
  return { transactionId: t.transactionId };
}

function addRefund(state: MerpayState, t: MerpayStandinTransaction, amount: unknown) {
  if (t.state !== 'captured' || !t.payment)
    throw new StandinError(
      409,
      'FAILED_PRECONDITION',
      `The transaction is ${t.state}; only a captured one can be refunded.`,
    );
  const refunded = t.refunds.reduce((sum, r) => sum + r.amount, 0);
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 1)
    throw invalid('amount must be a positive integer.');
  if (refunded + amount > t.payment.capturedAmount) throw invalid('amount exceeds what is left to refund.');
  const entry = {
    refundTransactionId: `mtx_${token(24)}`,
    amount,
    refundedAt: new Date().toISOString(),
    inquiryCode: t.inquiryCode ?? '',
  };
  t.refunds.push(entry);
  state.refundOwner.set(entry.refundTransactionId, t.transactionId);
  return entry;
}

function refund(state: MerpayState, b: Record<string, unknown>) {
  const t = mustFind(state, b);
  const entry = addRefund(state, t, b.amount);
  return {
    transactionId: t.transactionId,
    refundTransactionId: entry.refundTransactionId,
    inquiryCode: entry.inquiryCode,
  };
}

function batchGet(state: MerpayState, b: Record<string, unknown>) {
  const ids = b.transactionIds;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > 100 || !ids.every((id) => typeof id === 'string')) {
    throw invalid('transactionIds must be 1–100 strings.');
  }
  const out: MerpayTransactionEntry[] = [];
  for (const id of ids as string[]) {
    const owner = state.refundOwner.get(id);
    if (owner) {
      const r = state.transactions.get(owner)!.refunds.find((x) => x.refundTransactionId === id)!;
      out.push({
        transactionId: id,
        type: ENTRY_TYPE.refund,
        payment: null,
        refund: { amount: r.amount, refundedAt: r.refundedAt },
      });
      continue;
    }
    const t = state.transactions.get(id);
    // As some batch APIs do: one unknown id fails the whole call.
    if (!t) throw new StandinError(404, 'NOT_FOUND', `No such transaction: ${id}.`);
    out.push({
      transactionId: t.transactionId,
      type: ENTRY_TYPE.payment,
      payment: t.payment ? { ...t.payment } : null,
      refund: null,
    });
    for (const r of t.refunds)
      out.push({
        transactionId: r.refundTransactionId,
        type: ENTRY_TYPE.refund,
        payment: null,
        refund: { amount: r.amount, refundedAt: r.refundedAt },
      });
  }
  return { transactions: out };
}

function transitionStatus(state: MerpayState, b: Record<string, unknown>) {
  const t = mustFind(state, b);
  return {
    transactionId: t.transactionId,
    transitionStatus: TRANSITION_STATUS[t.state],
    cancelUrl: t.request.cancelUrl,
    returnUrl: t.request.returnUrl,
    createdAt: t.createdAt,
    serverTime: new Date().toISOString(),
  };
}

// --- Callbacks (Callback\ConfirmRequest / CompletionRequest) -------------------------------
async function sendCallback(
  state: MerpayState,
  t: MerpayStandinTransaction,
  kind: 'confirm' | 'completion',
  payload: Record<string, unknown>,
): Promise<number | null> {
  const target = kind === 'confirm' ? t.request.confirmUrl : t.request.completionUrl;
  const body = JSON.stringify({ url: target, ...payload });
  const record: MerpayStandinCallback = {
    kind,
    transactionId: t.transactionId,
    url: target,
    body,
    status: null,
    answer: '',
  };
  state.callbacks.push(record);
  try {
    const response = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'merpay-standin' },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(state.callbackTimeoutMs),
    });
    record.status = response.status;
    record.answer = (await response.text()).slice(0, 2000);
  } catch {
    record.status = null;
  }
  return record.status;
}

type Decision = { redirectUrl: string } | { problem: string };

/** The member's choice on the page; the same path for the browser and the test controls. */
async function decide(
  state: MerpayState,
  t: MerpayStandinTransaction,
  action: 'approve' | 'decline' | 'cancel',
): Promise<Decision> {
  if (t.state !== 'created') return { problem: `the transaction is ${t.state}` };
  if (action === 'decline') {
    t.state = 'declined';
    return { redirectUrl: t.request.cancelUrl };
  }
  if (action === 'cancel') {
    t.state = 'canceled_by_member';
    return { redirectUrl: t.request.cancelUrl };
  }
  // Merpay asks the shop first and charges only on a 2xx answer.
  t.state = 'confirming';
  const confirmed = await sendCallback(state, t, 'confirm', {
    transactionId: t.transactionId,
    orderId: t.request.orderId,
    amount: t.request.amount,
    shippingFee: 0,
  });
  // The shop may have canceled the transaction while its confirm was out.
  if ((t.state as MerpayStandinState) !== 'confirming') return { redirectUrl: t.request.cancelUrl };
  if (confirmed === null || confirmed < 200 || confirmed >= 300) {
    t.state = 'refused_by_merchant';
    return { redirectUrl: t.request.cancelUrl };
  }
  const now = new Date().toISOString();
  t.inquiryCode = String(Math.floor(1e11 + Math.random() * 9e11));
  t.payment = {
    orderId: t.request.orderId,
    authorizedAmount: t.request.amount,
    capturedAmount: t.request.capture ? t.request.amount : 0,
    canceledAmount: 0,
    status: t.request.capture ? PAYMENT_STATUS.captured : PAYMENT_STATUS.authorized,
    authorizedAt: now,
    capturedAt: t.request.capture ? now : null,
    canceledAt: null,
  };
  t.state = t.request.capture ? 'captured' : 'authorized';
  // Sent and waited for, but its answer changes nothing: the payment is made.
  await sendCallback(state, t, 'completion', {
    transactionId: t.transactionId,
    orderId: t.request.orderId,
    orderName: t.request.orderName ?? '',
    inquiryCode: t.inquiryCode,
    amount: t.request.amount,
    shippingFee: 0,
    paymentContractType: t.request.paymentContractType,
    buyer: { nickname: 'テストユーザー', telephone: '', email: '' },
    deliveryAddress: null,
  });
  return { redirectUrl: t.request.returnUrl };
}

// --- Hosted payment page ----------------------------------------------------------------------

/** GET /payment?transaction_id=…: the hosted page standing in for the Mercari app. */
function showPaymentPage(state: MerpayState, c: Context): Response {
  const t = state.transactions.get(c.req.query('transaction_id') ?? '');
  if (!t) return c.html(page('エラー', '<h1>お支払いが見つかりません</h1>'), 404);
  if (t.state !== 'created') return c.html(closedPage(t), 409);
  return c.html(paymentPage(t));
}

/** POST /payment: the member’s button (approve, decline, cancel): callbacks, then back to the shop. */
async function submitPaymentPage(state: MerpayState, c: Context): Promise<Response> {
  const form = await c.req.parseBody();
  const t = state.transactions.get(typeof form.transaction_id === 'string' ? form.transaction_id : '');
  if (!t) return c.html(page('エラー', '<h1>お支払いが見つかりません</h1>'), 404);
  const action = form.action;
  if (action !== 'approve' && action !== 'decline' && action !== 'cancel')
    return c.html(page('エラー', '<h1>操作が正しくありません</h1>'), 400);
  const result = await decide(state, t, action);
  if ('problem' in result) return c.html(closedPage(t), 409);
  return c.redirect(result.redirectUrl, 303);
}

// --- Test controls ----------------------------------------------------------------------------

function mustGet(state: MerpayState, id: string): MerpayStandinTransaction {
  const t = state.transactions.get(id);
  if (!t) throw new Error(`merpay stand-in: no transaction ${id}`);
  return t;
}

async function control(state: MerpayState, id: string, action: 'approve' | 'decline' | 'cancel') {
  const t = mustGet(state, id);
  const result = await decide(state, t, action);
  if ('problem' in result) throw new Error(`merpay stand-in: ${result.problem}`);
  return { transaction: structuredClone(t), redirectUrl: result.redirectUrl };
}

const invalid = (message: string) => new StandinError(400, 'INVALID_ARGUMENT', message);

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  if (!header || !/^Basic\s+/i.test(header)) return null;
  const decoded = Buffer.from(header.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

function paymentPage(t: MerpayStandinTransaction): string {
  const items = t.request.items
    .map(
      (i) =>
        `<li>${escapeHtml(i.name)} × ${escapeHtml(String(i.quantity))}　${escapeHtml(i.unitPrice.toLocaleString('ja-JP'))}円</li>`,
    )
    .join('');
  return page(
    'メルペイでお支払い',
    `<p class="brand">メルペイ <span class="tag">テスト環境</span></p>
<h1>${escapeHtml(t.request.orderName || 'ご注文')}</h1>
<p class="amount">${escapeHtml(t.request.amount.toLocaleString('ja-JP'))}<small>円</small></p>
<ul class="items">${items}</ul>
<p class="note">注文番号: ${escapeHtml(t.request.orderId)}<br>これはメルペイを模したローカルのテスト画面です。実際の請求は発生しません。</p>
<form method="post" action="/payment">
<input type="hidden" name="transaction_id" value="${escapeHtml(t.transactionId)}">
<button type="submit" name="action" value="approve" class="primary">お支払いを承認</button>
<button type="submit" name="action" value="decline">拒否</button>
<button type="submit" name="action" value="cancel" class="link">キャンセル</button>
</form>`,
  );
}

function closedPage(t: MerpayStandinTransaction): string {
  const reason: Partial<Record<MerpayStandinState, string>> = {
    refused_by_merchant: 'ショップがご注文を確認できなかったため、お支払いは行われませんでした。',
    declined: 'お支払いができませんでした。',
    canceled_by_member: 'お支払いはキャンセルされました。',
    canceled: 'このお支払いは取り消されました。',
    confirming: 'お支払いを処理しています。',
  };
  return page(
    'お支払い',
    `<h1>このお支払いは受付を終了しています</h1><p>${escapeHtml(reason[t.state] ?? 'お支払いは完了しています。')}</p>`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Hiragino Sans","Noto Sans JP",sans-serif;background:#f3f6fb;color:#222}
main{max-width:420px;margin:0 auto;padding:24px 16px}
.brand{color:#e0263b;font-weight:700;margin:0 0 12px}.tag{font-size:12px;background:#fff3c4;color:#7a5b00;padding:2px 6px;border-radius:4px}
h1{font-size:20px;margin:0 0 8px}.amount{font-size:32px;font-weight:700;margin:8px 0 16px}.amount small{font-size:16px;margin-left:4px}
.items{font-size:14px;padding-left:18px}.note{font-size:13px;color:#555}
button{display:block;width:100%;padding:14px;margin:10px 0;font-size:16px;border-radius:8px;border:1px solid #e0263b;background:#fff;color:#e0263b}
button.primary{background:#e0263b;color:#fff}button.link{border:none;background:none;text-decoration:underline;color:#555}
</style></head><body><main>${body}</main></body></html>`;
}
