// Stripe adapter (クレジットカード): Checkout Sessions in payment mode through the official `stripe` SDK.
//
// How a purchase runs (see providers/stripe.md for the documentation this follows):
// - createCheckout makes a hosted Checkout Session (JPY, card only) whose client_reference_id and
//   metadata.orderId are our order id; the PaymentIntent gets the same metadata so charge/dispute
//   events can be matched too. The idempotency key `checkout:<orderId>` makes a retried create return
//   the same session.
// - fetchPayment re-reads the session with its PaymentIntent and latest charge expanded and maps
//   Stripe's state to ours (disputes first, then refunds, then paid). Nothing needs capturing: Checkout
//   in payment mode captures automatically.
// - cancel expires an open session; refund creates a Refund on the PaymentIntent.
// - verifyWebhook checks `Stripe-Signature` with the SDK (HMAC-SHA256 over `${t}.${body}`, 300 s).
//
// The adapter's parts: client.ts (the SDK, its options and errors), sessions.ts (checkout, payment,
// cancel, refund) and events.ts (webhooks).
import type { PaymentProvider } from '../types';
import { stripeContext, type StripeProviderOptions } from './client';
import { verifyWebhook } from './events';
import { cancel, createCheckout, fetchPayment, refund } from './sessions';

export type { StripeProviderOptions } from './client';
export { withSessionIdPlaceholder } from './sessions';

/** Creates the Stripe Checkout adapter. */
export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const ctx = stripeContext(options);
  return {
    method: 'stripe',
    createCheckout: (request) => createCheckout(ctx, request),
    fetchPayment: (order) => fetchPayment(ctx, order),
    cancel: (order) => cancel(ctx, order),
    refund: (order, amountJpy, reason) => refund(ctx, order, amountJpy, reason),
    verifyWebhook: (request) => verifyWebhook(ctx, request),
  };
}
