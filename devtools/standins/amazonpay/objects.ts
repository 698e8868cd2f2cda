// The Amazon Pay stand-in's objects: views, look-ups and the state changes of sessions, charges and refunds.
import type { AmazonPayStandinCharge, AmazonPayStandinRefund, AmazonPayStandinSession } from './index';
import { deliverLater } from './sns';
import type { AmazonPayState } from './state';
import { amazonTime, digits, fromAmazonTime, setStatus, status, token, yen } from './wire';

export function sessionView(state: AmazonPayState, s: AmazonPayStandinSession): AmazonPayStandinSession {
  if (s.statusDetails.state === 'Open' && Date.now() > Date.parse(fromAmazonTime(s.expirationTimestamp))) {
    setStatus(s, 'Canceled', 'Expired', 'The Checkout Session expired after 24 hours.');
  }
  return s;
}

export function chargeOf(state: AmazonPayState, id: string): AmazonPayStandinCharge {
  const charge = state.charges.get(id) ?? state.charges.get(state.sessions.get(id)?.chargeId ?? '');
  if (!charge) throw new Error(`amazonpay stand-in: no charge for ${id}`);
  return charge;
}

export function openSession(state: AmazonPayState, id: string): AmazonPayStandinSession {
  const s = state.sessions.get(id);
  if (!s) throw new Error(`amazonpay stand-in: no checkout session ${id}`);
  sessionView(state, s);
  if (s.statusDetails.state !== 'Open' || state.approved.has(id))
    throw new Error(
      `amazonpay stand-in: session ${id} is ${s.statusDetails.state}${state.approved.has(id) ? ' (approved)' : ''}`,
    );
  return s;
}

export function returnTo(s: AmazonPayStandinSession, cancel: boolean): string {
  const target =
    (cancel && s.webCheckoutDetails.checkoutCancelUrl) ||
    s.webCheckoutDetails.checkoutResultReturnUrl ||
    s.webCheckoutDetails.checkoutReviewReturnUrl!;
  const url = new URL(target);
  url.searchParams.set('amazonCheckoutSessionId', s.checkoutSessionId);
  return url.toString();
}

export function approve(state: AmazonPayState, id: string): string {
  const s = openSession(state, id);
  state.approved.add(id);
  s.buyer = {
    buyerId: `amzn1.account.${token(28).toUpperCase()}`,
    name: '山田 太郎',
    email: 'buyer@example.jp',
    phoneNumber: null,
  };
  s.paymentPreferences = [{ paymentDescriptor: 'Visa ****1111 (Amazon Pay)' }];
  return returnTo(s, false);
}

export function decline(state: AmazonPayState, id: string): string {
  const s = openSession(state, id);
  setStatus(s, 'Canceled', 'Declined', 'The buyer\u2019s payment instrument was declined.');
  return returnTo(s, false);
}

export function buyerCancel(state: AmazonPayState, id: string): string {
  const s = openSession(state, id);
  setStatus(s, 'Canceled', 'BuyerCanceled', 'The buyer canceled checkout.');
  return returnTo(s, true);
}

function settleRefund(state: AmazonPayState, refund: AmazonPayStandinRefund): void {
  if (refund.statusDetails.state !== 'RefundInitiated') return;
  setStatus(refund, 'Refunded', null, null);
  const charge = state.charges.get(refund.chargeId)!;
  charge.refundedAmount = yen(Number(charge.refundedAmount.amount) + Number(refund.refundAmount.amount));
  deliverLater(state, 'REFUND', refund.refundId);
}

export function refundView(state: AmazonPayState, refund: AmazonPayStandinRefund): AmazonPayStandinRefund {
  if (Date.now() - Date.parse(fromAmazonTime(refund.creationTimestamp)) >= (state.options.refundSettleMs ?? 0))
    settleRefund(state, refund);
  return refund;
}

export function chargeView(state: AmazonPayState, charge: AmazonPayStandinCharge): AmazonPayStandinCharge {
  // Refunds that are due settle whenever anything reads their charge (as well as by their timer).
  for (const refund of state.refunds.values()) if (refund.chargeId === charge.chargeId) refundView(state, refund);
  return charge;
}

export function createRefund(
  state: AmazonPayState,
  charge: AmazonPayStandinCharge,
  amount: number,
): AmazonPayStandinRefund | { status: 400 | 422; reasonCode: string; message: string } {
  if (charge.statusDetails.state !== 'Captured' || !charge.captureAmount) {
    return {
      status: 422,
      reasonCode: 'InvalidChargeStatus',
      message: `You tried to refund a Charge in state ${charge.statusDetails.state}.`,
    };
  }
  const pending = [...state.refunds.values()]
    .filter((r) => r.chargeId === charge.chargeId && r.statusDetails.state !== 'Declined')
    .reduce((sum, r) => sum + Number(r.refundAmount.amount), 0);
  if (pending + amount > Number(charge.captureAmount.amount)) {
    return {
      status: 400,
      reasonCode: 'TransactionAmountExceeded',
      message: 'The refund amount exceeds the captured amount that has not been refunded.',
    };
  }
  const refund: AmazonPayStandinRefund = {
    refundId: `${charge.chargePermissionId}-R${digits(6)}`,
    chargeId: charge.chargeId,
    creationTimestamp: amazonTime(),
    refundAmount: yen(amount),
    softDescriptor: 'AMZ*STANDIN',
    statusDetails: status('RefundInitiated', null, null),
    releaseEnvironment: charge.releaseEnvironment,
  };
  state.refunds.set(refund.refundId, refund);
  const timer = setTimeout(() => {
    state.timers.delete(timer);
    settleRefund(state, refund);
  }, state.options.refundSettleMs ?? 0);
  state.timers.add(timer);
  return refund;
}
