// The Merpay stand-in's callbacks (Callback\ConfirmRequest / CompletionRequest) and the member's decision.
import type { MerpayStandinCallback, MerpayStandinState, MerpayStandinTransaction } from './index';
import { PAYMENT_STATUS } from './protocol';
import type { MerpayState } from './state';

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
export async function decide(
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
