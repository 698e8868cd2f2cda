// Stripe webhooks: the `Stripe-Signature` check (by the SDK) and what each event announces, matched to our
// order through its Checkout Session.
import Stripe from 'stripe';
import { WebhookRejected, type VerifiedWebhookEvent, type WebhookRequest } from '../types';
import { DISPUTE_HOLDS_FUNDS, toProviderError, type StripeContext } from './client';

/** Finds the Checkout Session behind a PaymentIntent (charge and dispute events only name the PaymentIntent). */
async function sessionForPaymentIntent(
  ctx: StripeContext,
  paymentIntentId: string,
): Promise<Stripe.Checkout.Session | null> {
  try {
    const list = await ctx.stripe.checkout.sessions.list({ payment_intent: paymentIntentId, limit: 1 });
    return list.data[0] ?? null;
  } catch (err) {
    throw toProviderError(err, 'Checkout Session の検索');
  }
}

/** Checks `Stripe-Signature` (HMAC-SHA256 over `${t}.${body}`) and describes the event. */
export async function verifyWebhook(ctx: StripeContext, request: WebhookRequest): Promise<VerifiedWebhookEvent[]> {
  const header = request.headers.get('stripe-signature');
  if (!header) throw new WebhookRejected('Stripe-Signature header is missing', 400);
  let event: Stripe.Event;
  try {
    event = await ctx.stripe.webhooks.constructEventAsync(
      request.rawBody,
      header,
      ctx.options.webhookSecret,
      ctx.tolerance,
    );
  } catch (err) {
    if (err instanceof Stripe.errors.StripeSignatureVerificationError)
      throw new WebhookRejected(`Stripe signature rejected: ${err.message.split('\n')[0]}`, 400);
    throw new WebhookRejected(`Stripe webhook body rejected: ${err instanceof Error ? err.message : String(err)}`, 400);
  }
  if (!event || typeof event.id !== 'string' || typeof event.type !== 'string' || !event.data?.object) {
    throw new WebhookRejected('Stripe webhook is not an event', 400);
  }
  return [await describeEvent(ctx, event)];
}

async function describeEvent(ctx: StripeContext, event: Stripe.Event): Promise<VerifiedWebhookEvent> {
  const base = { eventId: event.id, type: event.type };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const session = event.data.object;
      const hint: VerifiedWebhookEvent['hint'] =
        event.type === 'checkout.session.expired'
          ? 'canceled'
          : event.type === 'checkout.session.async_payment_failed'
            ? 'failed'
            : session.payment_status === 'paid'
              ? 'paid'
              : 'pending';
      return {
        ...base,
        orderId: session.metadata?.orderId ?? session.client_reference_id ?? null,
        providerRef: session.id,
        hint,
      };
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      const { orderId, providerRef } = await matchPaymentIntent(ctx, charge.payment_intent, charge.metadata?.orderId);
      return { ...base, orderId, providerRef, hint: 'refunded' };
    }
    case 'charge.dispute.created':
    case 'charge.dispute.closed': {
      const dispute = event.data.object;
      const { orderId, providerRef } = await matchPaymentIntent(ctx, dispute.payment_intent, dispute.metadata?.orderId);
      const hint: VerifiedWebhookEvent['hint'] =
        event.type === 'charge.dispute.created' || DISPUTE_HOLDS_FUNDS.has(dispute.status) ? 'charged_back' : 'unknown';
      return { ...base, orderId, providerRef, hint };
    }
    default: {
      // Not one we subscribe to; recorded once by the caller, nothing to do.
      const object = event.data.object as { metadata?: Record<string, string> | null };
      return { ...base, orderId: object.metadata?.orderId ?? null, providerRef: null, hint: 'unknown' };
    }
  }
}

/** Our order id and session id for a charge/dispute event: the session behind its PaymentIntent. */
async function matchPaymentIntent(
  ctx: StripeContext,
  paymentIntent: string | Stripe.PaymentIntent | null,
  metadataOrderId: string | undefined,
): Promise<{ orderId: string | null; providerRef: string | null }> {
  const intentId = typeof paymentIntent === 'string' ? paymentIntent : (paymentIntent?.id ?? null);
  if (!intentId) return { orderId: metadataOrderId ?? null, providerRef: null };
  const session = await sessionForPaymentIntent(ctx, intentId);
  if (!session) return { orderId: metadataOrderId ?? null, providerRef: null };
  return {
    orderId: session.metadata?.orderId ?? session.client_reference_id ?? metadataOrderId ?? null,
    providerRef: session.id,
  };
}
