// Limits counted in the database (the `rate_limits` table better-auth keeps for sign-in attempts), so
// every server instance shares them. One statement per key: a burst cannot slip past between a read
// and a write, as it could with a separate check and update.
//
// Fixed windows: a key's window starts with its first request and lasts `windowSeconds`; every
// request inside it counts (refused ones too), and the first request after it starts a new window.
// The Redis store (rate-limiter.server.ts) keeps exactly the same rule.
import { eq, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { Database } from '#db/client';
import { rateLimits } from './schema';

export interface RateLimitAnswer {
  allowed: boolean;
  /** Seconds until the window that refused this request ends (0 when allowed). */
  retryAfterSeconds: number;
}

/** A key's count in its current window. */
export interface RateLimitCount {
  count: number;
  /** When the current window ends (ms since the epoch); `now` when the key has no live window. */
  windowEndsAt: number;
}

/**
 * Counts one request under `key` in a fixed window that starts with the key's first request; allowed
 * while the count is at most `max`. Keys are namespaced by the caller (`app-handoff:member:<id>`) so
 * they never meet better-auth's own (`<address><path>`).
 * @example const { allowed, retryAfterSeconds } = await takeRateLimit(db, { key: `app-handoff:member:${id}`, windowSeconds: 60, max: 10 })
 */
export async function takeRateLimit(
  db: Database,
  input: { key: string; windowSeconds: number; max: number; now?: Date },
): Promise<RateLimitAnswer> {
  const now = (input.now ?? new Date()).getTime();
  const counted = await countRateLimit(db, { key: input.key, windowSeconds: input.windowSeconds, now: input.now });
  return answerOf(counted, input.max, now);
}

/**
 * Adds one to `key` in its current fixed window (starting a new window when the last one ended), in
 * one statement, and answers the count and the window's end.
 * @example const { count } = await countRateLimit(db, { key: 'abuse:fail:address:192.0.2.1', windowSeconds: 900 })
 */
export async function countRateLimit(
  db: Database,
  input: { key: string; windowSeconds: number; now?: Date },
): Promise<RateLimitCount> {
  const now = (input.now ?? new Date()).getTime();
  const windowStart = now - input.windowSeconds * 1000;
  // For this shop's keys `last_request` holds the start of the current window.
  const expired = sql`${rateLimits.lastRequest} <= ${windowStart}`;
  const [row] = await db
    .insert(rateLimits)
    .values({ id: randomUUID(), key: input.key, count: 1, lastRequest: now })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
        lastRequest: sql`case when ${expired} then ${now}::bigint else ${rateLimits.lastRequest} end`,
      },
    })
    .returning({ count: rateLimits.count, windowStartedAt: rateLimits.lastRequest });
  return { count: row!.count, windowEndsAt: Number(row!.windowStartedAt) + input.windowSeconds * 1000 };
}

/**
 * The count of `key` in its live window without adding to it (0 when none is live).
 * @example const { count } = await peekRateLimit(db, { key, windowSeconds: 900 })
 */
export async function peekRateLimit(
  db: Database,
  input: { key: string; windowSeconds: number; now?: Date },
): Promise<RateLimitCount> {
  const now = (input.now ?? new Date()).getTime();
  const [row] = await db
    .select({ count: rateLimits.count, windowStartedAt: rateLimits.lastRequest })
    .from(rateLimits)
    .where(eq(rateLimits.key, input.key));
  const windowEndsAt = row ? Number(row.windowStartedAt) + input.windowSeconds * 1000 : now;
  if (!row || windowEndsAt <= now) return { count: 0, windowEndsAt: now };
  return { count: row.count, windowEndsAt };
}

/** Forgets `key` (its next request starts a new window). @example await resetRateLimit(db, key) */
export async function resetRateLimit(db: Database, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/** The answer for a count against `max`: refused requests learn when their window ends (at least 1 s). */
export function answerOf(counted: RateLimitCount, max: number, now: number): RateLimitAnswer {
  if (counted.count <= max) return { allowed: true, retryAfterSeconds: 0 };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((counted.windowEndsAt - now) / 1000)) };
}
