// Everything the Merpay stand-in holds, and the shape of its routes.
import type { Context } from 'hono';
import type { MerpayStandinCallback, MerpayStandinOptions, MerpayStandinTransaction } from './index';

/** Everything the stand-in holds, passed explicitly to each handler and operation. */
export interface MerpayState {
  options: MerpayStandinOptions;
  tokenTtlSec: number;
  callbackTimeoutMs: number;
  transactions: Map<string, MerpayStandinTransaction>;
  /** Our order id → transaction id (one transaction per orderId). */
  byOrderId: Map<string, string>;
  /** Refund transaction id → the payment's transaction id. */
  refundOwner: Map<string, string>;
  /** Issued access tokens and when they expire (ms). */
  tokens: Map<string, number>;
  callbacks: MerpayStandinCallback[];
  tokensIssued: number;
  /** Where the stand-in is reached (known once it listens). */
  url: string;
}

export type Route = {
  method: 'get' | 'post';
  path: string;
  handle: (state: MerpayState, c: Context) => Response | Promise<Response>;
};
