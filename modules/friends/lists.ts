// The member's friends and waiting requests, and one friendship as its member sees it.
import { and, desc, eq, inArray, or } from 'drizzle-orm';
import type { Database } from '#db/client';
import { publicNicknames } from '#modules/identity';
import { friendships } from './schema';
import { otherOf } from './pairs';

export interface FriendEntry {
  friendshipId: number;
  memberId: string;
  nickname: string;
  /** accepted: when they became friends; pending: when asked. */
  since: Date;
}

export interface FriendLists {
  friends: FriendEntry[];
  incoming: FriendEntry[];
  outgoing: FriendEntry[];
}

/**
 * The member's friends and the requests waiting either way, newest first (at most `limit` friends and
 * 100 requests each way).
 */
export async function friendListsOf(db: Database, memberId: string, options: { limit: number }): Promise<FriendLists> {
  const rows = await db
    .select()
    .from(friendships)
    .where(
      and(
        or(eq(friendships.memberLow, memberId), eq(friendships.memberHigh, memberId)),
        inArray(friendships.status, ['accepted', 'pending']),
      ),
    )
    .orderBy(desc(friendships.id))
    .limit(options.limit + 200);
  const names = await publicNicknames(
    db,
    rows.map((r) => otherOf(r, memberId)),
  );
  const entry = (r: (typeof rows)[number], since: Date | null): FriendEntry => ({
    friendshipId: r.id,
    memberId: otherOf(r, memberId),
    nickname: names.get(otherOf(r, memberId))!,
    since: since ?? r.requestedAt,
  });
  return {
    friends: rows
      .filter((r) => r.status === 'accepted')
      .slice(0, options.limit)
      .map((r) => entry(r, r.decidedAt)),
    incoming: rows
      .filter((r) => r.status === 'pending' && r.requestedBy !== memberId)
      .slice(0, 100)
      .map((r) => entry(r, r.requestedAt)),
    outgoing: rows
      .filter((r) => r.status === 'pending' && r.requestedBy === memberId)
      .slice(0, 100)
      .map((r) => entry(r, r.requestedAt)),
  };
}

/**
 * The other member of an accepted friendship the actor belongs to, or null (unknown id, not theirs,
 * not accepted). In the caller's transaction when given one.
 */
export async function friendOf(db: Database, memberId: string, friendshipId: number): Promise<string | null> {
  if (!Number.isSafeInteger(friendshipId) || friendshipId <= 0) return null;
  const [row] = await db
    .select()
    .from(friendships)
    .where(and(eq(friendships.id, friendshipId), eq(friendships.status, 'accepted')));
  if (!row || (row.memberLow !== memberId && row.memberHigh !== memberId)) return null;
  return otherOf(row, memberId);
}
