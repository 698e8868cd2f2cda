// Paidy payments: the checkout points at our widget page, then each read proves the payment is ours and
// captures it while it is AUTHORIZED; cancel closes it, refund refunds its capture.
import { ProviderError, assertWholeYen } from '../types';
import type { CheckoutRequest, CheckoutStart, OrderRef, ProviderPayment } from '../types';
import { PAYMENT_ID, call, captureOnce, closeOnce, getPayment, type PaidyClient, type PaidyPayment } from './client';

const PENDING_PREFIX = 'pending:';

/** Points the member at our page that runs Paidy Checkout; the payment id arrives on the return. */
export async function createCheckout(client: PaidyClient, request: CheckoutRequest): Promise<CheckoutStart> {
  assertWholeYen('paidy', request.amountJpy);
  // No API call: the payment is created by Paidy Checkout in the browser. The page gets what it
  // needs in the query; our own page must take amount and description from the order, never from
  // the query — fetchPayment rejects payments whose amount or order_ref differ anyway.
  const base = client.options.widgetBase ?? new URL(request.returnUrl).origin;
  const url = new URL('/shop/checkout/paidy/widget', base);
  url.searchParams.set('order', request.orderId);
  url.searchParams.set('amount', String(request.amountJpy));
  url.searchParams.set('description', request.description);
  url.searchParams.set('return', request.returnUrl);
  url.searchParams.set('cancel', request.cancelUrl);
  return { redirectUrl: url.toString(), providerRef: `${PENDING_PREFIX}${request.orderId}` };
}

/** Reads the payment, proves it is the order's, and captures it while it is AUTHORIZED. */
export async function fetchPayment(
  client: PaidyClient,
  order: OrderRef,
  returnParams?: URLSearchParams,
): Promise<ProviderPayment> {
  const id = paymentIdFor(order, returnParams);
  // No payment id yet: the member has not finished Paidy Checkout (or closed it).
  if (!id) return { status: 'pending' };
  let payment = await getPayment(client, id);
  if ((payment.order?.order_ref ?? null) !== order.orderId) {
    // Someone else's payment (e.g. a payment_id pasted into our return URL): never touch it.
    throw new ProviderError(`paidy: payment ${id} does not belong to order ${order.orderId}`, false);
  }
  if (payment.status === 'rejected') return { status: 'failed', reason: 'ペイディの審査で決済が承認されませんでした' };
  if (payment.status === 'authorized') {
    if (payment.amount !== order.amountJpy || payment.currency !== 'JPY') {
      // The browser-side payload was altered: release the authorisation instead of capturing it.
      await closeOnce(client, payment.id);
      return {
        status: 'failed',
        reason: `金額が一致しません（注文 ${order.amountJpy}円 / ペイディ ${payment.amount}円）`,
      };
    }
    payment = await captureOnce(client, payment, order.orderId);
  }
  return mapClosed(payment);
}

/** Closes an authorised payment. */
export async function cancel(client: PaidyClient, order: OrderRef): Promise<void> {
  const id = PAYMENT_ID.test(order.providerRef) ? order.providerRef : null;
  // Without a payment id there is nothing at Paidy to close (the widget never authorised one).
  if (!id) return;
  const payment = await getPayment(client, id);
  if (payment.status === 'rejected') return;
  if (payment.status === 'closed') {
    if ((payment.captures ?? []).length > 0) {
      throw new ProviderError(`paidy: payment ${id} is already captured; refund it instead`, false);
    }
    return;
  }
  await closeOnce(client, id);
}

/** Refunds part or all of the payment's capture. */
export async function refund(
  client: PaidyClient,
  order: OrderRef & { providerPaymentId: string },
  amountJpy: number,
  reason: string,
): Promise<void> {
  assertWholeYen('paidy', amountJpy);
  if (!PAYMENT_ID.test(order.providerPaymentId)) {
    throw new ProviderError(`paidy: ${order.providerPaymentId} is not a Paidy payment id`, false);
  }
  const payment = await getPayment(client, order.providerPaymentId);
  if ((payment.order?.order_ref ?? null) !== order.orderId) {
    throw new ProviderError(`paidy: payment ${payment.id} does not belong to order ${order.orderId}`, false);
  }
  const capture = (payment.captures ?? [])[0];
  if (payment.status !== 'closed' || !capture) {
    throw new ProviderError(`paidy: payment ${payment.id} has no capture to refund`, false);
  }
  const refunds = payment.refunds ?? [];
  // Paidy takes no idempotency key: a refund of the same amount already on the payment is this one.
  if (refunds.some((r) => r.amount === amountJpy)) return;
  const refunded = refunds.reduce((sum, r) => sum + r.amount, 0);
  if (refunded + amountJpy > capture.amount) {
    throw new ProviderError(`paidy: refund of ${amountJpy} exceeds what is left (${capture.amount - refunded})`, false);
  }
  await call<PaidyPayment>(client, 'POST', `/payments/${encodeURIComponent(payment.id)}/refunds`, {
    capture_id: capture.id,
    amount: amountJpy,
    reason,
    metadata: { order_id: order.orderId },
  });
}

/** The payment id to read: the return URL's `payment_id` (or the webhook processor's), else a stored `pay_…` providerRef. */
function paymentIdFor(order: OrderRef, returnParams?: URLSearchParams): string | null {
  const fromReturn = returnParams?.get('payment_id') ?? null;
  if (fromReturn !== null && fromReturn !== '') {
    if (!PAYMENT_ID.test(fromReturn))
      throw new ProviderError(`paidy: ${JSON.stringify(fromReturn)} is not a Paidy payment id`, false);
    return fromReturn;
  }
  return PAYMENT_ID.test(order.providerRef) ? order.providerRef : null;
}

/** Maps a payment Paidy no longer holds open (closed, or still authorised after a failed capture). */
function mapClosed(payment: PaidyPayment): ProviderPayment {
  if (payment.status === 'rejected') return { status: 'failed', reason: 'ペイディの審査で決済が承認されませんでした' };
  if (payment.status === 'authorized') return { status: 'pending' };
  const captured = (payment.captures ?? []).reduce((sum, c) => sum + c.amount, 0);
  // Closed with nothing captured: closed by us, or the authorisation expired.
  if (captured === 0) return { status: 'canceled' };
  const refunded = (payment.refunds ?? []).reduce((sum, r) => sum + r.amount, 0);
  if (refunded > 0)
    return { status: 'refunded', amountJpy: captured, refundedJpy: refunded, providerPaymentId: payment.id };
  return { status: 'paid', amountJpy: captured, providerPaymentId: payment.id };
}
