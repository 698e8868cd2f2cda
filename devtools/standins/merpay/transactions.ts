// The Merpay stand-in's transaction API (V1\Api): create, capture, cancel, refund, batchGet, transitionStatus.
import type { Context } from 'hono';
import { isHttpUrl, isRecord, token } from '#devtools/standins/shared';
import type { MerpayStandinTransaction } from './index';
import {
  ENTRY_TYPE,
  fail,
  invalid,
  MAX_AMOUNT,
  type MerpayCreateTransactionRequest,
  type MerpayTransactionEntry,
  PAYMENT_STATUS,
  safeDecode,
  StandinError,
  TRANSITION_STATUS,
} from './protocol';
import { OPERATIONS } from './routing';
import type { MerpayState } from './state';

/** POST /v1/…: the bare access token, a JSON object body, then the operation of that path. */
export async function callOperation(state: MerpayState, c: Context): Promise<Response> {
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

export function create(state: MerpayState, b: Record<string, unknown>) {
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

export function capture(state: MerpayState, b: Record<string, unknown>) {
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

export function cancel(state: MerpayState, b: Record<string, unknown>) {
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

export function addRefund(state: MerpayState, t: MerpayStandinTransaction, amount: unknown) {
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

export function refund(state: MerpayState, b: Record<string, unknown>) {
  const t = mustFind(state, b);
  const entry = addRefund(state, t, b.amount);
  return {
    transactionId: t.transactionId,
    refundTransactionId: entry.refundTransactionId,
    inquiryCode: entry.inquiryCode,
  };
}

export function batchGet(state: MerpayState, b: Record<string, unknown>) {
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

export function transitionStatus(state: MerpayState, b: Record<string, unknown>) {
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
