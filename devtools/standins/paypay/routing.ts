// The PayPay stand-in's routing: the API (HTTPS) and the cashier page (HTTP), each handler given the state.
import { Hono } from 'hono';
import {
  cancelPayment,
  checkRequest,
  createQrCode,
  deleteQrCode,
  getPaymentDetails,
  getRefundDetails,
  refundPayment,
} from './api';
import { lockDownCashierPage, showCashierPage, submitCashierPage } from './cashier-page';
import { messagePage } from './pages';
import { failure } from './responses';
import { type PayPayState, type Route, StandinFailure } from './state';

/** The API (HTTPS), one handler per operation. */
const API_ROUTES: readonly Route[] = [
  { method: 'post', path: '/v2/codes', handle: createQrCode },
  { method: 'get', path: '/v2/codes/payments/:merchantPaymentId', handle: getPaymentDetails },
  { method: 'delete', path: '/v2/codes/:codeId', handle: deleteQrCode },
  { method: 'delete', path: '/v2/payments/:merchantPaymentId', handle: cancelPayment },
  { method: 'post', path: '/v2/refunds', handle: refundPayment },
  { method: 'get', path: '/v2/refunds/:merchantRefundId', handle: getRefundDetails },
];

/** The hosted payment page (HTTP). */
const CASHIER_ROUTES: readonly Route[] = [
  { method: 'get', path: '/cashier/:codeId', handle: showCashierPage },
  { method: 'post', path: '/cashier/:codeId', handle: submitCashierPage },
];

/** The API app: PayPay's errors, the HMAC check, then the table. */
export function createApiApp(state: PayPayState): Hono {
  const api = new Hono();
  api.onError((error, c) => {
    if (error instanceof StandinFailure) return failure(c, error.status, error.code, error.message);
    return failure(c, 500, 'INTERNAL_SERVER_ERROR', 'Something went wrong on PayPay side');
  });
  api.notFound((c) => failure(c, 404, 'NOT_FOUND', 'The requested resource was not found'));
  api.use('/v2/*', (c, next) => checkRequest(state, c, next));
  for (const route of API_ROUTES) api.on(route.method.toUpperCase(), route.path, (c) => route.handle(state, c));
  return api;
}

/** The cashier app: the table, with a strict policy on every page. */
export function createCashierApp(state: PayPayState): Hono {
  const cashier = new Hono();
  cashier.use('*', lockDownCashierPage);
  for (const route of CASHIER_ROUTES) cashier.on(route.method.toUpperCase(), route.path, (c) => route.handle(state, c));
  cashier.notFound((c) => c.html(messagePage('ページが見つかりません', 'URLをご確認ください。', null), 404));
  return cashier;
}
