// PayPay adapter: web payment through PayPay OPA's "Create a QR Code" (ORDER_QR + WEB_LINK), driven by PayPay's official Node SDK.
//
// How a PayPay payment flows here (see paypay.md):
// - createCheckout creates a code with merchantPaymentId = our orderId and redirectUrl = our return page;
//   the member pays on PayPay's page (`url`). providerRef is PayPay's codeId (needed to delete the code).
// - fetchPayment asks Get Payment Details (/v2/codes/payments/{merchantPaymentId}); PayPay appends
//   nothing to the return URL, so returnParams carry no information and are ignored. Web payments
//   complete immediately (isAuthorization=false), so there is nothing to capture.
// - cancel deletes the code and then calls Cancel a payment, which PayPay documents for "not sure what
//   happened" and which guarantees that money taken in a race goes back to the member.
// - PayPay does not sign its Transaction webhooks, so verifyWebhook proves an event by reading the
//   payment back from PayPay (state and amount must agree) and rejects anything it cannot confirm.
//
// Pointing the SDK elsewhere: the SDK's documented `conf` option (a `Conf({ hostName, portNumber })`)
// replaces the built-in hosts. The SDK always uses node:https, so a local stand-in serves TLS with a
// self-signed certificate; `trustedCaPem` trusts exactly that certificate for this adapter's requests
// only (through the SDK's public setHttpsClient hook), never by switching TLS checks off.
//
// The adapter's parts: sdk.ts (the SDK, its options and answers), payments.ts (checkout, payment,
// cancel, refund) and webhooks.ts (events confirmed by reading back).
import type { PaymentProvider } from '../types';
import { cancel, createCheckout, fetchPayment, refund } from './payments';
import { payPayContext, type PayPayProviderOptions } from './sdk';
import { verifyWebhook } from './webhooks';

export type { PayPayProviderOptions } from './sdk';

/** Creates the PayPay adapter (one SDK instance per adapter, never the SDK's global singleton). */
export function createPayPayProvider(options: PayPayProviderOptions): PaymentProvider {
  const ctx = payPayContext(options);
  return {
    method: 'paypay',
    createCheckout: (request) => createCheckout(ctx, request),
    fetchPayment: (order) => fetchPayment(ctx, order),
    cancel: (order) => cancel(ctx, order),
    refund: (order, amountJpy, reason) => refund(ctx, order, amountJpy, reason),
    verifyWebhook: (request) => verifyWebhook(ctx, request),
  };
}
