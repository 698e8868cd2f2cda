// The PayPay stand-in's state changes, shared by the hosted page, the API and the test controls.
import type { PayPayStandinPayment, PayPayStandinRefund } from './index';
import { newPaymentId } from './responses';
import { type PayPayState, StandinFailure } from './state';

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export const snapshot = (p: PayPayStandinPayment): PayPayStandinPayment => structuredClone(p);

export function mustFind(state: PayPayState, merchantPaymentId: string) {
  const payment = state.byMerchantPaymentId.get(merchantPaymentId);
  if (!payment) throw new Error(`PayPay stand-in: no payment ${merchantPaymentId}`);
  return payment;
}

export function refundedTotal(p: PayPayStandinPayment) {
  return p.refunds.reduce((sum, r) => sum + r.amount, 0);
}

/** An order that may still be paid on the cashier page. */
export function payable(p: PayPayStandinPayment) {
  return p.status === 'CREATED' && !p.codeDeleted && nowSeconds() < p.expiryDate;
}

export function complete(state: PayPayState, p: PayPayStandinPayment) {
  if (!payable(p))
    throw new Error(
      `PayPay stand-in: payment ${p.merchantPaymentId} cannot be paid (${p.status}${p.codeDeleted ? ', code deleted' : ''})`,
    );
  p.status = 'COMPLETED';
  p.paymentId = newPaymentId();
  p.acceptedAt = nowSeconds();
  state.byPaymentId.set(p.paymentId, p);
}

export function fail(state: PayPayState, p: PayPayStandinPayment) {
  if (!payable(p)) throw new Error(`PayPay stand-in: payment ${p.merchantPaymentId} is not open (${p.status})`);
  p.status = 'FAILED';
  p.paymentId = newPaymentId();
  state.byPaymentId.set(p.paymentId, p);
}

export function addRefund(
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
