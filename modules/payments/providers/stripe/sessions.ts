// Stripe Checkout Sessions: creating one per order, reading its state (disputes first, then refunds, then
// paid), expiring an open one, and refunding its PaymentIntent.
import type Stripe from 'stripe';
import { ProviderError, type CheckoutRequest, type CheckoutStart, type OrderRef, type ProviderPayment } from '../types';
import { DISPUTE_HOLDS_FUNDS, assertYen, toProviderError, type StripeContext } from './client';

async function retrieveSession(ctx: StripeContext, sessionId: string): Promise<Stripe.Checkout.Session> {
  try {
    return await ctx.stripe.checkout.sessions.retrieve(sessionId, {
      expand: ['payment_intent', 'payment_intent.latest_charge'],
    });
  } catch (err) {
    throw toProviderError(err, 'Checkout Session の取得');
  }
}

/** Creates the order's Checkout Session (one per order: the idempotency key). */
export async function createCheckout(ctx: StripeContext, request: CheckoutRequest): Promise<CheckoutStart> {
  assertYen(request.amountJpy);
  const metadata = { orderId: request.orderId, memberId: request.memberId };
  try {
    const session = await ctx.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        // Card only: this method is shown to members as クレジットカード. (payment_method_types was
        // removed from Checkout Sessions in API 2026-09-30.endive; allowed_payment_method_types replaces it.)
        allowed_payment_method_types: ['card'],
        line_items: [
          {
            quantity: 1,
            // JPY is zero-decimal: unit_amount 1000 is ¥1,000.
            price_data: {
              currency: 'jpy',
              unit_amount: request.amountJpy,
              product_data: { name: request.description },
            },
          },
        ],
        client_reference_id: request.orderId,
        metadata,
        payment_intent_data: { metadata, description: request.description },
        customer_email: request.email ?? undefined,
        locale: 'ja',
        success_url: withSessionIdPlaceholder(request.returnUrl),
        cancel_url: request.cancelUrl,
      },
      // Same order, same key: a retry (ours or the SDK's) gets the session created the first time.
      { idempotencyKey: `checkout:${request.orderId}` },
    );
    if (!session.url) throw new ProviderError('Stripe: Checkout Session has no url', false);
    return { redirectUrl: session.url, providerRef: session.id };
  } catch (err) {
    throw toProviderError(err, 'Checkout Session の作成');
  }
}

/** Reads the session stored on the order and maps its state to ours. */
export async function fetchPayment(ctx: StripeContext, order: OrderRef): Promise<ProviderPayment> {
  // The return URL's session_id is not trusted (anyone can edit it): we always read the session
  // stored on the order, so returnParams are not needed here.
  const session = await retrieveSession(ctx, order.providerRef);
  const sessionOrderId = session.metadata?.orderId ?? session.client_reference_id;
  if (sessionOrderId !== order.orderId) {
    throw new ProviderError(
      `Stripe: session ${session.id} belongs to order ${String(sessionOrderId)}, not ${order.orderId}`,
      false,
    );
  }
  if (session.currency !== 'jpy')
    throw new ProviderError(`Stripe: session ${session.id} is in ${String(session.currency)}, not jpy`, false);

  if (session.status === 'expired') return { status: 'canceled' };
  // An open session is still payable: a declined card leaves it open for another try on the page.
  if (session.status !== 'complete') return { status: 'pending' };

  const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
  const intentId = intent?.id ?? (typeof session.payment_intent === 'string' ? session.payment_intent : session.id);
  const amountJpy = session.amount_total ?? 0;

  if (session.payment_status === 'paid') {
    const charge = intent && typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
    if (charge?.disputed && (await disputeHoldsFunds(ctx, intentId))) {
      return { status: 'charged_back', amountJpy, providerPaymentId: intentId };
    }
    if (charge && charge.amount_refunded > 0) {
      return { status: 'refunded', amountJpy, refundedJpy: charge.amount_refunded, providerPaymentId: intentId };
    }
    return { status: 'paid', amountJpy, providerPaymentId: intentId };
  }
  if (session.payment_status === 'unpaid') {
    // Complete but unpaid: a delayed-notification payment still settling, or one that failed.
    if (intent && (intent.status === 'requires_payment_method' || intent.status === 'canceled')) {
      return { status: 'failed', reason: intent.last_payment_error?.message ?? `async payment ${intent.status}` };
    }
    return { status: 'pending' };
  }
  return { status: 'failed', reason: `unexpected payment_status ${session.payment_status}` };
}

/** Expires an open session; a completed one cannot be canceled. */
export async function cancel(ctx: StripeContext, order: OrderRef): Promise<void> {
  const session = await retrieveSession(ctx, order.providerRef);
  if (session.status === 'expired') return;
  if (session.status === 'complete')
    throw new ProviderError(`Stripe: session ${session.id} is already complete; it cannot be canceled`, false);
  try {
    await ctx.stripe.checkout.sessions.expire(session.id);
  } catch (err) {
    // Lost a race with the member (paid) or with another cancel (expired): decide from a fresh read.
    const again = await retrieveSession(ctx, order.providerRef);
    if (again.status === 'expired') return;
    if (again.status === 'complete')
      throw new ProviderError(`Stripe: session ${session.id} completed while canceling`, false, err);
    throw toProviderError(err, 'Checkout Session の失効');
  }
}

/** Refunds on the PaymentIntent, one refund per (order, amount). */
export async function refund(
  ctx: StripeContext,
  order: OrderRef & { providerPaymentId: string },
  amountJpy: number,
  reason: string,
): Promise<void> {
  assertYen(amountJpy);
  try {
    await ctx.stripe.refunds.create(
      {
        payment_intent: order.providerPaymentId,
        amount: amountJpy,
        reason: 'requested_by_customer',
        metadata: { orderId: order.orderId, reason: reason.slice(0, 500) },
      },
      { idempotencyKey: `refund:${order.orderId}:${amountJpy}` },
    );
  } catch (err) {
    throw toProviderError(err, '返金');
  }
}

async function disputeHoldsFunds(ctx: StripeContext, paymentIntentId: string): Promise<boolean> {
  try {
    const disputes = await ctx.stripe.disputes.list({ payment_intent: paymentIntentId, limit: 10 });
    return disputes.data.some((d) => DISPUTE_HOLDS_FUNDS.has(d.status));
  } catch (err) {
    throw toProviderError(err, 'チャージバックの取得');
  }
}

/**
 * Appends Stripe's `{CHECKOUT_SESSION_ID}` template to the return URL (Stripe substitutes it on redirect),
 * keeping any fragment last.
 * @example withSessionIdPlaceholder('https://shop/backfrompurchase?order=1') === 'https://shop/backfrompurchase?order=1&session_id={CHECKOUT_SESSION_ID}'
 */
export function withSessionIdPlaceholder(returnUrl: string): string {
  const hashAt = returnUrl.indexOf('#');
  const head = hashAt === -1 ? returnUrl : returnUrl.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : returnUrl.slice(hashAt);
  const joiner = head.includes('?') ? (head.endsWith('?') || head.endsWith('&') ? '' : '&') : '?';
  return `${head}${joiner}session_id={CHECKOUT_SESSION_ID}${fragment}`;
}
