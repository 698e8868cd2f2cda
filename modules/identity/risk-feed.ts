// What the fraud signals (modules/risk) read from identity: sessions started since a point, in order,
// so the risk job can follow them with a watermark. Never the session token.
import { and, asc, gt, lt, max, or, eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { sessions } from './schema';

/** One session as the risk job sees it: who, from which address and browser, and when it started. */
export interface SessionSighting {
  id: string;
  memberId: string;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: Date;
}

/**
 * Sessions created after the cursor (created_at, id), oldest first, at most `limit`.
 * @example const batch = await sessionsStartedSince(db, { at: watermark, id: '' }, 500)
 */
export async function sessionsStartedSince(
  db: Database,
  cursor: { at: Date; id: string },
  limit: number,
): Promise<SessionSighting[]> {
  return db
    .select({
      id: sessions.id,
      memberId: sessions.userId,
      ipAddress: sessions.ipAddress,
      userAgent: sessions.userAgent,
      createdAt: sessions.createdAt,
    })
    .from(sessions)
    .where(or(gt(sessions.createdAt, cursor.at), and(eq(sessions.createdAt, cursor.at), gt(sessions.id, cursor.id))))
    .orderBy(asc(sessions.createdAt), asc(sessions.id))
    .limit(limit);
}

/**
 * When the member last signed in (a session started) before `before`, or null. Sessions removed at sign-out
 * or expiry are forgotten, so this is "at least this recent" (the mailbox's inactive segment).
 * @example await lastSignInBefore(db, memberId, sendAt)
 */
export async function lastSignInBefore(db: Database, memberId: string, before: Date): Promise<Date | null> {
  const [row] = await db
    .select({ last: max(sessions.createdAt) })
    .from(sessions)
    .where(and(eq(sessions.userId, memberId), lt(sessions.createdAt, before)));
  return row?.last ? new Date(row.last) : null;
}

/**
 * The members who signed in (a session started) after `after` and before `before`, each once: the active
 * side of the mailbox's inactive segment over all members (lastSignInBefore is the same rule per member).
 * @example await membersSignedInBetween(db, thirtyDaysAgo, new Date())
 */
export async function membersSignedInBetween(db: Database, after: Date, before: Date): Promise<string[]> {
  const rows = await db
    .selectDistinct({ memberId: sessions.userId })
    .from(sessions)
    .where(and(gt(sessions.createdAt, after), lt(sessions.createdAt, before)));
  return rows.map((r) => r.memberId);
}
