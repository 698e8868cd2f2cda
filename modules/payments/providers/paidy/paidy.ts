// Paidy (あと払いペイディ) adapter: Paidy Checkout authorises in the browser, this adapter captures, closes and refunds over Paidy's REST API.
//
// How a Paidy payment flows here (see paidy.md):
// - Paidy has no hosted payment page: Paidy Checkout is a JavaScript widget (paidy.js) that runs on the
//   merchant's page and creates the payment itself. So createCheckout only points the member at OUR
//   page `/shop/checkout/paidy/widget?order=…`, which loads paidy.js (in local demo mode the stand-in
//   serves a look-alike at the same path). The payment id therefore is not known yet: providerRef is
//   `pending:<orderId>` and the real `pay_…` id arrives in the return URL's `payment_id` parameter.
// - fetchPayment reads the payment (GET /payments/{id}), proves it is ours (order.order_ref = our order id,
//   amount = the order's amount) and captures it while it is still AUTHORIZED. Paidy closes a payment
//   when it is captured, so "closed with a capture" is paid and "closed without one" is cancelled/expired.
// - Paidy's webhooks carry no signature, so verifyWebhook proves each event by reading the payment back
//   from the API with our secret key and rejecting events the API contradicts.
//
// The adapter's parts: client.ts (the API, its shapes and errors), payments.ts (checkout, payment,
// cancel, refund) and webhooks.ts (events proved by reading back).
import type { PaymentProvider } from '../types';
import { paidyClient, type PaidyProviderOptions } from './client';
import { cancel, createCheckout, fetchPayment, refund } from './payments';
import { verifyWebhook } from './webhooks';

export type { PaidyPayment, PaidyProviderOptions, PaidyWebhookBody } from './client';

/** Creates the Paidy adapter. */
export function createPaidyProvider(options: PaidyProviderOptions): PaymentProvider {
  const client = paidyClient(options);
  return {
    method: 'paidy',
    createCheckout: (request) => createCheckout(client, request),
    fetchPayment: (order, returnParams) => fetchPayment(client, order, returnParams),
    cancel: (order) => cancel(client, order),
    refund: (order, amountJpy, reason) => refund(client, order, amountJpy, reason),
    verifyWebhook: (request) => verifyWebhook(client, request),
  };
}
