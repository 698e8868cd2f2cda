// Limits counted in the database (the `rate_limits` table better-auth keeps for sign-in attempts), so
// every server instance shares them. One statement per key: a burst cannot slip past between a read
// and a write, as it could with a separate check and update.
import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { Database } from '#db/client';
import { rateLimits } from './schema';

export interface RateLimitAnswer {
  allowed: boolean;
  /** Seconds until the window that refused this request ends (0 when allowed). */
  retryAfterSeconds: number;
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
  if (row!.count <= input.max) return { allowed: true, retryAfterSeconds: 0 };
  return {
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil((Number(row!.windowStartedAt) + input.windowSeconds * 1000 - now) / 1000)),
  };
}
