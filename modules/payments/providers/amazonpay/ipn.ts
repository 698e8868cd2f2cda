// Amazon Pay's IPNs: a verified SNS message names a charge, refund, dispute or charge permission, which is
// re-read with our key; a subscription message is confirmed and stored for the record.
import { WebhookRejected } from '../types';
import type { VerifiedWebhookEvent, WebhookRequest } from '../types';
import { call, getCharge } from './charges';
import type { AmazonPayContext } from './context';
import {
  AmazonPayApiError,
  chargePermissionSchema,
  disputeSchema,
  ipnSchema,
  parseBody,
  refundSchema,
  type Charge,
  type SnsEnvelope,
} from './objects';
import { confirmSubscription, verifiedEnvelope } from './sns';

/** Re-reads the object an IPN names; a signed envelope only says which object changed. */
async function eventFromIpn(ctx: AmazonPayContext, env: SnsEnvelope): Promise<VerifiedWebhookEvent> {
  let raw: unknown;
  try {
    raw = JSON.parse(env.Message);
  } catch {
    throw new WebhookRejected('IPN Message is not JSON', 400);
  }
  const r = (raw ?? {}) as Record<string, unknown>;
  const parsed = ipnSchema.safeParse({
    ObjectType: r.ObjectType ?? r.objectType,
    ObjectId: r.ObjectId ?? r.objectId,
    ChargePermissionId: r.ChargePermissionId ?? r.chargePermissionId,
    NotificationType: r.NotificationType ?? r.notificationType,
    NotificationId: r.NotificationId ?? r.notificationId,
  });
  if (!parsed.success) throw new WebhookRejected('IPN without ObjectType/ObjectId', 400);
  const ipn = parsed.data;
  const type = `${ipn.ObjectType}.${ipn.NotificationType ?? 'STATE_CHANGE'}`;
  const event = (orderId: string | null | undefined, hint: VerifiedWebhookEvent['hint']): VerifiedWebhookEvent => ({
    eventId: env.MessageId,
    type,
    orderId: orderId ?? null,
    // The IPN names charges, refunds and disputes, never the checkout session we keep as providerRef.
    providerRef: null,
    hint,
  });
  try {
    switch (ipn.ObjectType.toUpperCase()) {
      case 'CHARGE': {
        const charge = await getCharge(ctx, ipn.ObjectId);
        return event(charge.merchantMetadata?.merchantReferenceId, chargeHint(charge));
      }
      case 'REFUND': {
        const res = await call('getRefund', () => ctx.client.getRefund(ipn.ObjectId));
        const refund = parseBody(refundSchema, res, 'getRefund');
        const charge = await getCharge(ctx, refund.chargeId);
        return event(
          charge.merchantMetadata?.merchantReferenceId,
          refund.statusDetails.state === 'Refunded' ? 'refunded' : 'unknown',
        );
      }
      case 'CHARGEBACK': {
        const res = await call('getDispute', () => ctx.client.getDispute(ipn.ObjectId));
        const dispute = parseBody(disputeSchema, res, 'getDispute');
        const charge = await getCharge(ctx, dispute.chargeId);
        return event(charge.merchantMetadata?.merchantReferenceId, disputeHint(dispute.statusDetails));
      }
      case 'CHARGE_PERMISSION': {
        const res = await call('getChargePermission', () => ctx.client.getChargePermission(ipn.ObjectId));
        const permission = parseBody(chargePermissionSchema, res, 'getChargePermission');
        return event(permission.merchantMetadata?.merchantReferenceId, 'unknown');
      }
      default:
        return event(null, 'unknown');
    }
  } catch (error) {
    // Signed by SNS but unknown to the API with our key (e.g. a Sandbox IPN at a Live shop).
    if (error instanceof AmazonPayApiError && error.status === 404)
      throw new WebhookRejected(`IPN names an unknown ${ipn.ObjectType}`, 404);
    throw error;
  }
}

/** The events an SNS delivery carries (one IPN, or a subscription message naming no order). */
export async function verifyWebhook(ctx: AmazonPayContext, request: WebhookRequest): Promise<VerifiedWebhookEvent[]> {
  const env = await verifiedEnvelope(ctx, request);
  if (env.Type === 'Notification') return [await eventFromIpn(ctx, env)];
  const confirmed = await confirmSubscription(ctx, env);
  ctx.options.onSubscriptionMessage?.({
    type: env.Type,
    topicArn: env.TopicArn,
    subscribeUrl: env.SubscribeURL ?? null,
    confirmed,
  });
  // Not about a payment: stored for the record, it names no order.
  return [{ eventId: env.MessageId, type: env.Type, orderId: null, providerRef: null, hint: 'unknown' }];
}

/** What a charge's state announces. */
function chargeHint(charge: Charge): VerifiedWebhookEvent['hint'] {
  switch (charge.statusDetails.state) {
    case 'Captured':
      return charge.refundedAmount && Number(charge.refundedAmount.amount) > 0 ? 'refunded' : 'paid';
    case 'Declined':
      return 'failed';
    case 'Canceled':
      return 'canceled';
    case 'Authorized':
    case 'AuthorizationInitiated':
    case 'CaptureInitiated':
      return 'pending';
    default:
      return 'unknown';
  }
}

/** A dispute under review, or lost, holds the money; won, the payment stands. */
function disputeHint(status: { state: string; resolution?: string | null }): VerifiedWebhookEvent['hint'] {
  if (status.resolution === 'MerchantWon') return 'paid';
  if (status.resolution === 'BuyerWon') return 'charged_back';
  if (status.state === 'UnderReview' || status.state === 'ActionRequired') return 'charged_back';
  return 'unknown';
}
