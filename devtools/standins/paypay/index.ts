// Local PayPay stand-in: speaks PayPay OPA's web-payment API (OPA-Auth HMAC, /v2/codes, /v2/payments, /v2/refunds) over HTTPS, serves a hosted payment page over HTTP and sends PayPay's Transaction webhooks.
//
// Why two listeners: the official Node SDK only speaks HTTPS (node:https, no plain-HTTP switch), so the
// API side serves TLS with a self-signed certificate generated at start (the adapter trusts exactly that
// certificate through its `trustedCaPem` option). The member's browser, however, must not hit a
// certificate warning in the local demo, so the hosted cashier page lives on a second, plain-HTTP
// listener, just as PayPay's real API host (apigw.paypay.ne.jp) and cashier host are different hosts.
//
// Documented behaviour this follows (see modules/payments/providers/paypay.md for the sources):
// - Authorization: `hmac OPA-Auth:<apiKey>:<macData>:<nonce>:<epoch>:<hash>`, where hash is
//   base64(MD5(contentType + body)) or "empty", macData is base64(HMAC-SHA256(secret,
//   path\nmethod\nnonce\nepoch\ncontentType\nhash)), and epoch must be within 2 minutes of server time.
//   Anything else: 401 {"resultInfo":{"code":"UNAUTHORIZED",...}}.
// - The merchant is named by `X-ASSUME-MERCHANT` (or `?assumeMerchant=`, which wins).
// - Get Payment Details of a code nobody paid (also once expired) answers status CREATED.
// - PayPay redirects the member to redirectUrl unchanged (no query parameters are added).
// - Transaction webhooks are plain JSON without any signature, sent for COMPLETED / FAILED / CANCELED;
//   no webhook for refunds. Delivery: 2 s timeout, up to 3 retries 100 ms apart.
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpsServer } from 'node:https';
import { isIP, type AddressInfo } from 'node:net';
import { Hono, type Context, type Next } from 'hono';
import { serve, type ServerType } from '@hono/node-server';
import { generate } from 'selfsigned';

export interface PayPayStandinOptions {
  /** Port of the HTTPS API listener (0 = a free port). */
  port?: number;
  /** Interface to listen on, for both listeners (default 127.0.0.1). */
  host?: string;
  /** Port of the plain-HTTP hosted payment page (0 = a free port). */
  cashierPort?: number;
  /** Public origin of the hosted page when the member's browser reaches it by another name (demo behind a proxy/LAN). */
  cashierPublicUrl?: string;
  /** Where Transaction webhooks are POSTed (our /api/webhooks/paypay); none are sent when unset. */
  webhookUrl?: string;
  apiKey: string;
  apiSecret: string;
  merchantId: string;
  /** How long a created code can be paid (seconds, default 600). */
  codeValidSeconds?: number;
  /** Use this certificate instead of generating one. */
  tls?: { key: string; cert: string };
}

/** PayPay's payment states as Get Payment Details reports them. */
export type PayPayStatus =
  'CREATED' | 'AUTHORIZED' | 'REAUTHORIZING' | 'COMPLETED' | 'REFUNDED' | 'FAILED' | 'CANCELED' | 'EXPIRED';

export interface PayPayStandinRefund {
  merchantRefundId: string;
  paymentId: string;
  amount: number;
  reason: string | null;
  status: 'CREATED' | 'REFUNDED' | 'REFUND_FAILED';
  requestedAt: number;
  acceptedAt: number;
}

export interface PayPayStandinPayment {
  codeId: string;
  merchantPaymentId: string;
  amount: number;
  orderDescription: string | null;
  redirectUrl: string | null;
  redirectType: string | null;
  metadata: unknown;
  requestedAt: number;
  expiryDate: number;
  codeDeleted: boolean;
  status: PayPayStatus;
  /** PayPay's transaction id ("order_id" in webhooks); set once the member acted on the code. */
  paymentId: string | null;
  acceptedAt: number;
  canceledAt: number | null;
  refunds: PayPayStandinRefund[];
}

export interface PayPayWebhookDelivery {
  body: string;
  /** Final HTTP status (0 when every attempt failed at the network level). */
  status: number;
  attempts: number;
}

export interface PayPayStandin {
  /** HTTPS origin of the API (give it to the adapter as baseUrl). */
  url: string;
  /** HTTP origin of the hosted payment page. */
  cashierUrl: string;
  /** The self-signed certificate the API serves (give it to the adapter as trustedCaPem). */
  caPem: string;
  close(): Promise<void>;
  /** The member approves on PayPay: COMPLETED, then the COMPLETED webhook (awaited). */
  approve(merchantPaymentId: string): Promise<PayPayStandinPayment>;
  /** The payment fails at PayPay (e.g. insufficient balance): FAILED, then the FAILED webhook (awaited). */
  decline(merchantPaymentId: string): Promise<PayPayStandinPayment>;
  /** A refund made outside the API (PayPay merchant panel). PayPay sends no webhook for refunds. */
  refund(merchantPaymentId: string, amountJpy?: number): PayPayStandinPayment;
  /** The webhook body PayPay would send for the payment's current state; `overrides` replace fields (for forged/tampered tests). */
  webhookBody(merchantPaymentId: string, overrides?: Record<string, unknown>): string;
  /** (Re)sends the webhook for the payment's current state (or `overrides`) to webhookUrl. */
  sendWebhook(merchantPaymentId: string, overrides?: Record<string, unknown>): Promise<PayPayWebhookDelivery>;
  getPayment(merchantPaymentId: string): PayPayStandinPayment | undefined;
  /** Every webhook delivery so far, oldest first. */
  readonly deliveries: readonly PayPayWebhookDelivery[];
}

const EPOCH_TOLERANCE_SECONDS = 120;
const DAY_MS = 86_400_000;
const JST_OFFSET_MS = 9 * 3_600_000;
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

class StandinFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Everything the stand-in holds, passed explicitly to each handler and state change. */
interface PayPayState {
  options: PayPayStandinOptions;
  codeValidSeconds: number;
  byMerchantPaymentId: Map<string, PayPayStandinPayment>;
  byCodeId: Map<string, PayPayStandinPayment>;
  byPaymentId: Map<string, PayPayStandinPayment>;
  refunds: Map<string, PayPayStandinRefund>;
  deliveries: PayPayWebhookDelivery[];
  /** Webhook deliveries still running (close() waits for them). */
  inFlight: Set<Promise<unknown>>;
  /** Aborts deliveries' retries on close(). */
  shutdown: AbortController;
  /** Where the member's browser reaches the cashier page (known once it listens). */
  cashierOrigin: string;
}

type Route = {
  method: 'get' | 'post' | 'delete';
  path: string;
  handle: (state: PayPayState, c: Context) => Response | Promise<Response>;
};

/** Starts the PayPay stand-in (HTTPS API + HTTP hosted page); resolves once both listen. */
export async function startPayPayStandin(options: PayPayStandinOptions): Promise<PayPayStandin> {
  const host = options.host ?? '127.0.0.1';
  const tls = options.tls ?? (await generateCertificate(host));
  const state: PayPayState = {
    options,
    codeValidSeconds: options.codeValidSeconds ?? 600,
    byMerchantPaymentId: new Map(),
    byCodeId: new Map(),
    byPaymentId: new Map(),
    refunds: new Map(),
    deliveries: [],
    inFlight: new Set(),
    shutdown: new AbortController(),
    cashierOrigin: '',
  };
  const apiServer = await listen((listener) =>
    serve(
      {
        fetch: createApiApp(state).fetch,
        port: options.port ?? 0,
        hostname: host,
        createServer: createHttpsServer,
        serverOptions: { key: tls.key, cert: tls.cert },
      },
      listener,
    ),
  );
  const cashierServer = await listen((listener) =>
    serve({ fetch: createCashierApp(state).fetch, port: options.cashierPort ?? 0, hostname: host }, listener),
  );
  state.cashierOrigin = (options.cashierPublicUrl ?? `http://${urlHostFor(host)}:${cashierServer.port}`).replace(
    /\/+$/,
    '',
  );
  return {
    url: `https://${urlHostFor(host)}:${apiServer.port}`,
    cashierUrl: state.cashierOrigin,
    caPem: tls.cert,
    async close() {
      state.shutdown.abort();
      await Promise.allSettled([...state.inFlight]);
      await Promise.all([closeServer(apiServer.server), closeServer(cashierServer.server)]);
    },
    async approve(merchantPaymentId) {
      const payment = mustFind(state, merchantPaymentId);
      complete(state, payment);
      await notify(state, payment);
      return snapshot(payment);
    },
    async decline(merchantPaymentId) {
      const payment = mustFind(state, merchantPaymentId);
      fail(state, payment);
      await notify(state, payment);
      return snapshot(payment);
    },
    refund(merchantPaymentId, amountJpy) {
      const payment = mustFind(state, merchantPaymentId);
      addRefund(
        state,
        payment,
        `panel-${randomToken(12)}`,
        amountJpy ?? payment.amount - refundedTotal(payment),
        'merchant panel',
        nowSeconds(),
      );
      return snapshot(payment);
    },
    webhookBody(merchantPaymentId, overrides) {
      return JSON.stringify(webhookObject(state, mustFind(state, merchantPaymentId), overrides));
    },
    sendWebhook(merchantPaymentId, overrides) {
      return track(
        state,
        deliver(state, JSON.stringify(webhookObject(state, mustFind(state, merchantPaymentId), overrides))),
      );
    },
    getPayment(merchantPaymentId) {
      const payment = state.byMerchantPaymentId.get(merchantPaymentId);
      return payment ? snapshot(payment) : undefined;
    },
    deliveries: state.deliveries,
  };
}

// ---- routing ----

/** The API (HTTPS), one handler per operation. */
const API_ROUTES: readonly Route[] = [
  { method: 'post', path: '/v2/codes', handle: createQrCode },
  { method: 'get', path: '/v2/codes/payments/:merchantPaymentId', handle: getPaymentDetails },
  { method: 'delete', path: '/v2/codes/:codeId', handle: deleteQrCode },
  { method: 'delete', path: '/v2/payments/:merchantPaymentId', handle: cancelPayment },
  { method: 'post', path: '/v2/refunds', handle: refundPayment },
  { method: 'get', path: '/v2/refunds/:merchantRefundId', handle: getRefundDetails },
];

/** The hosted payment page (HTTP). */
const CASHIER_ROUTES: readonly Route[] = [
  { method: 'get', path: '/cashier/:codeId', handle: showCashierPage },
  { method: 'post', path: '/cashier/:codeId', handle: submitCashierPage },
];

/** The API app: PayPay's errors, the HMAC check, then the table. */
function createApiApp(state: PayPayState): Hono {
  const api = new Hono();
  api.onError((error, c) => {
    if (error instanceof StandinFailure) return failure(c, error.status, error.code, error.message);
    return failure(c, 500, 'INTERNAL_SERVER_ERROR', 'Something went wrong on PayPay side');
  });
  api.notFound((c) => failure(c, 404, 'NOT_FOUND', 'The requested resource was not found'));
  api.use('/v2/*', (c, next) => checkRequest(state, c, next));
  for (const route of API_ROUTES) api.on(route.method.toUpperCase(), route.path, (c) => route.handle(state, c));
  return api;
}

/** The cashier app: the table, with a strict policy on every page. */
function createCashierApp(state: PayPayState): Hono {
  const cashier = new Hono();
  cashier.use('*', lockDownCashierPage);
  for (const route of CASHIER_ROUTES) cashier.on(route.method.toUpperCase(), route.path, (c) => route.handle(state, c));
  cashier.notFound((c) => c.html(messagePage('ページが見つかりません', 'URLをご確認ください。', null), 404));
  return cashier;
}

// ---- the API (HTTPS) ----

/** Every /v2 request: the OPA-Auth HMAC over method, path, content type and body, and the merchant. */
async function checkRequest(state: PayPayState, c: Context, next: Next): Promise<Response | void> {
  const rawBody = c.req.method === 'GET' || c.req.method === 'DELETE' ? '' : await c.req.text();
  const problem = checkAuthorization({
    header: c.req.header('authorization') ?? '',
    method: c.req.method,
    path: c.req.path,
    contentType: c.req.header('content-type') ?? '',
    body: rawBody,
    apiKey: state.options.apiKey,
    apiSecret: state.options.apiSecret,
    now: nowSeconds(),
  });
  if (problem) return failure(c, 401, 'UNAUTHORIZED', problem);
  const merchant = c.req.query('assumeMerchant') ?? c.req.header('x-assume-merchant');
  if (merchant !== state.options.merchantId)
    return failure(c, 401, 'UNAUTHORIZED', 'Unknown or missing merchant identifier');
  await next();
}

/** POST /v2/codes: a dynamic QR code (ORDER_QR) for one merchantPaymentId, paid on the cashier page. */
async function createQrCode(state: PayPayState, c: Context): Promise<Response> {
  const body = parseJson(await c.req.text());
  const merchantPaymentId = body.merchantPaymentId;
  const amount = body.amount as { amount?: unknown; currency?: unknown } | undefined;
  if (
    typeof merchantPaymentId !== 'string' ||
    !amount ||
    amount.amount === undefined ||
    body.codeType === undefined ||
    body.requestedAt === undefined
  ) {
    return failure(
      c,
      400,
      'MISSING_REQUEST_PARAMS',
      'merchantPaymentId, amount, codeType and requestedAt are required',
    );
  }
  if (
    !ID_PATTERN.test(merchantPaymentId) ||
    !Number.isSafeInteger(amount.amount) ||
    (amount.amount as number) <= 0 ||
    amount.currency !== 'JPY' ||
    body.codeType !== 'ORDER_QR' ||
    !Number.isSafeInteger(body.requestedAt) ||
    (body.redirectType !== undefined && body.redirectType !== 'WEB_LINK' && body.redirectType !== 'APP_DEEP_LINK') ||
    (body.redirectUrl !== undefined && typeof body.redirectUrl !== 'string') ||
    (body.orderDescription !== undefined &&
      (typeof body.orderDescription !== 'string' || body.orderDescription.length > 255))
  ) {
    return failure(c, 400, 'INVALID_REQUEST_PARAMS', 'The request contains invalid parameters');
  }
  if (body.isAuthorization === true) {
    return failure(c, 400, 'INVALID_REQUEST_PARAMS', 'Pre-authorization is not available in the stand-in');
  }
  if (state.byMerchantPaymentId.has(merchantPaymentId)) {
    return failure(c, 400, 'DUPLICATE_DYNAMIC_QR_REQUEST', 'Duplicate Dynamic QR request');
  }
  const codeId = `04-${randomToken(16)}`;
  const payment: PayPayStandinPayment = {
    codeId,
    merchantPaymentId,
    amount: amount.amount as number,
    orderDescription: (body.orderDescription as string | undefined) ?? null,
    redirectUrl: (body.redirectUrl as string | undefined) ?? null,
    redirectType: (body.redirectType as string | undefined) ?? null,
    metadata: body.metadata ?? null,
    requestedAt: body.requestedAt as number,
    expiryDate: nowSeconds() + state.codeValidSeconds,
    codeDeleted: false,
    status: 'CREATED',
    paymentId: null,
    acceptedAt: 0,
    canceledAt: null,
    refunds: [],
  };
  state.byMerchantPaymentId.set(merchantPaymentId, payment);
  state.byCodeId.set(codeId, payment);
  const url = `${state.cashierOrigin}/cashier/${codeId}`;
  return success(c, 201, {
    codeId,
    url,
    deeplink: `paypay://payment?link=${encodeURIComponent(url)}`,
    expiryDate: payment.expiryDate,
    merchantPaymentId,
    amount: { amount: payment.amount, currency: 'JPY' },
    orderDescription: payment.orderDescription ?? undefined,
    metadata: body.metadata,
    codeType: 'ORDER_QR',
    requestedAt: payment.requestedAt,
    redirectUrl: payment.redirectUrl ?? undefined,
    redirectType: payment.redirectType ?? undefined,
    isAuthorization: false,
  });
}

/** GET /v2/codes/payments/:merchantPaymentId: Get Payment Details. */
function getPaymentDetails(state: PayPayState, c: Context): Response {
  const payment = state.byMerchantPaymentId.get(routeParam(c, 'merchantPaymentId'));
  if (!payment) return failure(c, 404, 'DYNAMIC_QR_PAYMENT_NOT_FOUND', 'Dynamic QR payment not found');
  return success(c, 200, paymentDetails(payment));
}

/** DELETE /v2/codes/:codeId: an unpaid code can no longer be paid. */
function deleteQrCode(state: PayPayState, c: Context): Response {
  const payment = state.byCodeId.get(routeParam(c, 'codeId'));
  if (!payment || payment.codeDeleted) return failure(c, 404, 'DYNAMIC_QR_NOT_FOUND', 'Dynamic QR code not found');
  if (payment.status !== 'CREATED') return failure(c, 400, 'DYNAMIC_QR_ALREADY_PAID', 'Dynamic QR code already paid');
  payment.codeDeleted = true;
  return success(c, 200, null);
}

/** DELETE /v2/payments/:merchantPaymentId: Cancel a payment (before the next day’s cut-off), or void an unpaid order. */
function cancelPayment(state: PayPayState, c: Context): Response {
  const payment = state.byMerchantPaymentId.get(routeParam(c, 'merchantPaymentId'));
  if (!payment) return failure(c, 404, 'RESOURCE_NOT_FOUND', 'No payment for this merchantPaymentId');
  if (payment.status === 'CANCELED' || payment.status === 'FAILED') return accepted(c);
  if (payment.status === 'CREATED') {
    // Nothing was paid: the order is voided so that the code can no longer be paid.
    payment.status = 'CANCELED';
    payment.canceledAt = nowSeconds();
    return accepted(c);
  }
  if (
    payment.status !== 'COMPLETED' ||
    payment.refunds.length > 0 ||
    Date.now() >= cancelDeadline(payment.acceptedAt)
  ) {
    return failure(c, 400, 'ORDER_NOT_REVERSIBLE', 'Order cannot be reversed; refund it instead');
  }
  payment.status = 'CANCELED';
  payment.canceledAt = nowSeconds();
  void notify(state, payment);
  return accepted(c);
}

/** POST /v2/refunds: Refund a payment, in part or whole. */
async function refundPayment(state: PayPayState, c: Context): Promise<Response> {
  const body = parseJson(await c.req.text());
  const amount = body.amount as { amount?: unknown; currency?: unknown } | undefined;
  if (
    typeof body.merchantRefundId !== 'string' ||
    typeof body.paymentId !== 'string' ||
    !amount ||
    body.requestedAt === undefined
  ) {
    return failure(
      c,
      400,
      'MISSING_REQUEST_PARAMS',
      'merchantRefundId, paymentId, amount and requestedAt are required',
    );
  }
  if (
    !ID_PATTERN.test(body.merchantRefundId) ||
    amount.currency !== 'JPY' ||
    !Number.isSafeInteger(amount.amount) ||
    !Number.isSafeInteger(body.requestedAt)
  ) {
    return failure(c, 400, 'INVALID_REQUEST_PARAMS', 'The request contains invalid parameters');
  }
  if (state.refunds.has(body.merchantRefundId))
    return failure(c, 400, 'DUPLICATE_REFUND_REQUEST', 'Duplicate merchantRefundId');
  const payment = state.byPaymentId.get(body.paymentId);
  if (!payment) return failure(c, 400, 'RESOURCE_NOT_FOUND', 'No payment with this paymentId');
  const refund = addRefund(
    state,
    payment,
    body.merchantRefundId,
    amount.amount as number,
    typeof body.reason === 'string' ? body.reason : null,
    body.requestedAt as number,
  );
  return success(c, 201, refundDetails(refund));
}

/** GET /v2/refunds/:merchantRefundId. */
function getRefundDetails(state: PayPayState, c: Context): Response {
  const refund = state.refunds.get(routeParam(c, 'merchantRefundId'));
  if (!refund) return failure(c, 404, 'RESOURCE_NOT_FOUND', 'No refund with this merchantRefundId');
  return success(c, 200, refundDetails(refund));
}

function paymentDetails(p: PayPayStandinPayment) {
  if (p.status === 'CREATED') {
    // What PayPay answers for a code nobody has paid (also after it expired).
    return { status: 'CREATED', acceptedAt: 0, requestedAt: 0 };
  }
  return {
    paymentId: p.paymentId,
    status: p.status,
    acceptedAt: p.acceptedAt,
    refunds: { data: p.refunds.map(refundDetails) },
    merchantPaymentId: p.merchantPaymentId,
    amount: { amount: p.amount, currency: 'JPY' },
    requestedAt: p.requestedAt,
    ...(p.canceledAt !== null ? { canceledAt: p.canceledAt } : {}),
    orderDescription: p.orderDescription ?? undefined,
    metadata: p.metadata ?? undefined,
  };
}

// ---- the hosted payment page (HTTP) ----

/** Headers of every cashier page: nothing but its own inline style. */
async function lockDownCashierPage(c: Context, next: Next): Promise<void> {
  await next();
  c.header(
    'content-security-policy',
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  );
  c.header('x-content-type-options', 'nosniff');
  c.header('referrer-policy', 'no-referrer');
  c.header('cache-control', 'no-store');
}

/** GET /cashier/:codeId: the hosted payment page of a code. */
function showCashierPage(state: PayPayState, c: Context): Response {
  const payment = state.byCodeId.get(routeParam(c, 'codeId'));
  if (!payment) return c.html(messagePage('お支払いが見つかりません', 'このお支払いページは存在しません。', null), 404);
  if (!payable(payment)) return c.html(closedPage(payment), 410);
  return c.html(cashierPage(payment));
}

/** POST /cashier/:codeId: the member’s button (approve, decline, cancel); back to redirectUrl. */
async function submitCashierPage(state: PayPayState, c: Context): Promise<Response> {
  const payment = state.byCodeId.get(routeParam(c, 'codeId'));
  if (!payment) return c.html(messagePage('お支払いが見つかりません', 'このお支払いページは存在しません。', null), 404);
  const form = await c.req.parseBody();
  const action = form.action;
  if (action !== 'approve' && action !== 'decline' && action !== 'cancel') {
    return c.html(messagePage('操作を選んでください', 'ボタンから操作を選んでください。', null), 400);
  }
  if (action !== 'cancel') {
    if (!payable(payment)) return c.html(closedPage(payment), 409);
    if (action === 'approve') complete(state, payment);
    else fail(state, payment);
    // The webhook goes out on its own; the return page asks Get Payment Details anyway.
    void notify(state, payment);
  }
  // PayPay sends the member to redirectUrl as given, with no query parameters of its own.
  if (payment.redirectUrl && payment.redirectType !== 'APP_DEEP_LINK' && /^https?:\/\//i.test(payment.redirectUrl)) {
    return c.redirect(payment.redirectUrl, 303);
  }
  const done =
    action === 'approve'
      ? 'お支払いが完了しました。'
      : action === 'decline'
        ? 'お支払いができませんでした。'
        : 'お支払いを中止しました。';
  return c.html(messagePage('PayPay', done, null));
}

// ---- state changes (shared by the hosted page, the API and the test controls) ----

const nowSeconds = () => Math.floor(Date.now() / 1000);

const snapshot = (p: PayPayStandinPayment): PayPayStandinPayment => structuredClone(p);

function mustFind(state: PayPayState, merchantPaymentId: string) {
  const payment = state.byMerchantPaymentId.get(merchantPaymentId);
  if (!payment) throw new Error(`PayPay stand-in: no payment ${merchantPaymentId}`);
  return payment;
}

function refundedTotal(p: PayPayStandinPayment) {
  return p.refunds.reduce((sum, r) => sum + r.amount, 0);
}

/** An order that may still be paid on the cashier page. */
function payable(p: PayPayStandinPayment) {
  return p.status === 'CREATED' && !p.codeDeleted && nowSeconds() < p.expiryDate;
}

function complete(state: PayPayState, p: PayPayStandinPayment) {
  if (!payable(p))
    throw new Error(
      `PayPay stand-in: payment ${p.merchantPaymentId} cannot be paid (${p.status}${p.codeDeleted ? ', code deleted' : ''})`,
    );
  p.status = 'COMPLETED';
  p.paymentId = newPaymentId();
  p.acceptedAt = nowSeconds();
  state.byPaymentId.set(p.paymentId, p);
}

function fail(state: PayPayState, p: PayPayStandinPayment) {
  if (!payable(p)) throw new Error(`PayPay stand-in: payment ${p.merchantPaymentId} is not open (${p.status})`);
  p.status = 'FAILED';
  p.paymentId = newPaymentId();
  state.byPaymentId.set(p.paymentId, p);
}

function addRefund(
  state: PayPayState,
  p: PayPayStandinPayment,
  merchantRefundId: string,
  amount: number,
  reason: string | null,
  requestedAt: number,
) {
  if (p.status !== 'COMPLETED' || !p.paymentId)
    throw new StandinFailure(400, 'UNACCEPTABLE_OP', 'The payment is not in a refundable state');
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > p.amount - refundedTotal(p)) {
    throw new StandinFailure(400, 'INVALID_PARAMS', 'The amount is larger than the refundable amount');
  }
  const refund: PayPayStandinRefund = {
    merchantRefundId,
    paymentId: p.paymentId,
    amount,
    reason,
    // Real PayPay answers CREATED or REFUNDED and always ends REFUNDED; the stand-in settles at once.
    status: 'REFUNDED',
    requestedAt,
    acceptedAt: nowSeconds(),
  };
  p.refunds.push(refund);
  state.refunds.set(merchantRefundId, refund);
  if (refundedTotal(p) === p.amount) p.status = 'REFUNDED';
  return refund;
}

// ---- webhooks ----

function webhookObject(state: PayPayState, p: PayPayStandinPayment, overrides?: Record<string, unknown>) {
  const at = (seconds: number) =>
    seconds > 0 ? new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') : null;
  return {
    notification_type: 'Transaction',
    merchant_id: state.options.merchantId,
    store_id: '',
    pos_id: '',
    order_id: p.paymentId,
    merchant_order_id: p.merchantPaymentId,
    authorized_at: at(p.acceptedAt),
    expires_at: null,
    paid_at: at(p.acceptedAt),
    order_amount: p.amount,
    state: p.status,
    ...overrides,
  };
}

async function deliver(state: PayPayState, body: string): Promise<PayPayWebhookDelivery> {
  const delivery: PayPayWebhookDelivery = { body, status: 0, attempts: 0 };
  if (!state.options.webhookUrl) return delivery;
  // One try plus up to 3 retries, 2 s timeout, 100 ms apart (PayPay's documented retry policy).
  for (let attempt = 0; attempt < 4 && !state.shutdown.signal.aborted; attempt += 1) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    delivery.attempts += 1;
    try {
      const res = await fetch(state.options.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.any([AbortSignal.timeout(2000), state.shutdown.signal]),
      });
      await res.arrayBuffer().catch(() => undefined);
      delivery.status = res.status;
      if (res.ok) break;
    } catch {
      delivery.status = 0;
    }
  }
  state.deliveries.push(delivery);
  return delivery;
}

/** Keeps a delivery in flight until it settles (close() waits for it). */
function track<T>(state: PayPayState, promise: Promise<T>): Promise<T> {
  state.inFlight.add(promise);
  void promise.finally(() => state.inFlight.delete(promise)).catch(() => undefined);
  return promise;
}

function notify(state: PayPayState, p: PayPayStandinPayment) {
  return track(state, deliver(state, JSON.stringify(webhookObject(state, p))));
}

/** A route's parameter (handlers are registered from a table, so the path is not typed). */
function routeParam(c: Context, name: string): string {
  return c.req.param(name) ?? '';
}

// ---- OPA-Auth ----

interface AuthCheck {
  header: string;
  method: string;
  path: string;
  contentType: string;
  body: string;
  apiKey: string;
  apiSecret: string;
  now: number;
}

/** Returns why the request's OPA-Auth header does not check out, or null when it does. */
export function checkAuthorization(check: AuthCheck): string | null {
  const prefix = 'hmac OPA-Auth:';
  if (!check.header.startsWith(prefix)) return 'Missing or malformed Authorization header';
  const parts = check.header.slice(prefix.length).split(':');
  if (parts.length !== 5) return 'Malformed OPA-Auth header';
  const [apiKey, macData, nonce, epochText, hash] = parts as [string, string, string, string, string];
  if (!safeEqual(apiKey, check.apiKey)) return 'Invalid API key';
  if (!/^\d{1,12}$/.test(epochText) || Math.abs(check.now - Number(epochText)) >= EPOCH_TOLERANCE_SECONDS)
    return 'Epoch is too far from server time';
  if (nonce.length === 0) return 'Missing nonce';
  let contentType = 'empty';
  let expectedHash = 'empty';
  if (check.body.length > 0) {
    contentType = check.contentType;
    expectedHash = createHash('md5').update(contentType).update(check.body).digest('base64');
  }
  if (!safeEqual(hash, expectedHash)) return 'Body hash does not match';
  const expectedMac = createHmac('sha256', check.apiSecret)
    .update([check.path, check.method, nonce, epochText, contentType, expectedHash].join('\n'))
    .digest('base64');
  if (!safeEqual(macData, expectedMac)) return 'Signature does not match';
  return null;
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

// ---- helpers ----

function failure(c: Context, status: number, code: string, message: string) {
  return c.json({ resultInfo: { code, message, codeId: `STANDIN_${code}` } }, status as 400);
}

function success(c: Context, status: 200 | 201, data: unknown) {
  return c.json({ resultInfo: { code: 'SUCCESS', message: 'Success', codeId: '08100001' }, data }, status);
}

function accepted(c: Context) {
  return c.json(
    { resultInfo: { code: 'REQUEST_ACCEPTED', message: 'Request accepted', codeId: '08100001' }, data: null },
    202,
  );
}

function refundDetails(r: PayPayStandinRefund) {
  return {
    status: r.status,
    acceptedAt: r.acceptedAt,
    merchantRefundId: r.merchantRefundId,
    paymentId: r.paymentId,
    amount: { amount: r.amount, currency: 'JPY' },
    requestedAt: r.requestedAt,
    reason: r.reason ?? undefined,
  };
}

function parseJson(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new StandinFailure(400, 'INVALID_REQUEST_PARAMS', 'The request body is not a JSON object');
}

/** Cancel a payment works until 00:14:59 (JST) of the day after the payment. */
function cancelDeadline(acceptedAtSeconds: number): number {
  const acceptedMs = acceptedAtSeconds * 1000;
  const jstDayStart = Math.floor((acceptedMs + JST_OFFSET_MS) / DAY_MS) * DAY_MS - JST_OFFSET_MS;
  return jstDayStart + DAY_MS + 15 * 60_000;
}

function newPaymentId(): string {
  // PayPay's payment ids are long digit strings.
  let id = String(randomInt(1, 10));
  while (id.length < 20) id += String(randomInt(0, 10));
  return id;
}

function randomToken(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return out;
}

async function generateCertificate(host: string): Promise<{ key: string; cert: string }> {
  const altNames: { type: 2 | 7; value?: string; ip?: string }[] = [
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
    { type: 7, ip: '::1' },
  ];
  if (host !== '0.0.0.0' && host !== '::' && host !== 'localhost' && host !== '127.0.0.1' && host !== '::1') {
    altNames.push(isIP(host) ? { type: 7, ip: host } : { type: 2, value: host });
  }
  const pems = await generate([{ name: 'commonName', value: 'paypay-standin.local' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 30 * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

function urlHostFor(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return isIP(host) === 6 ? `[${host}]` : host;
}

function listen(
  start: (listener: (info: AddressInfo) => void) => ServerType,
): Promise<{ server: ServerType; port: number }> {
  return new Promise((resolve, reject) => {
    const server = start((info) => resolve({ server, port: info.port }));
    server.once('error', reject);
  });
}

function closeServer(server: ServerType): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    const closable = server as ServerType & { closeAllConnections?: () => void };
    closable.closeAllConnections?.();
  });
}

// ---- HTML (every echoed value goes through escapeHtml) ----

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function yen(amount: number): string {
  return `${amount.toLocaleString('ja-JP')}円`;
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} | PayPay（ローカル代替）</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Hiragino Sans","Noto Sans JP",sans-serif;background:#f4f4f4;color:#222}
header{background:#ff0033;color:#fff;padding:14px 16px;font-weight:700;font-size:18px}
main{max-width:420px;margin:0 auto;padding:16px}
.card{background:#fff;border-radius:12px;padding:20px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.amount{font-size:32px;font-weight:700;margin:8px 0 4px}
.muted{color:#666;font-size:14px}
button{display:block;width:100%;min-height:48px;margin-top:12px;border-radius:24px;font-size:16px;font-weight:700;cursor:pointer}
.approve{background:#ff0033;color:#fff;border:0}
.decline{background:#fff;color:#222;border:1px solid #999}
.cancel{background:transparent;color:#444;border:0;text-decoration:underline}
.note{margin-top:16px;font-size:12px;color:#777}
a{color:#d6002a}
</style>
</head>
<body>
<header>PayPay</header>
<main>${body}</main>
</body>
</html>`;
}

function cashierPage(p: PayPayStandinPayment): string {
  const action = `/cashier/${encodeURIComponent(p.codeId)}`;
  return layout(
    'お支払い',
    `<div class="card">
<p class="muted">お支払い内容</p>
<p>${escapeHtml(p.orderDescription ?? 'ご注文')}</p>
<p class="amount">${escapeHtml(yen(p.amount))}</p>
<p class="muted">注文番号: ${escapeHtml(p.merchantPaymentId)}</p>
<form method="post" action="${escapeHtml(action)}">
<button class="approve" type="submit" name="action" value="approve">お支払いを承認</button>
<button class="decline" type="submit" name="action" value="decline">拒否</button>
<button class="cancel" type="submit" name="action" value="cancel">キャンセル</button>
</form>
<p class="note">これはローカル環境用のPayPay代替画面です。実際の請求は発生しません。</p>
</div>`,
  );
}

function closedPage(p: PayPayStandinPayment): string {
  const reason =
    p.status === 'COMPLETED' || p.status === 'REFUNDED'
      ? 'このお支払いはすでに完了しています。'
      : p.status === 'CREATED' && !p.codeDeleted
        ? 'このお支払いの有効期限が切れました。'
        : 'このお支払いは受け付けられません。';
  return messagePage('お支払いできません', reason, p.redirectType === 'APP_DEEP_LINK' ? null : p.redirectUrl);
}

function messagePage(title: string, text: string, backUrl: string | null): string {
  const back =
    backUrl && /^https?:\/\//i.test(backUrl) ? `<p><a href="${escapeHtml(backUrl)}">ショップに戻る</a></p>` : '';
  return layout(
    title,
    `<div class="card"><h1 style="font-size:20px">${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${back}</div>`,
  );
}
