// The PayPay stand-in's API (HTTPS): codes, payment details, cancel and refunds, behind OPA-Auth.
import type { Context, Next } from 'hono';
import type { PayPayStandinPayment } from './index';
import { addRefund, nowSeconds } from './changes';
import { checkAuthorization } from './opa-auth';
import { accepted, cancelDeadline, failure, parseJson, randomToken, refundDetails, success } from './responses';
import { ID_PATTERN, type PayPayState } from './state';
import { notify, routeParam } from './webhooks';

/** Every /v2 request: the OPA-Auth HMAC over method, path, content type and body, and the merchant. */
export async function checkRequest(state: PayPayState, c: Context, next: Next): Promise<Response | void> {
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
export async function createQrCode(state: PayPayState, c: Context): Promise<Response> {
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
export function getPaymentDetails(state: PayPayState, c: Context): Response {
  const payment = state.byMerchantPaymentId.get(routeParam(c, 'merchantPaymentId'));
  if (!payment) return failure(c, 404, 'DYNAMIC_QR_PAYMENT_NOT_FOUND', 'Dynamic QR payment not found');
  return success(c, 200, paymentDetails(payment));
}

/** DELETE /v2/codes/:codeId: an unpaid code can no longer be paid. */
export function deleteQrCode(state: PayPayState, c: Context): Response {
  const payment = state.byCodeId.get(routeParam(c, 'codeId'));
  if (!payment || payment.codeDeleted) return failure(c, 404, 'DYNAMIC_QR_NOT_FOUND', 'Dynamic QR code not found');
  if (payment.status !== 'CREATED') return failure(c, 400, 'DYNAMIC_QR_ALREADY_PAID', 'Dynamic QR code already paid');
  payment.codeDeleted = true;
  return success(c, 200, null);
}

/** DELETE /v2/payments/:merchantPaymentId: Cancel a payment (before the next day’s cut-off), or void an unpaid order. */
export function cancelPayment(state: PayPayState, c: Context): Response {
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
export async function refundPayment(state: PayPayState, c: Context): Promise<Response> {
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
export function getRefundDetails(state: PayPayState, c: Context): Response {
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
