// PayPay payments: a QR code (ORDER_QR + WEB_LINK) per order, read back with Get Payment Details,
// canceled by deleting the code and calling Cancel a payment, refunded once per (order, amount).
import { createHash } from 'node:crypto';
import {
  ProviderError,
  type CheckoutRequest,
  type CheckoutStart,
  type OrderRef,
  type ProviderPayment,
  assertWholeYen,
} from '../types';
import {
  CODE_ID_PATTERN,
  MERCHANT_ID_PATTERN,
  PAYMENT_ID_PATTERN,
  call,
  failure,
  isBenignClientError,
  isNotFound,
  readDetails,
  succeeded,
  type PayPayContext,
  type PaymentDetails,
} from './sdk';

/** Creates the order's QR code and sends the member to PayPay's page. */
export async function createCheckout(ctx: PayPayContext, request: CheckoutRequest): Promise<CheckoutStart> {
  assertMerchantPaymentId(request.orderId);
  assertWholeYen('paypay', request.amountJpy);
  if (!/^https?:\/\//i.test(request.returnUrl))
    throw new ProviderError('PayPay: returnUrl must be an absolute http(s) URL', false);
  const res = await call('Create a QR Code', () =>
    ctx.sdk.qrCodeCreate({
      merchantPaymentId: request.orderId,
      amount: { amount: request.amountJpy, currency: 'JPY' },
      codeType: 'ORDER_QR',
      orderDescription: truncate(request.description, 255),
      isAuthorization: false,
      redirectUrl: request.returnUrl,
      redirectType: 'WEB_LINK',
    }),
  );
  if (res.code === 'DUPLICATE_DYNAMIC_QR_REQUEST') {
    // PayPay keeps one code per merchantPaymentId and offers no way to read its URL again.
    throw new ProviderError(`PayPay: a code already exists for order ${request.orderId}; start a new order`, false, {
      status: res.status,
      code: res.code,
    });
  }
  if (!succeeded(res)) throw failure('Create a QR Code', res);
  const data = res.data as { codeId?: unknown; url?: unknown } | null;
  if (typeof data?.codeId !== 'string' || typeof data.url !== 'string') {
    throw new ProviderError('PayPay Create a QR Code: the answer has no codeId/url', false, res);
  }
  return { redirectUrl: data.url, providerRef: data.codeId };
}

/** Reads the payment with Get Payment Details (the return URL carries nothing). */
export async function fetchPayment(ctx: PayPayContext, order: OrderRef): Promise<ProviderPayment> {
  assertMerchantPaymentId(order.orderId);
  const res = await readDetails(ctx, order.orderId);
  if (isNotFound(res))
    throw new ProviderError(`PayPay: no payment for order ${order.orderId}`, false, {
      status: res.status,
      code: res.code,
    });
  if (!succeeded(res)) throw failure('Get Payment Details', res);
  return toProviderPayment(order.orderId, res.data as PaymentDetails | null);
}

/** Deletes the code, then cancels the payment so money taken in a race goes back. */
export async function cancel(ctx: PayPayContext, order: OrderRef): Promise<void> {
  assertMerchantPaymentId(order.orderId);
  // 1. Delete the code so that the member can no longer pay with it (already deleted/paid/expired is fine).
  if (order.providerRef && CODE_ID_PATTERN.test(order.providerRef)) {
    const deleted = await call('Delete a QR Code', () => ctx.sdk.qrCodeDelete([order.providerRef]));
    if (!succeeded(deleted) && !isBenignClientError(deleted)) throw failure('Delete a QR Code', deleted);
  }
  // 2. Cancel the payment: if the member paid in the meantime, PayPay returns the money.
  const canceled = await call('Cancel a payment', () => ctx.sdk.paymentCancel([order.orderId]));
  if (succeeded(canceled) || isNotFound(canceled)) return;
  if (isBenignClientError(canceled)) {
    // Refused (e.g. ORDER_NOT_REVERSIBLE): fine when no money was taken, otherwise it needs a refund.
    const details = await readDetails(ctx, order.orderId);
    if (isNotFound(details)) return;
    if (succeeded(details)) {
      const status = (details.data as PaymentDetails | null)?.status;
      if (status !== 'COMPLETED' && status !== 'REFUNDED' && status !== 'AUTHORIZED') return;
    }
  }
  throw failure('Cancel a payment', canceled);
}

/** Refunds part or all of the payment, once per (order, amount). */
export async function refund(
  ctx: PayPayContext,
  order: OrderRef & { providerPaymentId: string },
  amountJpy: number,
  reason: string,
): Promise<void> {
  assertWholeYen('paypay', amountJpy);
  if (!PAYMENT_ID_PATTERN.test(order.providerPaymentId)) throw new ProviderError('PayPay: invalid paymentId', false);
  const merchantRefundId = refundIdFor(order.orderId, amountJpy);
  const res = await call('Refund a payment', () =>
    ctx.sdk.paymentRefund({
      merchantRefundId,
      paymentId: order.providerPaymentId,
      amount: { amount: amountJpy, currency: 'JPY' },
      reason: truncate(reason, 255),
    }),
  );
  // Both CREATED and REFUNDED mean PayPay accepted the refund (it retries internally until REFUNDED).
  if (succeeded(res)) return;
  if (isBenignClientError(res)) {
    // A retry after a lost answer: PayPay keeps the first refund under the same merchantRefundId.
    const prior = await call('Get refund details', () => ctx.sdk.getRefundDetails([merchantRefundId]));
    const data = prior.data as { paymentId?: unknown; amount?: { amount?: unknown } | null } | null;
    if (succeeded(prior) && data?.paymentId === order.providerPaymentId && data.amount?.amount === amountJpy) return;
  }
  throw failure('Refund a payment', res);
}

/** Maps Get Payment Details to the shop's view of the payment. */
function toProviderPayment(orderId: string, details: PaymentDetails | null): ProviderPayment {
  const status = details?.status;
  if (details?.merchantPaymentId !== undefined && details.merchantPaymentId !== orderId) {
    throw new ProviderError(`PayPay: Get Payment Details answered for another order`, false);
  }
  switch (status) {
    case 'CREATED': // code issued, nobody paid yet (PayPay also reports an expired, unpaid code this way)
    case 'AUTHORIZED': // pre-authorisation only; this shop creates codes with isAuthorization=false
    case 'REAUTHORIZING':
      return { status: 'pending' };
    case 'COMPLETED':
    case 'REFUNDED': {
      const amountJpy = details?.amount?.amount;
      const paymentId = details?.paymentId;
      if (!Number.isSafeInteger(amountJpy) || typeof paymentId !== 'string') {
        throw new ProviderError('PayPay: a completed payment without amount or paymentId', false, details);
      }
      // Every accepted refund counts: PayPay retries a refund internally until it is REFUNDED.
      let refundedJpy = 0;
      for (const refund of details?.refunds?.data ?? []) {
        const value = refund?.amount?.amount;
        if (Number.isSafeInteger(value)) refundedJpy += value as number;
      }
      if (status === 'REFUNDED' && refundedJpy === 0) refundedJpy = amountJpy as number;
      if (refundedJpy > 0)
        return { status: 'refunded', amountJpy: amountJpy as number, refundedJpy, providerPaymentId: paymentId };
      return { status: 'paid', amountJpy: amountJpy as number, providerPaymentId: paymentId };
    }
    case 'FAILED':
      return { status: 'failed', reason: 'PayPayでのお支払いが完了しませんでした' };
    case 'CANCELED':
    case 'EXPIRED':
      return { status: 'canceled' };
    default:
      throw new ProviderError(`PayPay: unknown payment status ${JSON.stringify(status)}`, false, details);
  }
}

function assertMerchantPaymentId(orderId: string): void {
  if (!MERCHANT_ID_PATTERN.test(orderId))
    throw new ProviderError('PayPay: the order id is not a valid merchantPaymentId', false);
}

/** One merchantRefundId per (order, amount), so a retried refund is recognised instead of paid twice. */
function refundIdFor(orderId: string, amountJpy: number): string {
  const id = `${orderId}-R${amountJpy}`;
  if (id.length <= 64) return id;
  return `R-${createHash('sha256').update(id).digest('base64url').slice(0, 43)}`;
}

function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join('');
}
