// Self-limits' refusal words (docs/decisions/035): status and Japanese message of each code.
import { type RefusalEntry, type RefusalWords } from '#modules/kernel';
import { exclusionLastDay, type LimitsRefusalCode } from './rules';

/** A JST day 'YYYY-MM-DD' as 2026年12月24日. */
const jstDayText = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return `${y}年${m}月${d}日`;
};
/** The last day of a self-exclusion from its details' end (ISO), in the member's words. */
const exclusionDayText = (d: Record<string, unknown>) => {
  const until = new Date(String(d.excludedUntil ?? ''));
  return Number.isNaN(until.getTime()) ? '' : `（${jstDayText(exclusionLastDay(until))}まで）`;
};

// Self-limits (docs/decisions/035): the purchase and the draw say the same words for an exclusion.
const SELF_EXCLUDED: RefusalEntry = {
  status: 403,
  message: (d) =>
    `自己除外期間中${exclusionDayText(d)}は購入・ガチャができません。期間中の解除・短縮はできません。獲得商品の発送・交換はご利用いただけます。`,
};

/** The exclusion as the draw and the purchase answer it (both list SELF_EXCLUDED among their codes). */
export const SELF_EXCLUSION_REFUSAL_WORDS: RefusalWords<'SELF_EXCLUDED'> = { SELF_EXCLUDED };

export const LIMITS_REFUSAL_WORDS: RefusalWords<LimitsRefusalCode> = {
  NO_PENDING_LIMIT_CHANGE: { status: 409, message: '取り消せる上限の変更予約はありません。' },
  SELF_EXCLUSION_ALREADY_LONGER: {
    status: 409,
    message: (d) => `すでに自己除外期間中${exclusionDayText(d)}です。期間の短縮・解除はできません。`,
  },
};
