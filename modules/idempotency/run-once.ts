// The Idempotency-Key: its shape, running an operation once per (member, key), and forgetting old keys.
import { and, eq, lt } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { refuse, type Refusal } from '#modules/kernel';
import { idempotentRequests } from './schema';

/**
 * An Idempotency-Key as the API's header and the pages' hidden field carry it: 1–255 printable
 * ASCII characters (space to tilde), not only spaces.
 */
export const idempotencyKeySchema = z
  .string()
  .regex(/^[\x20-\x7e]{1,255}$/)
  .refine((key) => key.trim() !== '');

/** Keys are kept at least this long (docs/api.md: 24 hours). */
export const IDEMPOTENCY_RETENTION_HOURS = 48;

/** The one refusal: the key was used before with another operation or request. */
export const IDEMPOTENCY_REFUSAL_CODES = ['IDEMPOTENCY_KEY_REUSED'] as const;
export type IdempotencyRefusalCode = (typeof IDEMPOTENCY_REFUSAL_CODES)[number];

export type IdempotentOutcome<T> =
  | { ok: true; kind: 'fresh'; status: number; body: T }
  | { ok: true; kind: 'replay'; status: number; body: T }
  | Refusal<IdempotencyRefusalCode>;

/**
 * Runs `operation` once per (member, key). The operation gets the transaction that holds the key,
 * so its effects and the stored answer commit together.
 * @example const out = await withIdempotency(db, { memberId, key, operation: 'convertPrizes', requestHash }, async (tx) => ({ status: 200, body }))
 */
export async function withIdempotency<T>(
  db: Database,
  request: { memberId: string; key: string; operation: string; requestHash: string },
  operation: (tx: Database) => Promise<{ status: number; body: T }>,
): Promise<IdempotentOutcome<T>> {
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(idempotentRequests)
      .values({
        memberId: request.memberId,
        key: request.key,
        operation: request.operation,
        requestHash: request.requestHash,
        status: 0,
        body: {},
      })
      .onConflictDoNothing()
      .returning({ key: idempotentRequests.key });
    if (claimed.length === 0) {
      const [stored] = await tx
        .select()
        .from(idempotentRequests)
        .where(and(eq(idempotentRequests.memberId, request.memberId), eq(idempotentRequests.key, request.key)));
      if (!stored || stored.operation !== request.operation || stored.requestHash !== request.requestHash)
        return refuse('IDEMPOTENCY_KEY_REUSED');
      return { ok: true as const, kind: 'replay' as const, status: stored.status, body: stored.body as T };
    }
    const result = await operation(tx);
    await tx
      .update(idempotentRequests)
      .set({ status: result.status, body: result.body as object })
      .where(and(eq(idempotentRequests.memberId, request.memberId), eq(idempotentRequests.key, request.key)));
    return { ok: true as const, kind: 'fresh' as const, ...result };
  });
}

/** The cleanup job: forgets keys older than the retention. */
export async function forgetOldKeys(db: Database, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_RETENTION_HOURS * 3_600_000);
  const deleted = await db
    .delete(idempotentRequests)
    .where(lt(idempotentRequests.createdAt, cutoff))
    .returning({ key: idempotentRequests.key });
  return deleted.length;
}
