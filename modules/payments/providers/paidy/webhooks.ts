// Paidy's webhooks carry no signature: each event is proved by reading the payment back from the API with
// our secret key, and refused when the API contradicts it.
import { WebhookRejected } from '../types';
import type { VerifiedWebhookEvent, WebhookRequest } from '../types';
import {
  PAYMENT_ID,
  PaidyApiError,
  getPayment,
  type PaidyClient,
  type PaidyPayment,
  type PaidyWebhookBody,
} from './client';

const WEBHOOK_STATUSES = [
  'authorize_success',
  'capture_success',
  'refund_success',
  'close_success',
  'update_success',
] as const;
type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** The event a webhook announces, once the payment read back from Paidy agrees with it. */
export async function verifyWebhook(client: PaidyClient, request: WebhookRequest): Promise<VerifiedWebhookEvent[]> {
  let body: PaidyWebhookBody;
  try {
    body = JSON.parse(request.rawBody) as PaidyWebhookBody;
  } catch {
    throw new WebhookRejected('paidy: webhook body is not JSON', 400);
  }
  if (!body || typeof body !== 'object') throw new WebhookRejected('paidy: webhook body is not an object', 400);
  const paymentId = typeof body.payment_id === 'string' ? body.payment_id : '';
  if (!PAYMENT_ID.test(paymentId)) throw new WebhookRejected('paidy: webhook has no valid payment_id', 400);
  const status = typeof body.status === 'string' ? body.status : '';
  if (!(WEBHOOK_STATUSES as readonly string[]).includes(status)) {
    throw new WebhookRejected(`paidy: unknown webhook status ${JSON.stringify(status)}`, 422);
  }
  // Paidy does not sign webhooks: the only proof is Paidy's own API answering for the payment.
  let payment: PaidyPayment;
  try {
    payment = await getPayment(client, paymentId);
  } catch (error) {
    if (error instanceof PaidyApiError && error.status === 404) {
      throw new WebhookRejected(`paidy: payment ${paymentId} does not exist at Paidy`, 404);
    }
    throw error;
  }
  const orderRef = payment.order?.order_ref ?? null;
  if (body.order_ref !== undefined && body.order_ref !== null && body.order_ref !== orderRef) {
    throw new WebhookRejected(`paidy: webhook order_ref disagrees with payment ${paymentId}`, 422);
  }
  const contradiction = contradicts(status as WebhookStatus, payment, body.capture_id);
  if (contradiction)
    throw new WebhookRejected(`paidy: webhook ${status} contradicts payment ${paymentId}: ${contradiction}`, 422);
  const captureId = typeof body.capture_id === 'string' ? body.capture_id : '';
  // Unsigned, so nothing the sender chooses (such as its timestamp) may make a new event: the id is
  // the payment's state as Paidy itself reports it (refunds counted), which a replay cannot change.
  const refunds = (payment.refunds ?? [])
    .map((r) => r.id)
    .sort()
    .join(',');
  return [
    {
      // Paidy sends no event id; these fields are what a redelivery of the same event repeats.
      eventId: `${paymentId}:${status}:${captureId}:${payment.status}:${refunds}`,
      type: status,
      orderId: orderRef,
      providerRef: paymentId,
      hint: hintFor(status as WebhookStatus, payment),
    },
  ];
}

/** Why the payment read back from Paidy cannot be in the state the webhook announces, or null. */
function contradicts(status: WebhookStatus, payment: PaidyPayment, captureId: unknown): string | null {
  const captures = payment.captures ?? [];
  switch (status) {
    case 'authorize_success':
      return payment.status === 'rejected' ? 'payment is rejected' : null;
    case 'capture_success':
      if (captures.length === 0) return 'payment has no capture';
      if (typeof captureId === 'string' && captureId !== '' && !captures.some((c) => c.id === captureId))
        return 'unknown capture_id';
      return null;
    case 'refund_success':
      return (payment.refunds ?? []).length === 0 ? 'payment has no refund' : null;
    case 'close_success':
      return payment.status !== 'closed' ? `payment is ${payment.status}` : null;
    case 'update_success':
      return null;
  }
}

function hintFor(status: WebhookStatus, payment: PaidyPayment): VerifiedWebhookEvent['hint'] {
  switch (status) {
    // Authorised is what completes a Paidy payment here: fetchPayment captures it right away.
    case 'authorize_success':
    case 'capture_success':
      return 'paid';
    case 'refund_success':
      return 'refunded';
    case 'close_success':
      return (payment.captures ?? []).length > 0
        ? (payment.refunds ?? []).length > 0
          ? 'refunded'
          : 'paid'
        : 'canceled';
    case 'update_success':
      return 'unknown';
  }
}
