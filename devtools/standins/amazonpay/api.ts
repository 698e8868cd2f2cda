// The Amazon Pay stand-in's v2 API: one handler per operation (sessions, charges, refunds, disputes, permissions).
import { randomUUID } from 'node:crypto';
import { isHttpUrl, isRecord } from '#devtools/standins/shared';
import type { AmazonPayStandinCharge, AmazonPayStandinSession } from './index';
import { chargeView, createRefund, refundView, sessionView } from './objects';
import { bodyOf } from './requests';
import { deliverLater, idParam } from './sns';
import { type AmazonPayState, type ApiContext, SESSION_LIFETIME_MS } from './state';
import { amazonError, amazonTime, digits, fromAmazonTime, notFound, setStatus, status, str, yen } from './wire';

export function createCheckoutSession(state: AmazonPayState, c: ApiContext): Response {
  if (!c.req.header('x-amz-pay-idempotency-key'))
    return amazonError(c, 400, 'MissingHeader', 'x-amz-pay-idempotency-key is required.');
  const body = bodyOf(c);
  if (!body) return amazonError(c, 400, 'InvalidRequestFormat', 'The request body is not valid JSON.');
  const web = isRecord(body.webCheckoutDetails) ? body.webCheckoutDetails : {};
  const payment = isRecord(body.paymentDetails) ? body.paymentDetails : {};
  const meta = isRecord(body.merchantMetadata) ? body.merchantMetadata : {};
  const amount = isRecord(payment.chargeAmount) ? payment.chargeAmount : null;
  const resultUrl = str(web.checkoutResultReturnUrl);
  const reviewUrl = str(web.checkoutReviewReturnUrl);
  if (!resultUrl && !reviewUrl)
    return amazonError(c, 400, 'MissingParameterValue', 'webCheckoutDetails.checkoutResultReturnUrl is required.');
  for (const u of [resultUrl, reviewUrl, str(web.checkoutCancelUrl)])
    if (u && !isHttpUrl(u)) return amazonError(c, 400, 'InvalidParameterValue', `The URL ${u} is invalid.`);
  const storeId = str(body.storeId);
  if (!storeId) return amazonError(c, 400, 'MissingParameterValue', 'storeId is required.');
  if (state.options.storeId && storeId !== state.options.storeId)
    return amazonError(c, 400, 'InvalidParameterValue', 'The storeId is not registered to this merchant.');
  if (!amount || str(amount.currencyCode) !== 'JPY' || !/^[1-9][0-9]{0,8}$/.test(str(amount.amount) ?? '')) {
    return amazonError(c, 400, 'InvalidParameterValue', 'paymentDetails.chargeAmount must be a whole JPY amount.');
  }
  const intent = str(payment.paymentIntent) ?? 'Confirm';
  if (!['Authorize', 'AuthorizeWithCapture', 'Confirm'].includes(intent))
    return amazonError(c, 400, 'InvalidParameterValue', 'paymentDetails.paymentIntent is invalid.');
  const id = randomUUID();
  const now = Date.now();
  const session: AmazonPayStandinSession = {
    checkoutSessionId: id,
    webCheckoutDetails: {
      checkoutReviewReturnUrl: reviewUrl,
      checkoutResultReturnUrl: resultUrl,
      checkoutCancelUrl: str(web.checkoutCancelUrl),
      amazonPayRedirectUrl: `${state.publicBase}/checkout/${id}`,
      checkoutMode: str(web.checkoutMode),
    },
    productType: null,
    paymentDetails: {
      paymentIntent: intent,
      canHandlePendingAuthorization: payment.canHandlePendingAuthorization === true,
      chargeAmount: { amount: str(amount.amount)!, currencyCode: 'JPY' },
      totalOrderAmount: null,
      softDescriptor: str(payment.softDescriptor),
      presentmentCurrency: 'JPY',
      allowOvercharge: null,
      extendExpiration: null,
    },
    chargePermissionType: str(body.chargePermissionType) ?? 'OneTime',
    merchantMetadata: {
      merchantReferenceId: str(meta.merchantReferenceId),
      merchantStoreName: str(meta.merchantStoreName),
      noteToBuyer: str(meta.noteToBuyer),
      customInformation: str(meta.customInformation),
    },
    buyer: null,
    billingAddress: null,
    paymentPreferences: [],
    statusDetails: status('Open', null, null),
    shippingAddress: null,
    platformId: str(body.platformId),
    chargePermissionId: null,
    chargeId: null,
    constraints: [],
    creationTimestamp: amazonTime(now),
    expirationTimestamp: amazonTime(now + SESSION_LIFETIME_MS),
    storeId,
    providerMetadata: { providerReferenceId: null },
    releaseEnvironment: c.get('environment'),
  };
  state.sessions.set(id, session);
  return c.json(session, 201);
}

/** GET /v2/checkoutSessions/:id (an open session past its 24 hours reads Canceled/Expired). */
export function getCheckoutSession(state: AmazonPayState, c: ApiContext): Response {
  const s = state.sessions.get(idParam(c));
  return s ? c.json(sessionView(state, s)) : notFound(c, 'Checkout Session');
}

/** POST /v2/checkoutSessions/:id/complete: after the buyer approved, with the same amount; makes the charge permission (and the charge). */
export function completeCheckoutSession(state: AmazonPayState, c: ApiContext): Response {
  const s = state.sessions.get(idParam(c));
  if (!s) return notFound(c, 'Checkout Session');
  sessionView(state, s);
  const body = bodyOf(c);
  const amount = body && isRecord(body.chargeAmount) ? body.chargeAmount : null;
  if (!amount) return amazonError(c, 400, 'MissingParameterValue', 'chargeAmount is required.');
  if (s.statusDetails.state === 'Canceled')
    return amazonError(
      c,
      422,
      'CheckoutSessionCanceled',
      `The Checkout Session was canceled (${s.statusDetails.reasonCode}).`,
    );
  if (s.statusDetails.state !== 'Open' || !state.approved.has(s.checkoutSessionId)) {
    return amazonError(
      c,
      422,
      'InvalidCheckoutSessionStatus',
      `You tried to call an operation on a Checkout Session that is in a state where that operation is not allowed (${s.statusDetails.state}).`,
    );
  }
  if (
    str(amount.amount) !== s.paymentDetails.chargeAmount.amount ||
    str(amount.currencyCode) !== s.paymentDetails.chargeAmount.currencyCode
  ) {
    return amazonError(
      c,
      400,
      'AmountMismatch',
      'The chargeAmount does not match the Checkout Session paymentDetails.chargeAmount.',
    );
  }
  const envLetter = s.releaseEnvironment === 'Live' ? 'P' : 'S';
  const chargePermissionId = `${envLetter}03-${digits(7)}-${digits(7)}`;
  state.permissions.set(chargePermissionId, {
    chargePermissionId,
    sessionId: s.checkoutSessionId,
    statusDetails: status('Chargeable', null, null),
    creationTimestamp: amazonTime(),
  });
  s.chargePermissionId = chargePermissionId;
  if (s.paymentDetails.paymentIntent !== 'Confirm') {
    const captureNow = s.paymentDetails.paymentIntent === 'AuthorizeWithCapture';
    const charge: AmazonPayStandinCharge = {
      chargeId: `${chargePermissionId}-C${digits(6)}`,
      chargePermissionId,
      chargeAmount: { ...s.paymentDetails.chargeAmount },
      captureAmount: captureNow ? { ...s.paymentDetails.chargeAmount } : null,
      refundedAmount: yen(0),
      convertedAmount: null,
      conversionRate: null,
      softDescriptor: s.paymentDetails.softDescriptor,
      merchantMetadata: { ...s.merchantMetadata },
      providerMetadata: { providerReferenceId: null },
      statusDetails: status(captureNow ? 'Captured' : 'Authorized', null, null),
      creationTimestamp: amazonTime(),
      expirationTimestamp: amazonTime(Date.now() + 30 * 86_400_000),
      releaseEnvironment: s.releaseEnvironment,
    };
    state.charges.set(charge.chargeId, charge);
    s.chargeId = charge.chargeId;
    deliverLater(state, 'CHARGE', charge.chargeId);
  }
  setStatus(s, 'Completed', null, null);
  return c.json(s);
}

/** GET /v2/charges/:id. */
export function getCharge(state: AmazonPayState, c: ApiContext): Response {
  const charge = state.charges.get(idParam(c));
  return charge ? c.json(chargeView(state, charge)) : notFound(c, 'Charge');
}

/** POST /v2/charges/:id/capture: an authorised charge, at most its amount. */
export function captureCharge(state: AmazonPayState, c: ApiContext): Response {
  const charge = state.charges.get(idParam(c));
  if (!charge) return notFound(c, 'Charge');
  if (!c.req.header('x-amz-pay-idempotency-key'))
    return amazonError(c, 400, 'MissingHeader', 'x-amz-pay-idempotency-key is required.');
  const body = bodyOf(c);
  const amount = body && isRecord(body.captureAmount) ? body.captureAmount : null;
  if (!amount) return amazonError(c, 400, 'MissingParameterValue', 'captureAmount is required.');
  if (charge.statusDetails.state !== 'Authorized')
    return amazonError(
      c,
      422,
      'InvalidChargeStatus',
      `You tried to capture a Charge in state ${charge.statusDetails.state}.`,
    );
  if (str(amount.currencyCode) !== 'JPY')
    return amazonError(c, 400, 'CurrencyMismatch', 'The currency does not match the Charge.');
  const value = Number(str(amount.amount));
  if (!Number.isSafeInteger(value) || value <= 0 || value > Number(charge.chargeAmount.amount)) {
    return amazonError(c, 400, 'TransactionAmountExceeded', 'The capture amount exceeds the authorized amount.');
  }
  charge.captureAmount = yen(value);
  setStatus(charge, 'Captured', null, null);
  deliverLater(state, 'CHARGE', charge.chargeId);
  return c.json(charge);
}

/** DELETE /v2/charges/:id/cancel: an authorisation not captured. */
export function cancelCharge(state: AmazonPayState, c: ApiContext): Response {
  const charge = state.charges.get(idParam(c));
  if (!charge) return notFound(c, 'Charge');
  if (charge.statusDetails.state !== 'Authorized' && charge.statusDetails.state !== 'AuthorizationInitiated') {
    return amazonError(
      c,
      422,
      'InvalidChargeStatus',
      `You tried to cancel a Charge in state ${charge.statusDetails.state}.`,
    );
  }
  const body = bodyOf(c);
  setStatus(charge, 'Canceled', 'MerchantCanceled', str(body?.cancellationReason) ?? 'Canceled by the merchant.');
  deliverLater(state, 'CHARGE', charge.chargeId);
  return c.json(charge);
}

/** POST /v2/refunds: of a captured charge, settling after refundSettleMs. */
export function createRefundOperation(state: AmazonPayState, c: ApiContext): Response {
  if (!c.req.header('x-amz-pay-idempotency-key'))
    return amazonError(c, 400, 'MissingHeader', 'x-amz-pay-idempotency-key is required.');
  const body = bodyOf(c);
  if (!body) return amazonError(c, 400, 'InvalidRequestFormat', 'The request body is not valid JSON.');
  const charge = state.charges.get(str(body.chargeId) ?? '');
  if (!charge) return notFound(c, 'Charge');
  const amount = isRecord(body.refundAmount) ? body.refundAmount : null;
  if (!amount) return amazonError(c, 400, 'MissingParameterValue', 'refundAmount is required.');
  if (str(amount.currencyCode) !== 'JPY')
    return amazonError(c, 400, 'CurrencyMismatch', 'The currency does not match the Charge.');
  const value = Number(str(amount.amount));
  if (!Number.isSafeInteger(value) || value <= 0)
    return amazonError(c, 400, 'InvalidParameterValue', 'refundAmount.amount must be a positive whole JPY amount.');
  const refund = createRefund(state, chargeView(state, charge), value);
  if ('reasonCode' in refund) return amazonError(c, refund.status, refund.reasonCode, refund.message);
  return c.json(refund, 201);
}

/** GET /v2/refunds/:id. */
export function getRefund(state: AmazonPayState, c: ApiContext): Response {
  const refund = state.refunds.get(idParam(c));
  return refund ? c.json(refundView(state, refund)) : notFound(c, 'Refund');
}

/** GET /v2/disputes/:id. */
export function getDispute(state: AmazonPayState, c: ApiContext): Response {
  const dispute = state.disputes.get(idParam(c));
  return dispute ? c.json(dispute) : notFound(c, 'Dispute');
}

/** GET /v2/chargePermissions/:id. */
export function getChargePermission(state: AmazonPayState, c: ApiContext): Response {
  const p = state.permissions.get(idParam(c));
  if (!p) return notFound(c, 'Charge Permission');
  const s = state.sessions.get(p.sessionId)!;
  return c.json({
    chargePermissionId: p.chargePermissionId,
    chargePermissionReferenceId: null,
    buyer: s.buyer,
    releaseEnvironment: s.releaseEnvironment,
    shippingAddress: null,
    billingAddress: null,
    paymentPreferences: s.paymentPreferences,
    statusDetails: p.statusDetails,
    creationTimestamp: p.creationTimestamp,
    expirationTimestamp: amazonTime(Date.parse(fromAmazonTime(p.creationTimestamp)) + 180 * 86_400_000),
    merchantMetadata: s.merchantMetadata,
    platformId: s.platformId,
    limits: { amountLimit: s.paymentDetails.chargeAmount, amountBalance: yen(0) },
    presentmentCurrency: 'JPY',
    chargePermissionType: s.chargePermissionType,
  });
}
