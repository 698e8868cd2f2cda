// メルペイ (Merpay) adapter for the "Merpay Online payments API" as Mercari's official PHP SDK (mercari/merpay-netpayment-sdk-php 1.4.1) speaks it.
//
// What the SDK shows, and this adapter follows (see merpay.md for file-by-file sources):
// - Auth: OAuth2 client credentials at https://{authHost}/jp/v1/token (Basic clientId:clientSecret,
//   form grant_type=client_credentials, scope netpayment:transaction:write) → access_token. API calls are
//   JSON POSTs to https://{apiHost}{path} with `authorization: <access_token>` (the SDK sends the bare
//   token, no "Bearer"). A non-200 answer carries `{ code, message, requestId, details }`.
//   The SDK fetches a token for every call; this adapter caches it until shortly before it expires and
//   fetches a new one when the API answers 401, which stays compatible with the SDK's behaviour.
// - Transactions: /v1/transaction:create (→ transactionId, paymentUrl), :capture, :cancel, :refund,
//   /v1/transactions:batchGet (payment amounts and refunds) and /v1/transitionStatus:get (screen state,
//   returnUrl). There is no single "get transaction" path in the SDK, so reading is batchGet of one id.
// - Callbacks: Merpay POSTs JSON to the confirmUrl (before it charges: ConfirmRequest {url, transactionId,
//   orderId, amount, shippingFee}) and to the completionUrl (after: CompletionRequest {…, inquiryCode,
//   buyer, …}). They carry no signature, and everything in their body (transaction id, our order id, the
//   amount) is known to the member who pays, so a body alone proves nothing. The callback URLs therefore
//   carry a token only Merpay and we know: an HMAC of the order id and amount under our client secret,
//   sent server to server in transaction:create and never shown to the member. verifyWebhook refuses a
//   callback without the right token (401) before it asks Merpay anything, then proves the rest with our
//   credentials: a paid transaction is read with batchGet (orderId and amount must agree); before payment,
//   the transaction's returnUrl (read with transitionStatus:get) must carry the order id and amount this
//   adapter bound into it at creation, since no public read returns a transaction's amount before it is paid.
// - We create with capture=false: fetchPayment captures an authorised payment once its amount matches
//   the order (and cancels it otherwise), so a wrong amount never becomes a sale.
// Unknown numeric enums (payment status, transitionStatus, entry type) are never relied on: state comes
// from the amounts and timestamps, which the SDK names.
//
// The adapter's parts: protocol.ts (the API's shapes and paths), client.ts (token and calls),
// transactions.ts (checkout, payment, cancel, refund) and callbacks.ts (confirm and completion).
import type { PaymentProvider } from '../types';
import { verifyWebhook } from './callbacks';
import { merpayClient, type MerpayProviderOptions } from './client';
import { cancel, createCheckout, fetchPayment, refund } from './transactions';

export { callbackToken } from './callbacks';
export type { MerpayProviderOptions } from './client';
export {
  MERPAY_BOUND_AMOUNT_PARAM,
  MERPAY_BOUND_ORDER_PARAM,
  MERPAY_CALLBACK_TOKEN_PARAM,
  MERPAY_PATHS,
  MERPAY_SCOPE,
  MerpayApiError,
} from './protocol';
export type {
  MerpayCreateTransactionRequest,
  MerpayTransactionEntry,
  MerpayTransactionPayment,
  MerpayTransitionStatus,
} from './protocol';

/** Creates the Merpay adapter. */
export function createMerpayProvider(options: MerpayProviderOptions): PaymentProvider {
  const client = merpayClient(options);
  return {
    method: 'merpay',
    createCheckout: (request) => createCheckout(client, request),
    fetchPayment: (order) => fetchPayment(client, order),
    cancel: (order) => cancel(client, order),
    refund: (order, amountJpy) => refund(client, order, amountJpy),
    verifyWebhook: (request) => verifyWebhook(client, request),
  };
}
