// The self-limits' fixed rules (kinds, lengths, the cooling-off, maxima) and the Japan-time calendar they count in.

export const LIMIT_KINDS = ['purchase', 'draw'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];

/** Self-exclusion lengths a member may choose, in calendar months. */
export const EXCLUSION_MONTHS = [1, 3, 6] as const;
export type ExclusionMonths = (typeof EXCLUSION_MONTHS)[number];

/** A raise or a removal waits this long (the product rule: a cooling-off, not a setting). */
export const RAISE_WAIT_DAYS = 7;

/** The largest limit a member can type: above it a limit means nothing (the shop's own cap is lower). */
export const LIMIT_MAX: Readonly<Record<LimitKind, number>> = { purchase: 10_000_000, draw: 100_000_000 };

/** A reminder is shown once this share of a limit is used in the month. */
export const REMINDER_PERCENT = 80;

export const LIMITS_REFUSAL_CODES = ['NO_PENDING_LIMIT_CHANGE', 'SELF_EXCLUSION_ALREADY_LONGER'] as const;
export type LimitsRefusalCode = (typeof LIMITS_REFUSAL_CODES)[number];

/** What the payments module refuses for a self-limit (worded in refusal-words.ts). */
export const PURCHASE_SELF_LIMIT_CODES = ['SELF_EXCLUDED', 'PURCHASE_LIMIT_REACHED'] as const;

const JST_OFFSET_MS = 9 * 60 * 60 * 1000; // Japan has no daylight saving time.
export const DAY_MS = 24 * 60 * 60 * 1000;

/** The start of the calendar month in Japan time containing `now`. @example jstMonthStart(new Date('2026-11-30T15:00:00Z')) // 2026-11-30T15:00:00Z (12/1 0:00 JST) */
export function jstMonthStart(now: Date): Date {
  const local = new Date(now.getTime() + JST_OFFSET_MS);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - JST_OFFSET_MS);
}

/** The start of the next calendar month in Japan time. @example nextJstMonthStart(new Date('2026-12-15T00:00:00Z')) // 2026-12-31T15:00:00Z */
export function nextJstMonthStart(now: Date): Date {
  const local = new Date(now.getTime() + JST_OFFSET_MS);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 1) - JST_OFFSET_MS);
}

/** The Japan-time day of an instant, 'YYYY-MM-DD'. */
const jstDayOf = (instant: Date) => new Date(instant.getTime() + JST_OFFSET_MS).toISOString().slice(0, 10);

/**
 * When an exclusion chosen at `now` ends: 00:00 JST after the same day `months` later (the day clamped to
 * the month's end: 1/31 + 1 month lasts through 2/28), so the member reads a whole last day.
 * @example exclusionEndFor(new Date('2026-11-24T05:00:00Z'), 1) // 2026-12-24T15:00:00Z (through 12/24 JST)
 */
export function exclusionEndFor(now: Date, months: number): Date {
  const local = new Date(now.getTime() + JST_OFFSET_MS);
  const y = local.getUTCFullYear();
  const m = local.getUTCMonth() + months;
  const lastOfTarget = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(local.getUTCDate(), lastOfTarget);
  return new Date(Date.UTC(y, m, day + 1) - JST_OFFSET_MS);
}

/** The last day (JST, 'YYYY-MM-DD') an exclusion ending at `until` covers. */
export const exclusionLastDay = (until: Date) => jstDayOf(new Date(until.getTime() - 1));
