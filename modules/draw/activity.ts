// A member's drawing as the mailbox's segments read it (genre buyers, inactive members): when they first
// drew from each pack and when they last drew before an instant. Read through draws_member_idx.
import { and, eq, lt, max, min, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { draws } from './schema';

/**
 * The member's first completed draw on each pack they drew from.
 * @example const firsts = await firstDrawsByPack(db, memberId) // Map { 'stellar-pokemon-001' => Date }
 */
export async function firstDrawsByPack(db: Database, memberId: string): Promise<Map<string, Date>> {
  const rows = await db
    .select({ gachaId: draws.gachaId, first: min(draws.createdAt) })
    .from(draws)
    .where(and(eq(draws.memberId, memberId), eq(draws.status, 'completed')))
    .groupBy(draws.gachaId);
  return new Map(rows.flatMap((r) => (r.first ? [[r.gachaId, new Date(r.first)] as const] : [])));
}

/**
 * The member's last completed draw before `before`, or null.
 * @example await lastDrawBefore(db, memberId, sendAt)
 */
export async function lastDrawBefore(db: Database, memberId: string, before: Date): Promise<Date | null> {
  const [row] = await db
    .select({ last: max(draws.createdAt) })
    .from(draws)
    .where(
      and(eq(draws.memberId, memberId), eq(draws.status, 'completed'), lt(draws.createdAt, sql`${before.toISOString()}::timestamptz`)),
    );
  return row?.last ? new Date(row.last) : null;
}
