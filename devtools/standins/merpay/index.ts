// Local stand-in for メルペイ: the token endpoint, the /v1 transaction API and the confirm/completion callbacks as Mercari's PHP SDK shows them, plus a hosted payment page.
//
// Shapes follow mercari/merpay-netpayment-sdk-php 1.4.1 (see providers/merpay.md): OAuth2 client
// credentials at /jp/v1/token (Basic clientId:clientSecret, scope netpayment:transaction:write), API calls
// as JSON POSTs authorised by the bare access token, errors as `{ code, message, requestId, details }`,
// and the callbacks ConfirmRequest / CompletionRequest POSTed to the URLs given at transaction:create.
// What the SDK does not tell (enum values, error codes, how refunds are listed, when the payment is
// authorised relative to the confirm) is this stand-in's choice, listed in merpay.md.
import { Hono } from 'hono';
import { listenStandin } from '#devtools/standins/shared';
import { control, mustGet } from './controls';
import type { MerpayCreateTransactionRequest, MerpayTransactionPayment } from './protocol';
import { ROUTES } from './routing';
import type { MerpayState } from './state';
import { addRefund } from './transactions';

export interface MerpayStandinOptions {
  port?: number;
  host?: string;
  /** The client credentials the token endpoint accepts. */
  clientId: string;
  clientSecret: string;
  /** Base URL the stand-in is reached at from the browser, when it differs from http://host:port. */
  publicUrl?: string;
  /** Lifetime of issued access tokens in seconds (default 3600), given as expires_in. */
  tokenTtlSec?: number;
  /** How long Merpay waits for the shop's answer to a callback, in milliseconds (default 10000). */
  callbackTimeoutMs?: number;
}

/**
 * Where a transaction stands. `created` until the member acts on the page; `confirming` while the
 * shop's confirm callback is out; the payment exists from `authorized` on.
 */
export type MerpayStandinState =
  | 'created'
  | 'confirming'
  | 'declined'
  | 'canceled_by_member'
  | 'refused_by_merchant'
  | 'authorized'
  | 'captured'
  | 'canceled';

export interface MerpayStandinTransaction {
  transactionId: string;
  /** The create request as received. */
  request: MerpayCreateTransactionRequest;
  state: MerpayStandinState;
  payment:
    | (Required<Omit<MerpayTransactionPayment, 'authorizedAmount' | 'capturedAmount' | 'canceledAmount'>> & {
        authorizedAmount: number;
        capturedAmount: number;
        canceledAmount: number;
      })
    | null;
  inquiryCode: string | null;
  refunds: { refundTransactionId: string; amount: number; refundedAt: string; inquiryCode: string }[];
  createdAt: string;
}

export interface MerpayStandinCallback {
  kind: 'confirm' | 'completion';
  transactionId: string;
  url: string;
  body: string;
  /** HTTP status the shop answered, or null when it could not be reached in time. */
  status: number | null;
  answer: string;
}

export interface MerpayStandin {
  url: string;
  close(): Promise<void>;
  getTransaction(transactionId: string): MerpayStandinTransaction | undefined;
  /** The member approves on the page (without a browser): confirm callback, payment, completion callback. */
  approve(transactionId: string): Promise<{ transaction: MerpayStandinTransaction; redirectUrl: string }>;
  /** Merpay declines the payment (e.g. 残高不足); the member is sent to the cancelUrl. */
  decline(transactionId: string): Promise<{ transaction: MerpayStandinTransaction; redirectUrl: string }>;
  /** The member presses キャンセル on the page. */
  cancelByMember(transactionId: string): Promise<{ transaction: MerpayStandinTransaction; redirectUrl: string }>;
  /** A refund made in Merpay's merchant console (Merpay sends no callback for it). */
  refund(transactionId: string, amountJpy: number): MerpayStandinTransaction;
  /** Invalidates every access token issued so far (as an early expiry would). */
  revokeTokens(): void;
  /** Access tokens issued since start. */
  readonly tokensIssued: number;
  readonly callbacks: readonly MerpayStandinCallback[];
}

/** Starts the Merpay stand-in on `port` (0 = any free port). */
export async function startMerpayStandin(options: MerpayStandinOptions): Promise<MerpayStandin> {
  if (!options.clientId || !options.clientSecret)
    throw new Error('merpay stand-in: clientId and clientSecret are required');
  const state: MerpayState = {
    options,
    tokenTtlSec: options.tokenTtlSec ?? 3600,
    callbackTimeoutMs: options.callbackTimeoutMs ?? 10_000,
    transactions: new Map(),
    byOrderId: new Map(),
    refundOwner: new Map(),
    tokens: new Map(),
    callbacks: [],
    tokensIssued: 0,
    url: '',
  };
  const app = new Hono();
  for (const route of ROUTES) app.on(route.method.toUpperCase(), route.path, (c) => route.handle(state, c));
  const listening = await listenStandin(app.fetch, options);
  state.url = (options.publicUrl ?? listening.url).replace(/\/+$/, '');
  return {
    url: state.url,
    async close() {
      await new Promise<void>((resolve) => {
        listening.server.close(() => resolve());
        (listening.server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
    getTransaction: (id) => {
      const t = state.transactions.get(id);
      return t ? structuredClone(t) : undefined;
    },
    approve: (id) => control(state, id, 'approve'),
    decline: (id) => control(state, id, 'decline'),
    cancelByMember: (id) => control(state, id, 'cancel'),
    refund(id, amountJpy) {
      const t = mustGet(state, id);
      try {
        addRefund(state, t, amountJpy);
      } catch (error) {
        throw new Error(`merpay stand-in: ${(error as Error).message}`);
      }
      return structuredClone(t);
    },
    revokeTokens: () => state.tokens.clear(),
    get tokensIssued() {
      return state.tokensIssued;
    },
    get callbacks() {
      return state.callbacks;
    },
  };
}
