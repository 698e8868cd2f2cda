// The PayPay stand-in's state, limits and the refusal a handler throws.
import type { Context } from 'hono';
import type { PayPayStandinOptions, PayPayStandinPayment, PayPayStandinRefund, PayPayWebhookDelivery } from './index';

export const EPOCH_TOLERANCE_SECONDS = 120;
export const DAY_MS = 86_400_000;
export const JST_OFFSET_MS = 9 * 3_600_000;
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export class StandinFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Everything the stand-in holds, passed explicitly to each handler and state change. */
export interface PayPayState {
  options: PayPayStandinOptions;
  codeValidSeconds: number;
  byMerchantPaymentId: Map<string, PayPayStandinPayment>;
  byCodeId: Map<string, PayPayStandinPayment>;
  byPaymentId: Map<string, PayPayStandinPayment>;
  refunds: Map<string, PayPayStandinRefund>;
  deliveries: PayPayWebhookDelivery[];
  /** Webhook deliveries still running (close() waits for them). */
  inFlight: Set<Promise<unknown>>;
  /** Aborts deliveries' retries on close(). */
  shutdown: AbortController;
  /** Where the member's browser reaches the cashier page (known once it listens). */
  cashierOrigin: string;
}

export type Route = {
  method: 'get' | 'post' | 'delete';
  path: string;
  handle: (state: PayPayState, c: Context) => Response | Promise<Response>;
};
