// The idempotency keys' refusal words; the draw answers the same code, so the entry is the kernel's.
import { COMMON_REFUSAL_WORDS, type RefusalWords } from '#modules/kernel';
import type { IdempotencyRefusalCode } from './run-once';

export const IDEMPOTENCY_REFUSAL_WORDS: RefusalWords<IdempotencyRefusalCode> = {
  IDEMPOTENCY_KEY_REUSED: COMMON_REFUSAL_WORDS.IDEMPOTENCY_KEY_REUSED,
};
