// A member's drawing as the mailbox's segments read it (genre buyers, inactive members): when they first
// drew from each pack and when they last drew before an instant (draws_member_idx); and the same rules
// over all members, for the count an operator confirms before a broadcast (decision 052).
import { and, eq, gt, lt, lte, max, min, sql } from 'drizzle-orm';
import { pgTextArray, type Database } from '#db/client';
import { draws, prizes } from './schema';

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
      and(
        eq(draws.memberId, memberId),
        eq(draws.status, 'completed'),
        lt(draws.createdAt, sql`${before.toISOString()}::timestamptz`),
      ),
    );
  return row?.last ? new Date(row.last) : null;
}

/** A member's undecided prizes whose choice ends on one Japan-time day (the deadline mails' unit). */
export interface PrizeDeadlineGroup {
  memberId: string;
  /** The Japan-time day of the deadline, YYYY-MM-DD. */
  day: string;
  prizes: number;
  /** The earliest deadline of the group. */
  decideBy: Date;
}

/**
 * Undecided prizes whose choice ends in (from, to], grouped by member and Japan-time day of the deadline,
 * read through prizes_due_idx.
 * @example await pendingPrizeDeadlines(db, now, new Date(now.getTime() + DAY)) // the 1-day reminders
 */
export async function pendingPrizeDeadlines(db: Database, from: Date, to: Date): Promise<PrizeDeadlineGroup[]> {
  const day = sql<string>`to_char(${prizes.decideBy} at time zone 'Asia/Tokyo', 'YYYY-MM-DD')`;
  const rows = await db
    .select({ memberId: prizes.memberId, day, prizes: sql<number>`count(*)::int`, decideBy: min(prizes.decideBy) })
    .from(prizes)
    .where(
      and(
        eq(prizes.status, 'pending'),
        gt(prizes.decideBy, sql`${from.toISOString()}::timestamptz`),
        lte(prizes.decideBy, sql`${to.toISOString()}::timestamptz`),
      ),
    )
    .groupBy(prizes.memberId, day)
    .orderBy(prizes.memberId, day);
  return rows.map((r) => ({
    memberId: r.memberId,
    day: r.day,
    prizes: Number(r.prizes),
    decideBy: new Date(r.decideBy!),
  }));
}

/**
 * The members with a completed draw on any of the packs before `before` (a genre's buyers as the mailbox's
 * segment judges them at that instant), each once.
 * @example await membersWhoDrewFrom(db, ['stellar-pokemon-001'], new Date()) // ['u1', 'u7']
 */
export async function membersWhoDrewFrom(db: Database, gachaIds: readonly string[], before: Date): Promise<string[]> {
  if (gachaIds.length === 0) return [];
  const rows = await db
    .selectDistinct({ memberId: draws.memberId })
    .from(draws)
    .where(
      and(
        sql`${draws.gachaId} = any(${pgTextArray(gachaIds)}::text[])`,
        eq(draws.status, 'completed'),
        lt(draws.createdAt, sql`${before.toISOString()}::timestamptz`),
      ),
    );
  return rows.map((r) => r.memberId);
}

/**
 * The members with a completed draw after `after` and before `before`, each once: the active side of the
 * mailbox's inactive segment (lastDrawBefore, per member, is the same rule).
 * @example await membersWhoDrewBetween(db, thirtyDaysAgo, new Date())
 */
export async function membersWhoDrewBetween(db: Database, after: Date, before: Date): Promise<string[]> {
  const rows = await db
    .selectDistinct({ memberId: draws.memberId })
    .from(draws)
    .where(
      and(
        eq(draws.status, 'completed'),
        gt(draws.createdAt, sql`${after.toISOString()}::timestamptz`),
        lt(draws.createdAt, sql`${before.toISOString()}::timestamptz`),
      ),
    );
  return rows.map((r) => r.memberId);
}
