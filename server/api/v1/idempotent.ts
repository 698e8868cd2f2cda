// A member's write answered once per Idempotency-Key: the answer, a refusal included, is stored with the
// key, so the app's retry gets the same words and details; without a key the work simply runs. Used by
// the claims and conversions whose key is optional (login bonus, mail presents, prize conversions).
import type { Database } from '#db/client';
import { isRefusal, type Refusal } from '#modules/kernel';
import { withIdempotency } from '#modules/idempotency';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { ApiError } from './http';

/**
 * Runs `work` (in the key's transaction when a key is sent) and answers its value; a refusal, now or
 * replayed, is thrown as the ApiError of its status and Japanese words.
 * @example const claim = await answerOnce(services.db, { memberId, idempotencyKey, operation: 'claimLoginBonus', requestHash: requestHash({}) }, (db) => claimIt(db))
 */
export async function answerOnce<T extends object>(
  db: Database,
  request: { memberId: string; idempotencyKey: string | null; operation: string; requestHash: string },
  work: (db: Database) => Promise<T | Refusal<RefusalCode>>,
): Promise<T> {
  const run = async (tx: Database) => {
    const answer = await work(tx);
    if (!isRefusal(answer)) return { status: 200, body: answer as unknown };
    const { status, code, message, details } = describeRefusal(answer);
    return { status, body: { error: { code, message, details } } as unknown };
  };
  const result = request.idempotencyKey
    ? await withIdempotency(
        db,
        {
          memberId: request.memberId,
          key: `api:${request.idempotencyKey}`,
          operation: request.operation,
          requestHash: request.requestHash,
        },
        run,
      )
    : { ok: true as const, ...(await run(db)) };
  if (!result.ok) {
    const { status, code, message, details } = describeRefusal(result);
    throw new ApiError(status, code, message, details);
  }
  if (result.status !== 200) {
    const error = (result.body as { error: { code: string; message: string; details?: Record<string, unknown> } })
      .error;
    throw new ApiError(result.status as 400, error.code, error.message, error.details);
  }
  return result.body as T;
}
