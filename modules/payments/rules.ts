// The coin shop's ground rules: the payment gateway seam, the shop's payment rules and their defaults,
// the refusal codes and the error that carries them, and the small shared helpers.
import { TZDate } from '@date-fns/tz';
import { startOfMonth } from 'date-fns';
import { refuse, RefusalError } from '#modules/kernel';
import { type PaymentMethod } from './methods';
import { type PaymentProvider } from './providers/types';

export const TOKYO = 'Asia/Tokyo';

/** The providers this shop instance can use, by method (configured ones only). */
export interface PaymentGateway {
  providers: Partial<Record<PaymentMethod, PaymentProvider>>;
}

/** What became of an order, as the shop's counters hear it: one per change the shop wrote. */
export const PAYMENT_OUTCOMES = [
  'checkout_started',
  'checkout_failed',
  'paid',
  'review',
  'failed',
  'canceled',
  'expired',
  'refunded',
  'charged_back',
] as const;
export type PaymentOutcome = (typeof PAYMENT_OUTCOMES)[number];

/** The shop's money rules, from configuration. */
export interface ShopPaymentRules {
  monthlyCapJpy: number;
  minorMonthlyCapJpy: number;
  checkoutExpiryMinutes: number;
  paidCoinDays: number;
  freeCoinDays: number;
  /**
   * Told after each order change is written (the server's metrics, decision 072); never throws, never
   * changes anything. Absent in tests and tools.
   */
  onOutcome?: (event: { method: PaymentMethod; outcome: PaymentOutcome }) => void;
}

/** Tells the rules' listener, if any, what became of an order of this method. */
export function reportOutcome(rules: ShopPaymentRules, method: string, outcome: PaymentOutcome): void {
  try {
    rules.onOutcome?.({ method: method as PaymentMethod, outcome });
  } catch {
    // A counter must never fail a payment.
  }
}

/** The settings' defaults (server/config.ts), for tests and tools that run without settings; never a silent fallback. */
export const DEFAULT_PAYMENT_RULES: ShopPaymentRules = {
  monthlyCapJpy: 500_000,
  minorMonthlyCapJpy: 10_000,
  checkoutExpiryMinutes: 60,
  paidCoinDays: 180,
  freeCoinDays: 90,
};

/** Why the shop refuses a purchase or an operator's refund; each is worded once, in refusal-words.ts. */
export const PAYMENT_REFUSAL_CODES = [
  'AGE_DECLARATION_REQUIRED',
  'MONTHLY_CAP_EXCEEDED',
  'MINOR_CAP_EXCEEDED',
  'FIRST_PURCHASE_ONLY',
  'PACK_UNAVAILABLE',
  // Outside the pack's sale window (docs/decisions/031): details say whether it has not started or has ended.
  'PACK_OUTSIDE_WINDOW',
  'METHOD_UNAVAILABLE',
  'PURCHASE_HOLD',
  'ORDER_KEY_CONFLICT',
  'IDEMPOTENCY_KEY_REUSED',
  'CHECKOUT_IN_PROGRESS',
  'QUOTE_CHANGED',
  'PROVIDER_UNAVAILABLE',
  'ORDER_NOT_FOUND',
  'ORDER_NOT_REFUNDABLE',
  'PROVIDER_NOT_CONFIGURED',
  // An operator's decision on an order held for review: it is no longer in review, or this decision
  // does not fit why it was held (coins are never credited for an amount that did not match).
  'ORDER_NOT_IN_REVIEW',
  'REVIEW_DECISION_NOT_ALLOWED',
  // Maintenance mode: a new checkout is refused (the shop module's switch, read in the checkout's transaction).
  'MAINTENANCE',
  // The closure's sales stop (decision 085), read inside the checkout's transaction like maintenance.
  'SALES_STOPPED',
  // The member's own limits (docs/decisions/035): a self-exclusion, or the monthly purchase limit they set.
  'SELF_EXCLUDED',
  'PURCHASE_LIMIT_REACHED',
] as const;
export type PurchaseRefusalCode = (typeof PAYMENT_REFUSAL_CODES)[number];

/**
 * A purchase the shop refuses: a kernel RefusalError (thrown, because it must roll back the checkout's
 * transaction), with the facts its message names in `details`; the edge words it (refusal-words.ts).
 * @example throw new PurchaseRefused('PACK_UNAVAILABLE', { packId })
 */
export class PurchaseRefused extends RefusalError<PurchaseRefusalCode> {
  constructor(code: PurchaseRefusalCode, details: Record<string, unknown> = {}) {
    super(refuse(code, details));
    this.name = 'PurchaseRefused';
  }
}

/** @example yen(12000) === '¥12,000' */
export const yen = (amount: number) => `¥${amount.toLocaleString('ja-JP')}`;

/** The start of the calendar month in Japan time that contains `now`. */
export const monthStartJst = (now: Date) => new Date(startOfMonth(new TZDate(now, TOKYO)).getTime());

export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
