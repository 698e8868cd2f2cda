// The Merpay stand-in's reading of the protocol: the wire shapes, the constants it chooses, and its error answers.
import type { Context } from 'hono';
import { token } from '#devtools/standins/shared';
import type { MerpayStandinState } from './index';

// The wire shapes of mercari/merpay-netpayment-sdk-php 1.4.1 (messages.php), declared here again rather
// than taken from the adapter: the stand-in is a second, independent reading of Merpay's protocol, so a
// shape the adapter gets wrong shows up as a disagreement in the tests instead of being shared.
/** CreateTransactionRequest as api.php sends it (plus orderName from messages.php). */
export interface MerpayCreateTransactionRequest {
  orderId: string;
  orderName?: string;
  amount: number;
  useDeliveryAddress: boolean;
  useShippingFee: boolean;
  isFixedShippingFee: boolean;
  fixedShippingFee: number;
  shippingFeeUrl: string;
  confirmUrl: string;
  completionUrl: string;
  cancelUrl: string;
  returnUrl: string;
  paymentContractType: number;
  capture: boolean;
  items: { name: string; unitPrice: number; quantity: number }[];
  metadata: Record<string, unknown>;
}

/** BatchGetTransactionsResponse\TransactionPayment. */
export interface MerpayTransactionPayment {
  orderId?: string;
  authorizedAmount?: number | string;
  capturedAmount?: number | string;
  canceledAmount?: number | string;
  status?: number;
  authorizedAt?: string | null;
  capturedAt?: string | null;
  canceledAt?: string | null;
}

/** BatchGetTransactionsResponse\Transaction: a payment entry or a refund entry. */
export interface MerpayTransactionEntry {
  transactionId?: string;
  type?: number;
  payment?: MerpayTransactionPayment | null;
  refund?: { amount?: number | string; refundedAt?: string | null } | null;
}

export const MAX_AMOUNT = 1_000_000;
// Written out here, not imported from the adapter, so a wrong scope on either side shows in tests.
export const SCOPE = 'netpayment:transaction:write';
// Placeholders: the SDK carries these as integers without naming their values. The adapter ignores them.
export const PAYMENT_STATUS = { authorized: 1, captured: 2, canceled: 3 } as const;
export const ENTRY_TYPE = { payment: 1, refund: 2 } as const;
export const TRANSITION_STATUS: Record<MerpayStandinState, number> = {
  created: 1,
  confirming: 2,
  authorized: 3,
  captured: 3,
  declined: 4,
  canceled_by_member: 5,
  refused_by_merchant: 6,
  canceled: 7,
};

type ErrorStatus = 400 | 401 | 403 | 404 | 409;
export class StandinError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const errorBody = (code: string, message: string) => ({
  code,
  message,
  requestId: `req_${token(20)}`,
  details: [] as unknown[],
});
export const fail = (c: Context, e: StandinError) => c.json(errorBody(e.code, e.message), e.status);

export const invalid = (message: string) => new StandinError(400, 'INVALID_ARGUMENT', message);

export function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

export function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  if (!header || !/^Basic\s+/i.test(header)) return null;
  const decoded = Buffer.from(header.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}
