// Asking by code, and the decisions on a friendship: accept, decline, cancel, remove.
import { and, eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { refuse, type Outcome } from '#modules/kernel';
import { invitationCodeOf, inviterOfCode, normaliseInvitationCode } from '#modules/invitation';
import { publicNicknames } from '#modules/identity';
import { friendships } from './schema';
import {
  type FriendRules,
  type FriendRefusalCode,
  lockMembers,
  availableMember,
  pairOf,
  usedSlots,
  DAY_MS,
  otherOf,
} from './pairs';

/**
 * Whom a code belongs to, for the page's "send a request to ◯◯?" line; null for a malformed or unknown
 * code, or the viewer's own.
 */
export async function friendCodeOwner(
  db: Database,
  viewerId: string,
  code: string,
): Promise<{ memberId: string; nickname: string } | null> {
  if (!normaliseInvitationCode(code)) return null;
  const owner = await inviterOfCode(db, code);
  if (!owner || owner === viewerId) return null;
  const names = await publicNicknames(db, [owner]);
  return { memberId: owner, nickname: names.get(owner)! };
}

/** The member's own friend code (their personal 友達招待 code, made on first need). */
export const friendCodeOf = (db: Database, memberId: string) => invitationCodeOf(db, memberId);

export interface FriendRequestSent {
  ok: true;
  friendshipId: number;
  /** 'accepted' when the other member had already asked this one: the two requests meet. */
  status: 'pending' | 'accepted';
  nickname: string;
}

/**
 * Sends a friend request to the owner of `code`. If that member already asked this one, the request
 * accepts theirs. Refused: a malformed or unknown code, oneself, already friends, a request already
 * waiting, asking again too soon after a decline, either member at the limit, staff or banned members.
 * @example await requestFriend(db, me, 'K7Q2M9XA', rules) // { ok: true, status: 'pending', friendshipId: 12, … }
 */
export async function requestFriend(
  db: Database,
  memberId: string,
  code: string,
  rules: FriendRules,
  now = new Date(),
): Promise<Outcome<FriendRequestSent, FriendRefusalCode>> {
  if (!normaliseInvitationCode(code)) return refuse('FRIEND_CODE_INVALID');
  const other = await inviterOfCode(db, code);
  if (!other) return refuse('FRIEND_CODE_UNKNOWN');
  if (other === memberId) return refuse('FRIEND_SELF');
  return db.transaction(async (tx) => {
    await lockMembers(tx, [memberId, other]);
    if (!(await availableMember(tx, memberId, now))) return refuse('FRIEND_NOT_AVAILABLE');
    if (!(await availableMember(tx, other, now))) return refuse('FRIEND_CODE_UNKNOWN');
    const { low, high } = pairOf(memberId, other);
    const [row] = await tx
      .select()
      .from(friendships)
      .where(and(eq(friendships.memberLow, low), eq(friendships.memberHigh, high)));
    const nickname = (await publicNicknames(tx, [other])).get(other)!;
    if (row?.status === 'accepted') return refuse('FRIEND_ALREADY', { friendshipId: row.id });
    if (row?.status === 'pending' && row.requestedBy === memberId)
      return refuse('FRIEND_REQUEST_PENDING', { friendshipId: row.id });
    if (row?.status === 'pending') {
      // They asked first: this request is the answer to theirs.
      if ((await usedSlots(tx, memberId)) >= rules.limit) return refuse('FRIEND_LIMIT_REACHED', { limit: rules.limit });
      await tx
        .update(friendships)
        .set({ status: 'accepted', decidedAt: now, decidedBy: memberId })
        .where(eq(friendships.id, row.id));
      return { ok: true as const, friendshipId: row.id, status: 'accepted' as const, nickname };
    }
    if (
      row?.status === 'declined' &&
      row.requestedBy === memberId &&
      row.decidedAt &&
      now.getTime() - row.decidedAt.getTime() < rules.declinedCooldownDays * DAY_MS
    )
      return refuse('FRIEND_REQUEST_DECLINED_RECENTLY', {
        retryAt: new Date(row.decidedAt.getTime() + rules.declinedCooldownDays * DAY_MS).toISOString(),
      });
    if ((await usedSlots(tx, memberId)) >= rules.limit) return refuse('FRIEND_LIMIT_REACHED', { limit: rules.limit });
    if ((await usedSlots(tx, other)) >= rules.limit) return refuse('FRIEND_OTHER_LIMIT_REACHED');
    const values = {
      requestedBy: memberId,
      status: 'pending' as const,
      requestedAt: now,
      decidedAt: null,
      decidedBy: null,
    };
    const [saved] = row
      ? await tx.update(friendships).set(values).where(eq(friendships.id, row.id)).returning({ id: friendships.id })
      : await tx
          .insert(friendships)
          .values({ memberLow: low, memberHigh: high, ...values })
          .returning({ id: friendships.id });
    return { ok: true as const, friendshipId: saved!.id, status: 'pending' as const, nickname };
  });
}

export type FriendDecision = 'accept' | 'decline' | 'cancel' | 'remove';

/**
 * Answers or withdraws: `accept`/`decline` a request the member received, `cancel` one they sent,
 * `remove` a friend. Anything else — someone else's friendship, a request already answered — is
 * FRIEND_NOT_FOUND (the same answer whether it exists or not: no probing of other members' rows).
 * @example await decideFriendship(db, me, 12, 'accept', rules)
 */
export async function decideFriendship(
  db: Database,
  memberId: string,
  friendshipId: number,
  decision: FriendDecision,
  rules: FriendRules,
  now = new Date(),
): Promise<Outcome<{ ok: true; friendshipId: number; nickname: string }, FriendRefusalCode>> {
  if (!Number.isSafeInteger(friendshipId) || friendshipId <= 0) return refuse('FRIEND_NOT_FOUND');
  const [peek] = await db.select().from(friendships).where(eq(friendships.id, friendshipId));
  if (!peek || (peek.memberLow !== memberId && peek.memberHigh !== memberId)) return refuse('FRIEND_NOT_FOUND');
  const other = otherOf(peek, memberId);
  return db.transaction(async (tx) => {
    await lockMembers(tx, [memberId, other]);
    const [row] = await tx.select().from(friendships).where(eq(friendships.id, friendshipId));
    if (!row) return refuse('FRIEND_NOT_FOUND');
    const received = row.status === 'pending' && row.requestedBy !== memberId;
    const sent = row.status === 'pending' && row.requestedBy === memberId;
    const allowed =
      (decision === 'accept' && received) ||
      (decision === 'decline' && received) ||
      (decision === 'cancel' && sent) ||
      (decision === 'remove' && row.status === 'accepted');
    if (!allowed) return refuse('FRIEND_NOT_FOUND');
    if (decision === 'accept') {
      if (!(await availableMember(tx, memberId, now))) return refuse('FRIEND_NOT_AVAILABLE');
      if (!(await availableMember(tx, other, now))) return refuse('FRIEND_NOT_FOUND');
      if ((await usedSlots(tx, memberId)) >= rules.limit) return refuse('FRIEND_LIMIT_REACHED', { limit: rules.limit });
      // The requester's own pending request already holds a slot of theirs: no second check needed.
    }
    const status = decision === 'accept' ? 'accepted' : decision === 'decline' ? 'declined' : 'removed';
    await tx
      .update(friendships)
      .set({ status, decidedAt: now, decidedBy: decision === 'accept' ? null : memberId })
      .where(eq(friendships.id, friendshipId));
    const nickname = (await publicNicknames(tx, [other])).get(other)!;
    return { ok: true as const, friendshipId, nickname };
  });
}
