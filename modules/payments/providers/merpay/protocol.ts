// The Merpay Online payments API as the SDK speaks it: its message shapes and paths, the shop's own
// readings of a transaction, and the error answer (the why: the header of merpay.ts).
import { ProviderError, isRetryableStatus } from '../types';

/** BatchGetTransactionsResponse\TransactionPayment (messages.php). Amounts may arrive as strings (proto3 int64 JSON). */
export interface MerpayTransactionPayment {
  orderId?: string;
  authorizedAmount?: number | string;
  capturedAmount?: number | string;
  canceledAmount?: number | string;
  /** An enum whose values the SDK does not name; not relied on. */
  status?: number;
  authorizedAt?: string | null;
  capturedAt?: string | null;
  canceledAt?: string | null;
}

/** BatchGetTransactionsResponse\Transaction (messages.php): a payment entry or a refund entry. */
export interface MerpayTransactionEntry {
  transactionId?: string;
  /** An enum whose values the SDK does not name; entries are told apart by `payment` / `refund`. */
  type?: number;
  payment?: MerpayTransactionPayment | null;
  refund?: { amount?: number | string; refundedAt?: string | null } | null;
}

/** GetTransitionStatusResponse (messages.php). */
export interface MerpayTransitionStatus {
  transactionId?: string;
  /** Screen-transition state (the SDK: "different from payment statuses"); values unnamed, not relied on. */
  transitionStatus?: number;
  cancelUrl?: string;
  returnUrl?: string;
  createdAt?: string;
  serverTime?: string;
}

/** The request body of /v1/transaction:create, field for field as api.php sends it (plus orderName from messages.php). */
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

export const MERPAY_PATHS = {
  token: '/jp/v1/token',
  create: '/v1/transaction:create',
  capture: '/v1/transaction:capture',
  cancel: '/v1/transaction:cancel',
  refund: '/v1/transaction:refund',
  batchGet: '/v1/transactions:batchGet',
  transitionStatus: '/v1/transitionStatus:get',
} as const;

export const MERPAY_SCOPE = 'netpayment:transaction:write';
/** Query parameters this adapter adds to the returnUrl it registers, so a confirm callback can be checked before payment. */
export const MERPAY_BOUND_ORDER_PARAM = 'merpay_order';
export const MERPAY_BOUND_AMOUNT_PARAM = 'merpay_amount';
/** Query parameter of the confirm and completion URLs: the callback token (see callbackToken). */
export const MERPAY_CALLBACK_TOKEN_PARAM = 'token';

// Merpay's id format is not documented: accept what is safe to store and to echo in JSON.
export const TRANSACTION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export type CallbackKind = 'confirm' | 'completion';

/** What a transaction's payment amounts say, independent of the unnamed status enum. */
export type Derived =
  | { kind: 'unpaid' }
  | { kind: 'authorized'; amount: number }
  | { kind: 'captured'; amount: number; refundedJpy: number; refundAmounts: number[] }
  | { kind: 'canceled' };

export interface TransactionRead {
  payment: MerpayTransactionPayment | null;
  refundAmounts: number[];
}

export function withParams(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [key, value] of Object.entries(params)) u.searchParams.set(key, value);
  return u.toString();
}

/** Whole numbers as JSON numbers or as the decimal strings proto3 JSON uses for int64. */
export function toInt(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value)) return Number(value);
  return null;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-200 answer from the Merpay API (`{ code, message, requestId, details }`), keeping the HTTP status. */
export class MerpayApiError extends ProviderError {
  readonly code: unknown;
  readonly requestId: string | null;
  constructor(
    readonly status: number,
    body: string,
    path: string,
  ) {
    super(`merpay: ${path} answered ${status}${describeError(body)}`, isRetryableStatus(status));
    this.name = 'MerpayApiError';
    const parsed = parseError(body);
    this.code = parsed?.code ?? null;
    this.requestId = typeof parsed?.requestId === 'string' ? parsed.requestId : null;
  }

  /** 404, or the gRPC-style NOT_FOUND code (5) a 200-less answer may carry. */
  get notFound(): boolean {
    return this.status === 404 || this.code === 'NOT_FOUND' || this.code === 5;
  }
}

function parseError(body: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(body);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** `: code — message (requestId …)` from the SDK's error shape, or OAuth's `error` / `error_description`. */
export function describeError(body: string): string {
  const parsed = parseError(body);
  if (!parsed) return '';
  const parts = [parsed.code ?? parsed.error, parsed.message ?? parsed.error_description]
    .filter((p): p is string | number => typeof p === 'string' || typeof p === 'number')
    .map(String);
  const requestId = typeof parsed.requestId === 'string' ? ` (requestId ${parsed.requestId})` : '';
  return parts.length ? `: ${parts.join(' — ')}${requestId}` : requestId;
}
