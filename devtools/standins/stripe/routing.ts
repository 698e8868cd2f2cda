// The Stripe stand-in's routing: the v1 API and the hosted Checkout page, each handler given the state.
import { Hono, type Context } from 'hono';
import {
  authenticateAndParse,
  createCheckoutSession,
  createRefund,
  expireCheckoutSession,
  listCheckoutSessions,
  listDisputes,
  retrieveCharge,
  retrieveCheckoutSession,
  retrievePaymentIntent,
  retrieveRefund,
  unrecognizedRequest,
} from './api';
import { showCheckoutPage, submitCheckoutPage } from './checkout-page';
import type { ApiContext, Route, StripeState, Vars } from './state';

/** The v1 API, one handler per operation. */
const API_ROUTES: readonly Route<ApiContext>[] = [
  { method: 'post', path: '/checkout/sessions', handle: createCheckoutSession },
  { method: 'get', path: '/checkout/sessions', handle: listCheckoutSessions },
  { method: 'get', path: '/checkout/sessions/:id', handle: retrieveCheckoutSession },
  { method: 'post', path: '/checkout/sessions/:id/expire', handle: expireCheckoutSession },
  { method: 'get', path: '/payment_intents/:id', handle: retrievePaymentIntent },
  { method: 'get', path: '/charges/:id', handle: retrieveCharge },
  { method: 'post', path: '/refunds', handle: createRefund },
  { method: 'get', path: '/refunds/:id', handle: retrieveRefund },
  { method: 'get', path: '/disputes', handle: listDisputes },
];

/** The hosted Checkout page. */
const PAGE_ROUTES: readonly Route<Context>[] = [
  { method: 'get', path: '/c/pay/:id', handle: showCheckoutPage },
  { method: 'post', path: '/c/pay/:id', handle: submitCheckoutPage },
];

/** The stand-in's HTTP app: the routing tables above, each handler given the state. */
export function createStripeApp(state: StripeState): Hono {
  const api = new Hono<Vars>();
  api.use('*', (c, next) => authenticateAndParse(state, c, next));
  for (const route of API_ROUTES) api.on(route.method.toUpperCase(), route.path, (c) => route.handle(state, c));
  api.all('*', (c) => unrecognizedRequest(state, c));
  const app = new Hono();
  app.route('/v1', api);
  for (const route of PAGE_ROUTES) app.on(route.method.toUpperCase(), route.path, (c) => route.handle(state, c));
  return app;
}
