// A member's self-limits and this month's use of them (docs/decisions/035), for the pages and the API alike:
// the limits module keeps the settings, payments and draw count what was used.
import type { Database } from '#db/client';
import { memberLimitsOf, usageOf, type LimitUsage, type MemberLimits } from '#modules/limits';
import { monthlyPurchasedJpy } from '#modules/payments';
import { monthlyDrawSpend } from '#modules/draw';

/** This month's use of the member's own limits and any exclusion, as the pages show them. */
export interface SelfLimitSummary {
  purchase: LimitUsage | null;
  draw: LimitUsage | null;
  /** The last day (JST, 'YYYY-MM-DD') of a self-exclusion in force. */
  excludedLastDay: string | null;
}

export interface LimitsView {
  purchase: { limit: number | null; pending: { value: number | null; effectiveAt: string } | null };
  draw: { limit: number | null; pending: { value: number | null; effectiveAt: string } | null };
  exclusion: { until: string; lastDay: string } | null;
}

/** The module's view with instants as ISO text (the page's data and the API's body alike). */
export function limitsViewOf(limits: MemberLimits): LimitsView {
  const setting = (s: MemberLimits['purchase']) => ({
    limit: s.limit,
    pending: s.pending ? { value: s.pending.value, effectiveAt: s.pending.effectiveAt.toISOString() } : null,
  });
  return {
    purchase: setting(limits.purchase),
    draw: setting(limits.draw),
    exclusion: limits.exclusion
      ? { until: limits.exclusion.until.toISOString(), lastDay: limits.exclusion.lastDay }
      : null,
  };
}

/**
 * The member's limits and this month's use of them: one primary-key read, and one indexed read per limit set.
 * @example const { summary } = await selfLimitStateOf(db, memberId) // summary.draw?.reminder === true at 80 %
 */
export async function selfLimitStateOf(db: Database, memberId: string, now = new Date()) {
  const limits = await memberLimitsOf(db, memberId, now);
  const purchasedJpy = limits.purchase.limit === null ? 0 : await monthlyPurchasedJpy(db, memberId, now);
  const drawnCoins = limits.draw.limit === null ? 0 : await monthlyDrawSpend(db, memberId, now);
  const summary: SelfLimitSummary = {
    purchase: usageOf(purchasedJpy, limits.purchase.limit),
    draw: usageOf(drawnCoins, limits.draw.limit),
    excludedLastDay: limits.exclusion?.lastDay ?? null,
  };
  return { limits, summary };
}
