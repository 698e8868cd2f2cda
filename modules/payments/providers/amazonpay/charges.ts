// The payment side of Amazon Pay: creating the checkout session, completing and reading it on the
// member's return, canceling and refunding (the flow: the header of amazonpay.ts).
import { ProviderError } from '../types';
import type { CheckoutRequest, CheckoutStart, OrderRef, ProviderPayment } from '../types';
import type { AmazonPayContext } from './context';
import {
  apiError,
  chargeSchema,
  checkoutSessionSchema,
  idempotencyKey,
  jpy,
  jpyFromAmazon,
  parseBody,
  refundSchema,
  type Charge,
  type CheckoutSession,
} from './objects';
import type { SdkResponse } from './sdk';

export async function call(action: string, run: () => Promise<SdkResponse>): Promise<SdkResponse> {
  try {
    return await run();
  } catch (error) {
    throw apiError(error, action);
  }
}

export async function getSession(ctx: AmazonPayContext, checkoutSessionId: string): Promise<CheckoutSession> {
  const res = await call('getCheckoutSession', () => ctx.client.getCheckoutSession(checkoutSessionId));
  return parseBody(checkoutSessionSchema, res, 'getCheckoutSession');
}

export async function getCharge(ctx: AmazonPayContext, chargeId: string): Promise<Charge> {
  const res = await call('getCharge', () => ctx.client.getCharge(chargeId));
  return parseBody(chargeSchema, res, 'getCharge');
}

/** Confirms the member came back; Amazon finalises the payment only now. Idempotent by re-reading. */
async function complete(ctx: AmazonPayContext, order: OrderRef): Promise<CheckoutSession | { failed: string }> {
  try {
    const res = await ctx.client.completeCheckoutSession(order.providerRef, { chargeAmount: jpy(order.amountJpy) });
    return parseBody(checkoutSessionSchema, res, 'completeCheckoutSession');
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    const e = apiError(error, 'completeCheckoutSession');
    // Already completed (by an earlier call) or canceled (declined, abandoned, expired): read what it is.
    if (e.reasonCode === 'InvalidCheckoutSessionStatus' || e.reasonCode === 'CheckoutSessionCanceled')
      return getSession(ctx, order.providerRef);
    // Our amount is not the session's: nothing is finalised, and Amazon cancels the session in 24 hours.
    if (e.reasonCode === 'AmountMismatch') return { failed: 'AmountMismatch' };
    throw e;
  }
}

export function ownedBy(
  orderId: string,
  meta: { merchantReferenceId?: string | null } | null | undefined,
  what: string,
): void {
  const ref = meta?.merchantReferenceId;
  if (ref && ref !== orderId)
    throw new ProviderError(`Amazon Pay ${what} belongs to order ${ref}, not ${orderId}`, false);
}

async function paymentFromCharge(ctx: AmazonPayContext, order: OrderRef, charge: Charge): Promise<ProviderPayment> {
  ownedBy(order.orderId, charge.merchantMetadata, `charge ${charge.chargeId}`);
  const reason = [charge.statusDetails.reasonCode, charge.statusDetails.reasonDescription].filter(Boolean).join(': ');
  switch (charge.statusDetails.state) {
    case 'Captured': {
      const captured = jpyFromAmazon(charge.captureAmount ?? charge.chargeAmount);
      const refunded = charge.refundedAmount ? jpyFromAmazon(charge.refundedAmount) : 0;
      if (refunded > 0)
        return { status: 'refunded', amountJpy: captured, refundedJpy: refunded, providerPaymentId: charge.chargeId };
      return { status: 'paid', amountJpy: captured, providerPaymentId: charge.chargeId };
    }
    case 'Authorized': {
      // Authorised but not captured (paymentIntent 'Authorize'): capture now. The key is per charge, so
      // a second fetch (or a retry after a timeout) gets Amazon's saved answer, not a second capture.
      const res = await call('captureCharge', () =>
        ctx.client.captureCharge(
          charge.chargeId,
          { captureAmount: charge.chargeAmount },
          { 'x-amz-pay-idempotency-key': idempotencyKey('cp', charge.chargeId) },
        ),
      );
      const captured = parseBody(chargeSchema, res, 'captureCharge');
      return captured.statusDetails.state === 'Authorized'
        ? { status: 'pending' }
        : paymentFromCharge(ctx, order, captured);
    }
    case 'AuthorizationInitiated':
    case 'CaptureInitiated':
      return { status: 'pending' };
    case 'Declined':
      return { status: 'failed', reason: `amazonpay:${reason || 'Declined'}` };
    case 'Canceled':
      return { status: 'canceled' };
    default:
      throw new ProviderError(
        `Amazon Pay charge ${charge.chargeId} is in unknown state ${charge.statusDetails.state}`,
        false,
      );
  }
}

async function paymentFromSession(
  ctx: AmazonPayContext,
  order: OrderRef,
  session: CheckoutSession,
): Promise<ProviderPayment> {
  switch (session.statusDetails.state) {
    case 'Open':
      return { status: 'pending' };
    case 'Completed':
      if (!session.chargeId)
        throw new ProviderError(
          `Amazon Pay checkout session ${session.checkoutSessionId} completed without a charge`,
          false,
        );
      return paymentFromCharge(ctx, order, await getCharge(ctx, session.chargeId));
    case 'Canceled': {
      const code = session.statusDetails.reasonCode ?? 'Canceled';
      // The member left (or never came back within 24 hours): nothing was charged.
      if (code === 'BuyerCanceled' || code === 'Expired') return { status: 'canceled' };
      return {
        status: 'failed',
        reason: `amazonpay:${[code, session.statusDetails.reasonDescription].filter(Boolean).join(': ')}`,
      };
    }
    default:
      throw new ProviderError(`Amazon Pay checkout session is in unknown state ${session.statusDetails.state}`, false);
  }
}

/** Creates the checkout session and sends the member to Amazon. */
export async function createCheckout(ctx: AmazonPayContext, request: CheckoutRequest): Promise<CheckoutStart> {
  if (!Number.isSafeInteger(request.amountJpy) || request.amountJpy <= 0)
    throw new ProviderError(`invalid amount ${request.amountJpy}`, false);
  const payload = {
    webCheckoutDetails: {
      checkoutResultReturnUrl: request.returnUrl,
      checkoutCancelUrl: request.cancelUrl,
      checkoutMode: 'ProcessOrder',
    },
    storeId: ctx.options.storeId,
    chargePermissionType: 'OneTime',
    paymentDetails: {
      paymentIntent: ctx.paymentIntent,
      canHandlePendingAuthorization: false,
      chargeAmount: jpy(request.amountJpy),
      presentmentCurrency: 'JPY',
    },
    merchantMetadata: {
      merchantReferenceId: request.orderId,
      merchantStoreName: ctx.storeName,
      noteToBuyer: request.description.slice(0, 255),
    },
  };
  // One key per order: a retried call gets the same session back instead of a second one.
  const res = await call('createCheckoutSession', () =>
    ctx.client.createCheckoutSession(payload, {
      'x-amz-pay-idempotency-key': idempotencyKey('cs', request.orderId),
    }),
  );
  const session = parseBody(checkoutSessionSchema, res, 'createCheckoutSession');
  const redirectUrl = session.webCheckoutDetails?.amazonPayRedirectUrl;
  if (!redirectUrl) throw new ProviderError('Amazon Pay createCheckoutSession: no amazonPayRedirectUrl', false);
  return { redirectUrl, providerRef: session.checkoutSessionId };
}

/** Reads the payment; on the member's return, completes the session first. */
export async function fetchPayment(
  ctx: AmazonPayContext,
  order: OrderRef,
  returnParams?: URLSearchParams,
): Promise<ProviderPayment> {
  let session = await getSession(ctx, order.providerRef);
  ownedBy(order.orderId, session.merchantMetadata, `checkout session ${session.checkoutSessionId}`);
  // Only the member's return (naming this very session) completes it; without it an open session
  // is simply not paid yet, and Amazon cancels it after 24 hours without charging anything.
  if (session.statusDetails.state === 'Open' && returnParams?.get('amazonCheckoutSessionId') === order.providerRef) {
    const completed = await complete(ctx, order);
    if ('failed' in completed) return { status: 'failed', reason: `amazonpay:${completed.failed}` };
    session = completed;
  }
  return paymentFromSession(ctx, order, session);
}

/** Cancels an authorised charge; an open session simply expires. */
export async function cancel(ctx: AmazonPayContext, order: OrderRef): Promise<void> {
  const session = await getSession(ctx, order.providerRef);
  ownedBy(order.orderId, session.merchantMetadata, `checkout session ${session.checkoutSessionId}`);
  // Open: Amazon has no call to cancel a session; it is not finalised without our Complete call and
  // Amazon cancels it after 24 hours. Canceled: nothing to do.
  if (session.statusDetails.state !== 'Completed' || !session.chargeId) return;
  const charge = await getCharge(ctx, session.chargeId);
  switch (charge.statusDetails.state) {
    case 'Canceled':
    case 'Declined':
      return;
    case 'Authorized':
    case 'AuthorizationInitiated':
      try {
        await ctx.client.cancelCharge(charge.chargeId, { cancellationReason: 'Order canceled by the shop' });
      } catch (error) {
        const e = apiError(error, 'cancelCharge');
        // Canceled meanwhile (a concurrent cancel): read it; anything else is a real refusal.
        if (
          e.reasonCode === 'InvalidChargeStatus' &&
          (await getCharge(ctx, charge.chargeId)).statusDetails.state === 'Canceled'
        )
          return;
        throw e;
      }
      return;
    default:
      throw new ProviderError(
        `Amazon Pay charge ${charge.chargeId} is ${charge.statusDetails.state}; refund it instead of canceling`,
        false,
      );
  }
}

/** Refunds part or all of the captured charge. */
export async function refund(
  ctx: AmazonPayContext,
  order: OrderRef & { providerPaymentId: string },
  amountJpy: number,
): Promise<void> {
  if (!Number.isSafeInteger(amountJpy) || amountJpy <= 0)
    throw new ProviderError(`invalid refund amount ${amountJpy}`, false);
  // Create Refund has no free-text reason (softDescriptor is the buyer's statement line), so the
  // reason stays in the shop's records. One key per (order, charge, amount): a retry is not a second refund.
  const res = await call('createRefund', () =>
    ctx.client.createRefund(
      { chargeId: order.providerPaymentId, refundAmount: jpy(amountJpy) },
      {
        'x-amz-pay-idempotency-key': idempotencyKey('rf', order.orderId, order.providerPaymentId, String(amountJpy)),
      },
    ),
  );
  const refund = parseBody(refundSchema, res, 'createRefund');
  if (refund.statusDetails.state === 'Declined') {
    throw new ProviderError(
      `Amazon Pay declined the refund: ${refund.statusDetails.reasonCode ?? ''} ${refund.statusDetails.reasonDescription ?? ''}`.trim(),
      false,
    );
  }
}
