// Everything the Paidy stand-in holds, and the shape of its routes.
import type { Context } from 'hono';
import type { PaidyStandinOptions, PaidyStandinPayment, PaidyStandinWebhook } from './index';

export const WIDGET_PATH = '/shop/checkout/paidy/widget';

/** Everything the stand-in holds, passed explicitly to each handler and state change. */
export interface PaidyState {
  options: PaidyStandinOptions;
  payments: Map<string, PaidyStandinPayment>;
  webhooks: PaidyStandinWebhook[];
  /** Webhook deliveries still running (close() waits for them). */
  inFlight: Set<Promise<unknown>>;
  storeName: string;
  /** Where the stand-in is reached (known once it listens). */
  url: string;
}

export type Route = {
  method: 'get' | 'post';
  path: string;
  handle: (state: PaidyState, c: Context) => Response | Promise<Response>;
};
