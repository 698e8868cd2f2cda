// The Stripe stand-in's state and the limits it enforces, shared by every part of it.
import type { Context } from 'hono';
import Stripe from 'stripe';
import type {
  Metadata,
  StandinCharge,
  StandinDispute,
  StandinEvent,
  StandinPaymentIntent,
  StandinRefund,
  StandinSession,
  StripeStandinOptions,
} from './index';

export const API_VERSION = Stripe.API_VERSION;
export const MIN_JPY = 50; // Stripe's minimum charge amount for JPY.
export const MAX_JPY = 99_999_999;
export const SESSION_LIFETIME_S = 24 * 3600;
export const CREATE_PARAMS = new Set([
  'allowed_payment_method_types',
  'cancel_url',
  'client_reference_id',
  'currency',
  'customer_email',
  'expand',
  'expires_at',
  'line_items',
  'locale',
  'metadata',
  'mode',
  'payment_intent_data',
  'success_url',
  'ui_mode',
]);
export const PAYMENT_INTENT_DATA_PARAMS = new Set([
  'description',
  'metadata',
  'receipt_email',
  'statement_descriptor_suffix',
]);
export const REFUND_REASONS = new Set(['duplicate', 'fraudulent', 'requested_by_customer']);

export type Vars = { Variables: { params: Record<string, unknown> } };

/** Everything the stand-in holds, passed explicitly to each handler and state change. */
export interface StripeState {
  options: StripeStandinOptions;
  sessions: Map<string, StandinSession>;
  /** The line items' names per session, for the Checkout page. */
  productNames: Map<string, string>;
  /** payment_intent_data per session, applied when Checkout creates the PaymentIntent. */
  intentData: Map<string, { metadata: Metadata; description: string | null }>;
  intents: Map<string, StandinPaymentIntent>;
  charges: Map<string, StandinCharge>;
  refunds: Map<string, StandinRefund>;
  disputes: Map<string, StandinDispute>;
  events: StandinEvent[];
  /** Saved answers per Idempotency-Key. */
  idempotent: Map<string, { fingerprint: string; status: number; body: string }>;
  /** Webhook deliveries still running (close() waits for them). */
  inFlight: Set<Promise<unknown>>;
  /** Event types the endpoint is subscribed to. */
  enabled: Set<string>;
  businessName: string;
  /** Injected failures for the next API requests. */
  failures: { count: number; status: number };
  /** Where the browser reaches the stand-in (known once it listens). */
  baseUrl: string;
}

export type ApiContext = Context<Vars>;
export type Route<C> = {
  method: 'get' | 'post';
  path: string;
  handle: (state: StripeState, c: C) => Response | Promise<Response>;
};

export const now = () => Math.floor(Date.now() / 1000);
