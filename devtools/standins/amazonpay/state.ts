// The Amazon Pay stand-in's state and limits, passed explicitly to each handler and state change.
import type { KeyObject } from 'node:crypto';
import type { Context } from 'hono';
import type {
  AmazonPayStandinCharge,
  AmazonPayStandinDispute,
  AmazonPayStandinNotification,
  AmazonPayStandinOptions,
  AmazonPayStandinRefund,
  AmazonPayStandinSession,
  Status,
} from './index';

export const API_PREFIXES = ['/v2', '/live/v2', '/sandbox/v2'] as const;
export const SESSION_LIFETIME_MS = 24 * 3_600_000;
export const ALGORITHMS: Record<string, number> = { 'AMZN-PAY-RSASSA-PSS-V2': 32, 'AMZN-PAY-RSASSA-PSS': 20 };

/** Everything the stand-in holds, passed explicitly to each handler and state change. */
export interface AmazonPayState {
  options: AmazonPayStandinOptions;
  /** The merchant's public key: every API request's signature is checked with it. */
  merchantKey: KeyObject;
  apiHost: string;
  merchantId: string;
  skewMs: number;
  snsVersion: '1' | '2';
  sessions: Map<string, AmazonPayStandinSession>;
  /** Sessions the buyer approved on the page (Complete Checkout Session may follow). */
  approved: Set<string>;
  charges: Map<string, AmazonPayStandinCharge>;
  permissions: Map<
    string,
    { chargePermissionId: string; sessionId: string; statusDetails: Status; creationTimestamp: string }
  >;
  refunds: Map<string, AmazonPayStandinRefund>;
  disputes: Map<string, AmazonPayStandinDispute>;
  idempotency: Map<string, { fingerprint: string; status: number; body: unknown }>;
  notifications: AmazonPayStandinNotification[];
  /** IPN deliveries still running (close() waits for them). */
  inFlight: Set<Promise<unknown>>;
  timers: Set<NodeJS.Timeout>;
  /** Injected failures for the next API requests. */
  failures: { status: number; path?: RegExp }[];
  subscriptionToken: string;
  subscriptionConfirmed: boolean;
  certificateDownloads: number;
  /** SNS's signing key and certificate. */
  pems: { private: string; cert: string };
  certId: string;
  topicArn: string;
  subscriptionArn: string;
  /** Where the browser reaches the hosted page, and where SNS's certificate is served (known once listening). */
  publicBase: string;
  snsOrigin: string;
}

export type Env = { Variables: { rawBody: string; environment: 'Sandbox' | 'Live' } };
export type ApiContext = Context<Env>;
export type Route<C> = {
  method: 'get' | 'post' | 'delete';
  path: string;
  handle: (state: AmazonPayState, c: C) => Response | Promise<Response>;
};
