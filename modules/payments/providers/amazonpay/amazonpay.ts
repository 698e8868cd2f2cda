// Amazon Pay (Japan, Checkout v2) adapter: the official Node SDK signs every call (AMZN-PAY-RSASSA-PSS-V2); IPNs arrive as signed Amazon SNS messages.
//
// How an Amazon Pay payment flows here (see amazonpay.md for the documentation it follows):
// - createCheckout creates a Checkout Session in "additional payment button" style without the button:
//   checkoutMode 'ProcessOrder', paymentIntent 'AuthorizeWithCapture', amount and our order id
//   (merchantMetadata.merchantReferenceId) set up front, and sends the member to
//   webCheckoutDetails.amazonPayRedirectUrl. providerRef is the checkoutSessionId.
// - Amazon sends the member back to our return URL with `?amazonCheckoutSessionId=…`. Amazon Pay does
//   not finalise the payment until the merchant calls Complete Checkout Session, so fetchPayment does
//   that (with the order's amount, which Amazon checks) when the return parameters name this order's
//   session, and reads the session and its Charge otherwise. Completing twice is harmless: the second
//   call is refused with InvalidCheckoutSessionStatus and the session is read instead.
// - IPNs are Amazon SNS messages. verifyWebhook checks the SNS signature with the certificate from
//   SigningCertURL (only from an allowed host), then re-reads the object it names (Charge, Refund,
//   Dispute) with our key: the envelope only names an object, the API says what state it is in.
//
// Pointing the SDK elsewhere: the SDK's only switch is `overrideServiceUrl`, which forces https:// and
// sets NODE_TLS_REJECT_UNAUTHORIZED=0 for the whole process (it is meant for Amazon's internal test
// hosts). That would switch off certificate checks for every HTTPS call the shop makes, so it is never
// used. Instead AmazonPayClient.apiCall is overridden in a subclass of the SDK's WebStoreClient: it still
// uses the SDK's own prepareOptions/signHeaders (the signature is the SDK's, byte for byte) and its
// axios transport, and only chooses the base URL (and adds a timeout, which the SDK lacks). The signed
// x-amz-pay-host stays pay-api.amazon.jp, as the SDK computes it from the region.
//
// The adapter's parts: sdk.ts (the SDK and its routed client), objects.ts (Amazon Pay's objects and
// errors), context.ts (options and shared state), charges.ts (checkout, payment, cancel, refund), sns.ts
// (SNS signatures) and ipn.ts (what an IPN announces).
import type { PaymentProvider } from '../types';
import { cancel, createCheckout, fetchPayment, refund } from './charges';
import { amazonpayContext, type AmazonPayProviderOptions } from './context';
import { verifyWebhook } from './ipn';

export type { AmazonPayProviderOptions } from './context';
export { AmazonPayApiError, jpyFromAmazon } from './objects';
export { AMAZON_PAY_JP_HOST } from './sdk';
export { SNS_HOST_PATTERN, snsStringToSign } from './sns';

/** @example const amazonpay = createAmazonpayProvider({ publicKeyId, privateKey, storeId }) */
export function createAmazonpayProvider(options: AmazonPayProviderOptions): PaymentProvider {
  const ctx = amazonpayContext(options);
  return {
    method: 'amazonpay',
    createCheckout: (request) => createCheckout(ctx, request),
    fetchPayment: (order, returnParams) => fetchPayment(ctx, order, returnParams),
    cancel: (order) => cancel(ctx, order),
    refund: (order, amountJpy) => refund(ctx, order, amountJpy),
    verifyWebhook: (request) => verifyWebhook(ctx, request),
  };
}
