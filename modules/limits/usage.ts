// How much of a limit is used this month, the 80 % reminder, and the purchase refusal a limit gives.
import { REMINDER_PERCENT, type PURCHASE_SELF_LIMIT_CODES, exclusionLastDay } from './rules';
import type { LimitsInForce } from './in-force';

/** How much of a limit is used this month, and whether the 80 % reminder is due. Null without a limit. */
export interface LimitUsage {
  limit: number;
  used: number;
  remaining: number;
  /** ≥ REMINDER_PERCENT of the limit used (or the limit is 0). */
  reminder: boolean;
}

/** @example usageOf(8000, 10000) // { limit: 10000, used: 8000, remaining: 2000, reminder: true } */
export function usageOf(used: number, limit: number | null): LimitUsage | null {
  if (limit === null) return null;
  return {
    limit,
    used,
    remaining: Math.max(0, limit - used),
    reminder: used * 100 >= limit * REMINDER_PERCENT,
  };
}

/**
 * The self-limit refusal of a purchase of `priceJpy` when `usedJpy` is already committed this month, or null.
 * The payments module calls it with its own count, inside its checkout transaction.
 * @example purchaseSelfLimitRefusal(limits, 9000, 2000) // { code: 'PURCHASE_LIMIT_REACHED', details: { limitJpy: 10000, … } }
 */
export function purchaseSelfLimitRefusal(
  limits: LimitsInForce,
  usedJpy: number,
  priceJpy: number,
): { code: (typeof PURCHASE_SELF_LIMIT_CODES)[number]; details: Record<string, unknown> } | null {
  if (limits.excludedUntil) {
    return {
      code: 'SELF_EXCLUDED',
      details: { excludedUntil: limits.excludedUntil.toISOString(), lastDay: exclusionLastDay(limits.excludedUntil) },
    };
  }
  if (limits.purchaseLimitJpy !== null && usedJpy + priceJpy > limits.purchaseLimitJpy) {
    return {
      code: 'PURCHASE_LIMIT_REACHED',
      details: {
        limitJpy: limits.purchaseLimitJpy,
        usedJpy,
        remainingJpy: Math.max(0, limits.purchaseLimitJpy - usedJpy),
      },
    };
  }
  return null;
}
