// The refusals and rules, and what every change stands on: one row per pair, both members' locks in id
// order, the slots the limit counts.
import { and, eq, or, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { isStaffRole, memberStandingOf } from '#modules/identity';
import { friendships } from './schema';

export const FRIEND_REFUSAL_CODES = [
  'FRIEND_CODE_INVALID',
  'FRIEND_CODE_UNKNOWN',
  'FRIEND_SELF',
  'FRIEND_ALREADY',
  'FRIEND_REQUEST_PENDING',
  'FRIEND_REQUEST_DECLINED_RECENTLY',
  'FRIEND_LIMIT_REACHED',
  'FRIEND_OTHER_LIMIT_REACHED',
  'FRIEND_NOT_FOUND',
  'FRIEND_NOT_AVAILABLE',
] as const;
export type FriendRefusalCode = (typeof FRIEND_REFUSAL_CODES)[number];

export interface FriendRules {
  /** Friends a member may have (accepted), counting the requests they sent that wait for an answer. */
  limit: number;
  /** After a decline, the same requester may ask the same member again only after this many days. */
  declinedCooldownDays: number;
}

export const DAY_MS = 24 * 60 * 60 * 1000;

export const pairOf = (a: string, b: string) => (a < b ? { low: a, high: b } : { low: b, high: a });
export const otherOf = (row: { memberLow: string; memberHigh: string }, me: string) =>
  row.memberLow === me ? row.memberHigh : row.memberLow;

/** Both members' locks, in id order (the same order everywhere: no deadlock between crossing requests). */
export async function lockMembers(tx: Database, ids: string[]) {
  for (const id of [...new Set(ids)].sort())
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('friends'), hashtext(${id}))`);
}

/** Accepted friends plus the requests the member sent that still wait: what the limit counts. */
export async function usedSlots(tx: Database, memberId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(friendships)
    .where(
      and(
        or(eq(friendships.memberLow, memberId), eq(friendships.memberHigh, memberId)),
        or(
          eq(friendships.status, 'accepted'),
          and(eq(friendships.status, 'pending'), eq(friendships.requestedBy, memberId)),
        ),
      ),
    );
  return row?.n ?? 0;
}

export async function availableMember(tx: Database, memberId: string, now: Date): Promise<boolean> {
  const standing = await memberStandingOf(tx, memberId, now);
  return !!standing && !standing.banned && !standing.deleted && !isStaffRole(standing.role);
}
