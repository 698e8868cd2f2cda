// Self-limits (responsible play, docs/decisions/035): a member's own monthly purchase limit (JPY) and
// draw-spend limit (coins), and self-exclusion for 1, 3 or 6 months. Lowering takes effect at once,
// raising (or removing) 7 days later; an exclusion cannot be shortened or lifted by the member. This module
// owns the settings only: payments and draw count what was used and honour the limits in their own
// transactions (payments through limitsInForce, the draw through the SQL function limits_draw_terms).
// The door only re-exports (issue 30 item 1): the rules and the Japan-time calendar (rules.ts), the
// member's input (inputs.ts), the limits in force (in-force.ts), changing them (changes.ts), usage and
// the reminder (usage.ts).
export {
  LIMIT_KINDS,
  EXCLUSION_MONTHS,
  RAISE_WAIT_DAYS,
  LIMIT_MAX,
  REMINDER_PERCENT,
  LIMITS_REFUSAL_CODES,
  PURCHASE_SELF_LIMIT_CODES,
  jstMonthStart,
  nextJstMonthStart,
  exclusionEndFor,
  exclusionLastDay,
  type LimitKind,
  type ExclusionMonths,
  type LimitsRefusalCode,
} from './rules';
export { limitChangeSchema, limitKindSchema, selfExclusionSchema, type LimitChange } from './inputs';
export { limitsInForce, memberLimitsOf, type LimitsInForce, type LimitSetting, type MemberLimits } from './in-force';
export { changeLimits, cancelPendingLimit, excludeSelf, type LimitChangeResult } from './changes';
export { usageOf, purchaseSelfLimitRefusal, type LimitUsage } from './usage';
export { SELF_EXCLUSION_REFUSAL_WORDS, LIMITS_REFUSAL_WORDS } from './refusal-words';
