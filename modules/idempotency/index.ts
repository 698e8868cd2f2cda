// Idempotency-Key for operations that move coins or lots (docs/api.md): the first answer is stored with
// a hash of the request; a retry gets it back; the same key with another request is refused; a
// concurrent duplicate waits on the key's row and then gets the stored answer. It never runs twice.
// The door only re-exports (issue 30 item 1): the key, running once and forgetting old keys (run-once.ts),
// a member's erasure (erasure.ts).
export {
  idempotencyKeySchema,
  IDEMPOTENCY_RETENTION_HOURS,
  IDEMPOTENCY_REFUSAL_CODES,
  withIdempotency,
  forgetOldKeys,
  type IdempotencyRefusalCode,
  type IdempotentOutcome,
} from './run-once';
export { forgetMemberKeys } from './erasure';
export { IDEMPOTENCY_REFUSAL_WORDS } from './refusal-words';
