// The Merpay stand-in's routing: the token endpoint, the transaction API by path, and the hosted page.
import { showPaymentPage, submitPaymentPage } from './payment-page';
import type { MerpayState, Route } from './state';
import { issueToken } from './token';
import { batchGet, callOperation, cancel, capture, create, refund, transitionStatus } from './transactions';

/** The API's methods by path (V1\Api), each an operation on the state. */
export const OPERATIONS: Readonly<Record<string, (state: MerpayState, body: Record<string, unknown>) => unknown>> = {
  '/v1/transaction:create': create,
  '/v1/transaction:capture': capture,
  '/v1/transaction:cancel': cancel,
  '/v1/transaction:refund': refund,
  '/v1/transactions:batchGet': batchGet,
  '/v1/transitionStatus:get': transitionStatus,
};

/** Every route: the token endpoint, the transaction API and the hosted page. */
export const ROUTES: readonly Route[] = [
  { method: 'post', path: '/jp/v1/token', handle: issueToken },
  { method: 'post', path: '/v1/*', handle: callOperation },
  { method: 'get', path: '/payment', handle: showPaymentPage },
  { method: 'post', path: '/payment', handle: submitPaymentPage },
];
