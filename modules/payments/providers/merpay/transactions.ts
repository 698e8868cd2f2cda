// Merpay transactions: creating one with the callback and return URLs bound to the order, reading and
// capturing it (only when its amount matches the order), canceling and refunding.
import { ProviderError, assertWholeYen } from '../types';
import type { CheckoutRequest, CheckoutStart, OrderRef, ProviderPayment } from '../types';
import { callbackToken } from './callbacks';
import { call, cancelTransaction, derive, readTransaction, type MerpayClient } from './client';
import {
  MERPAY_BOUND_AMOUNT_PARAM,
  MERPAY_BOUND_ORDER_PARAM,
  MERPAY_CALLBACK_TOKEN_PARAM,
  MERPAY_PATHS,
  MerpayApiError,
  TRANSACTION_ID,
  withParams,
  type MerpayCreateTransactionRequest,
  type TransactionRead,
} from './protocol';

// The README's example passes 1; the SDK does not name the values. One-time payment is all the shop sells.
const PAYMENT_CONTRACT_TYPE = 1;

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

/** Creates the transaction (capture=false) and sends the member to Merpay's payment page. */
export async function createCheckout(client: MerpayClient, request: CheckoutRequest): Promise<CheckoutStart> {
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
      [MERPAY_CALLBACK_TOKEN_PARAM]: callbackToken(client.options.clientSecret, request.orderId, request.amountJpy),
    }),
    completionUrl: withParams(request.webhookUrl, {
      kind: 'completion',
      [MERPAY_CALLBACK_TOKEN_PARAM]: callbackToken(client.options.clientSecret, request.orderId, request.amountJpy),
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
  const created = await call<{ transactionId?: unknown; paymentUrl?: unknown }>(client, MERPAY_PATHS.create, {
    ...body,
  });
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
}

/**
 * Reads the payment, capturing an authorisation whose amount matches the order (and canceling it otherwise).
 * returnParams are ignored: what Merpay's API says about the transaction is the only word on it.
 */
export async function fetchPayment(client: MerpayClient, order: OrderRef): Promise<ProviderPayment> {
  const transactionId = transactionIdOf(order.providerRef);
  let read = await readTransaction(client, transactionId);
  assertOurs(read, transactionId, order.orderId);
  let state = derive(read);
  if (state.kind === 'authorized') {
    if (state.amount !== order.amountJpy) {
      await cancelTransaction(client, transactionId);
      return {
        status: 'failed',
        reason: `金額が一致しません（注文 ${order.amountJpy.toLocaleString('ja-JP')}円 / メルペイ ${state.amount.toLocaleString('ja-JP')}円）`,
      };
    }
    try {
      await call(client, MERPAY_PATHS.capture, { transactionId, amount: state.amount });
    } catch (error) {
      // Another caller captured first (return page and callback race): the read decides.
      if (!(error instanceof MerpayApiError) || error.retryable) throw error;
      read = await readTransaction(client, transactionId);
      if (derive(read).kind === 'authorized') throw error;
    }
    read = await readTransaction(client, transactionId);
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
}

/** Cancels an uncaptured transaction; a captured one must be refunded. */
export async function cancel(client: MerpayClient, order: OrderRef): Promise<void> {
  const transactionId = transactionIdOf(order.providerRef);
  const read = await readTransaction(client, transactionId);
  assertOurs(read, transactionId, order.orderId);
  const state = derive(read);
  if (state.kind === 'canceled') return;
  if (state.kind === 'captured')
    throw new ProviderError(`merpay: transaction ${transactionId} is captured; refund it instead`, false);
  await cancelTransaction(client, transactionId);
}

/** Refunds part of a captured transaction, never beyond what it still holds. */
export async function refund(
  client: MerpayClient,
  order: OrderRef & { providerPaymentId: string },
  amountJpy: number,
): Promise<void> {
  assertWholeYen('merpay', amountJpy);
  const transactionId = transactionIdOf(order.providerPaymentId);
  const read = await readTransaction(client, transactionId);
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
  await call(client, MERPAY_PATHS.refund, { transactionId, amount: amountJpy });
}
