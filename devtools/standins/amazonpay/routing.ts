// The Amazon Pay stand-in's routing: the v2 API under each prefix, the hosted page and SNS's side.
import { Hono, type Context } from 'hono';
import {
  cancelCharge,
  captureCharge,
  completeCheckoutSession,
  createCheckoutSession,
  createRefundOperation,
  getCharge,
  getChargePermission,
  getCheckoutSession,
  getDispute,
  getRefund,
} from './api';
import { showCheckoutPage, snsCertificate, snsSubscriptionAction, submitCheckoutPage } from './hosted-page';
import { checkRequest } from './requests';

import { type AmazonPayState, API_PREFIXES, type ApiContext, type Env, type Route } from './state';
import { amazonError } from './wire';

/** The v2 API (under each of API_PREFIXES), one handler per operation. */
const API_ROUTES: readonly Route<ApiContext>[] = [
  { method: 'post', path: '/checkoutSessions', handle: createCheckoutSession },
  { method: 'get', path: '/checkoutSessions/:id', handle: getCheckoutSession },
  { method: 'post', path: '/checkoutSessions/:id/complete', handle: completeCheckoutSession },
  { method: 'get', path: '/charges/:id', handle: getCharge },
  { method: 'post', path: '/charges/:id/capture', handle: captureCharge },
  { method: 'delete', path: '/charges/:id/cancel', handle: cancelCharge },
  { method: 'post', path: '/refunds', handle: createRefundOperation },
  { method: 'get', path: '/refunds/:id', handle: getRefund },
  { method: 'get', path: '/disputes/:id', handle: getDispute },
  { method: 'get', path: '/chargePermissions/:id', handle: getChargePermission },
];

/** The hosted page look-alike and SNS's side. */
const PAGE_ROUTES: readonly Route<Context>[] = [
  { method: 'get', path: '/checkout/:id', handle: showCheckoutPage },
  { method: 'post', path: '/checkout/:id', handle: submitCheckoutPage },
  { method: 'get', path: '/sns/:file', handle: snsCertificate },
  { method: 'get', path: '/sns/', handle: snsSubscriptionAction },
];

/** The stand-in's HTTP app: the routing tables above, each handler given the state. */
export function createAmazonpayApp(state: AmazonPayState): Hono {
  const api = new Hono<Env>();
  api.use('*', (c, next) => checkRequest(state, c, next));
  for (const route of API_ROUTES) api.on(route.method.toUpperCase(), route.path, (c) => route.handle(state, c));
  const app = new Hono();
  for (const prefix of API_PREFIXES) app.route(prefix, api);
  app.notFound((c) => amazonError(c, 404, 'ResourceNotFound', 'The requested resource does not exist.'));
  for (const route of PAGE_ROUTES) app.on(route.method.toUpperCase(), route.path, (c) => route.handle(state, c));
  return app;
}
