// PayPay's Transaction webhooks carry no signature: an event counts only when Get Payment Details reports
// the same payment (state, amount, ids); anything it cannot confirm is refused.
import { WebhookRejected, type VerifiedWebhookEvent, type WebhookRequest } from '../types';
import {
  MERCHANT_ID_PATTERN,
  failure,
  isNotFound,
  readDetails,
  succeeded,
  type PayPayContext,
  type PaymentDetails,
} from './sdk';

/** Webhook states and the payment states PayPay may show by the time we confirm them. */
const CONSISTENT_STATES: Record<string, readonly string[]> = {
  // A refund sends no webhook, so a late COMPLETED delivery may meet a refunded payment.
  COMPLETED: ['COMPLETED', 'REFUNDED'],
};

const HINTS: Record<string, VerifiedWebhookEvent['hint']> = {
  COMPLETED: 'paid',
  FAILED: 'failed',
  CANCELED: 'canceled',
  EXPIRED: 'canceled',
  EXPIRED_USER_CONFIRMATION: 'canceled',
  AUTHORIZED: 'pending',
  REAUTHORIZING: 'pending',
  REFUNDED: 'refunded',
};

/** The event a Transaction webhook announces, once PayPay reports the same payment. */
export async function verifyWebhook(ctx: PayPayContext, request: WebhookRequest): Promise<VerifiedWebhookEvent[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(request.rawBody);
  } catch {
    throw new WebhookRejected('PayPay webhook: the body is not JSON', 400);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new WebhookRejected('PayPay webhook: the body is not a JSON object', 400);
  const event = parsed as Record<string, unknown>;
  if (event.notification_type !== 'Transaction') {
    throw new WebhookRejected(
      `PayPay webhook: unsupported notification_type ${JSON.stringify(event.notification_type)}`,
      422,
    );
  }
  const orderId = event.merchant_order_id;
  const state = event.state;
  const amount = parseAmount(event.order_amount);
  if (typeof orderId !== 'string' || !MERCHANT_ID_PATTERN.test(orderId))
    throw new WebhookRejected('PayPay webhook: missing or invalid merchant_order_id', 400);
  if (typeof state !== 'string' || !/^[A-Z_]{1,40}$/.test(state))
    throw new WebhookRejected('PayPay webhook: missing or invalid state', 400);
  if (amount === null) throw new WebhookRejected('PayPay webhook: missing or invalid order_amount', 400);
  const paypayOrderId = event.order_id;
  if (paypayOrderId !== undefined && paypayOrderId !== null && typeof paypayOrderId !== 'string') {
    throw new WebhookRejected('PayPay webhook: invalid order_id', 400);
  }
  const merchant = event.merchant_id;
  if (merchant !== undefined && merchant !== null && merchant !== '' && String(merchant) !== ctx.options.merchantId) {
    throw new WebhookRejected('PayPay webhook: merchant_id is not ours', 403);
  }

  // PayPay does not sign webhooks: the event counts only if PayPay itself reports the same payment.
  const res = await readDetails(ctx, orderId);
  if (isNotFound(res)) throw new WebhookRejected(`PayPay webhook: PayPay knows no payment for ${orderId}`, 404);
  if (!succeeded(res)) throw failure('Get Payment Details (webhook confirmation)', res);
  const details = res.data as PaymentDetails | null;
  const actual = typeof details?.status === 'string' ? details.status : '';
  if (!(CONSISTENT_STATES[state] ?? [state]).includes(actual)) {
    throw new WebhookRejected(`PayPay webhook: state ${state} but PayPay reports ${actual || 'nothing'}`, 422);
  }
  if (details?.amount?.amount !== amount)
    throw new WebhookRejected('PayPay webhook: order_amount differs from PayPay', 422);
  if (details.merchantPaymentId !== undefined && details.merchantPaymentId !== orderId) {
    throw new WebhookRejected('PayPay webhook: PayPay reports another merchantPaymentId', 422);
  }
  const paymentId = typeof details.paymentId === 'string' ? details.paymentId : null;
  if (typeof paypayOrderId === 'string' && paypayOrderId !== '' && paypayOrderId !== paymentId) {
    throw new WebhookRejected('PayPay webhook: order_id differs from PayPay', 422);
  }

  return [
    {
      // PayPay events carry no id; one payment reaches each state once, and retries repeat the same pair.
      eventId: `paypay:${paymentId ?? orderId}:${state}`,
      type: `Transaction.${state}`,
      orderId,
      // The event names PayPay's payment (order_id), not the codeId we store as providerRef.
      providerRef: null,
      hint: HINTS[state] ?? 'unknown',
    },
  ];
}

function parseAmount(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return null;
}
