// What the operators' member console reads and changes of identity's tables: finding members (by id,
// email, phone number, the member number shown on マイページ or the start of a nickname), a member's profile and sessions, and the ban and
// session revocation that the admin module's audited actions call inside their transaction
// (docs/decisions/026). better-auth's own admin endpoints stay closed (they are not audited).
import { and, asc, count, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { sessions, users } from './schema';
import { readPhoneNumber, type PhoneNumberPolicy } from './phone-numbers';
import { memberIdByCode, readMemberCode } from './member-code';

/** What an operator typed into the member search, read once: which exact key, or a nickname's start. */
export type MemberQuery =
  | { by: 'all' }
  | { by: 'email'; email: string }
  | { by: 'phone'; phone: string }
  /** The member number (会員ID, XXXXX-XXXXX) a member reads from マイページ; also tried as a nickname's start. */
  | { by: 'code'; code: string; text: string }
  /** An id typed as is, or the start of a nickname (both are tried: ids have no recognisable shape). */
  | { by: 'text'; text: string };

/** The longest search text read (ids are 32 characters, nicknames 20, emails 254). */
export const MEMBER_QUERY_MAX_LENGTH = 254;

/**
 * Reads the search box: an address with @ is an email (exact, lower case), digits that read as a phone
 * number of the policy's countries (090-1234-5678, ０９０…, +81…) are E.164, ten characters of the member
 * number's alphabet (K7Q4M-9XZTR, k7q4m9xztr) are a member number, anything else is an id or the start of
 * a nickname. Empty lists the newest members.
 * @example memberQueryOf('090-1234-5678', { countries: ['JP'] }) // { by: 'phone', phone: '+819012345678' }
 */
export function memberQueryOf(input: string, policy: PhoneNumberPolicy): MemberQuery {
  const text = input.normalize('NFKC').trim().slice(0, MEMBER_QUERY_MAX_LENGTH);
  if (!text) return { by: 'all' };
  if (text.includes('@')) return { by: 'email', email: text.toLowerCase() };
  if (/^\+?[\d\-() ]{10,}$/.test(text)) {
    const read = readPhoneNumber(text, policy);
    if (read.ok) return { by: 'phone', phone: read.e164 };
  }
  const code = readMemberCode(text);
  if (code) return { by: 'code', code, text };
  return { by: 'text', text };
}

/** One member in the search results. */
export interface MemberListing {
  id: string;
  name: string;
  email: string;
  role: string;
  banned: boolean;
  banExpires: string | null;
  deleted: boolean;
  createdAt: string;
}

const listingColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  role: users.role,
  banned: users.banned,
  banExpires: users.banExpires,
  deletedAt: users.deletedAt,
  createdAt: users.createdAt,
};

type ListingRow = {
  id: string;
  name: string;
  email: string;
  role: string | null;
  banned: boolean | null;
  banExpires: Date | null;
  deletedAt: Date | null;
  createdAt: Date;
};

/** Whether a ban is in force now (better-auth lifts an expired one at the next sign-in). */
const banInForce = (banned: boolean | null, banExpires: Date | null, now: Date) =>
  Boolean(banned) && (!banExpires || new Date(banExpires).getTime() > now.getTime());

const toListing = (row: ListingRow, now: Date): MemberListing => ({
  id: row.id,
  name: row.name,
  email: row.email,
  role: row.role ?? 'user',
  banned: banInForce(row.banned, row.banExpires, now) && row.deletedAt === null,
  banExpires: row.banExpires ? new Date(row.banExpires).toISOString() : null,
  deleted: row.deletedAt !== null,
  createdAt: new Date(row.createdAt).toISOString(),
});

/** LIKE's own characters taken literally. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One page of the members a query finds. Exact keys (id, email, phone) read one row through their
 * unique indexes, a member number one row through users_member_code_idx; a nickname's start reads `lower(name)` through users_name_prefix_idx
 * (text_pattern_ops), in name order; no query lists the newest members through users_created_at_idx.
 * `hasMore` says another page exists (one row more is read, never a count of the table).
 * @example await searchMembers(db, memberQueryOf('たろう', policy), { limit: 50, offset: 0 })
 */
export async function searchMembers(
  db: Database,
  query: MemberQuery,
  page: { limit: number; offset: number },
  now = new Date(),
): Promise<{ items: MemberListing[]; hasMore: boolean }> {
  const limit = Math.min(Math.max(page.limit, 1), 200);
  const offset = Math.max(page.offset, 0);
  let rows: ListingRow[];
  switch (query.by) {
    case 'email':
      rows = await db.select(listingColumns).from(users).where(eq(users.email, query.email)).limit(1);
      break;
    case 'phone':
      rows = await db.select(listingColumns).from(users).where(eq(users.phoneNumber, query.phone)).limit(1);
      break;
    case 'all':
      rows = await db
        .select(listingColumns)
        .from(users)
        .orderBy(desc(users.createdAt), desc(users.id))
        .limit(limit + 1)
        .offset(offset);
      break;
    case 'code':
    case 'text': {
      const exactId = offset > 0 ? null : query.by === 'code' ? await memberIdByCode(db, query.code) : query.text;
      const [byId] = exactId ? await db.select(listingColumns).from(users).where(eq(users.id, exactId)) : [];
      const prefix = `${likeLiteral(query.text.toLowerCase())}%`;
      const byName = await db
        .select(listingColumns)
        .from(users)
        .where(sql`lower(${users.name}) like ${prefix}`)
        // In the index's own order (code points), so a common prefix stops at the page's end.
        .orderBy(sql`lower(${users.name}) using ~<~`, asc(users.id))
        .limit(limit + 1)
        .offset(offset);
      rows = byId ? [byId, ...byName.filter((r) => r.id !== byId.id)] : byName;
      break;
    }
  }
  return { items: rows.slice(0, limit).map((r) => toListing(r, now)), hasMore: rows.length > limit };
}

/**
 * Several members by id (the approvals page names each request's member), by id; unknown ids are absent.
 * @example (await memberListingsOf(db, ids)).get(id)?.email
 */
export async function memberListingsOf(
  db: Database,
  memberIds: string[],
  now = new Date(),
): Promise<Map<string, MemberListing>> {
  const ids = [...new Set(memberIds)];
  if (ids.length === 0) return new Map();
  const rows = await db.select(listingColumns).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, toListing(r, now)]));
}

/** A member's profile as the console shows it. */
export interface MemberProfile extends MemberListing {
  emailVerified: boolean;
  phoneNumber: string | null;
  phoneNumberVerified: boolean;
  birthday: string | null;
  twoFactorEnabled: boolean;
  banReason: string | null;
  updatedAt: string;
}

/** @example const profile = await memberProfileOf(db, memberId) // null when there is no such member */
export async function memberProfileOf(db: Database, memberId: string, now = new Date()): Promise<MemberProfile | null> {
  const [row] = await db.select().from(users).where(eq(users.id, memberId)).limit(1);
  if (!row) return null;
  return {
    ...toListing(row, now),
    emailVerified: row.emailVerified,
    phoneNumber: row.phoneNumber,
    phoneNumberVerified: row.phoneNumberVerified,
    birthday: row.birthday,
    twoFactorEnabled: Boolean(row.twoFactorEnabled),
    banReason: row.banReason,
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/** One signed-in session of a member (never its token). */
export interface MemberSession {
  id: string;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: string;
  expiresAt: string;
}

/**
 * The member's live sessions, newest first, at most `limit`, and how many there are.
 * @example const { items, total } = await listMemberSessions(db, memberId, 20)
 */
export async function listMemberSessions(
  db: Database,
  memberId: string,
  limit: number,
  now = new Date(),
): Promise<{ items: MemberSession[]; total: number }> {
  const live = and(eq(sessions.userId, memberId), gt(sessions.expiresAt, now));
  const rows = await db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      ipAddress: sessions.ipAddress,
      createdAt: sessions.createdAt,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .where(live)
    .orderBy(desc(sessions.createdAt))
    .limit(limit);
  const [total] = await db.select({ n: count() }).from(sessions).where(live);
  return {
    items: rows.map((r) => ({
      ...r,
      createdAt: new Date(r.createdAt).toISOString(),
      expiresAt: new Date(r.expiresAt).toISOString(),
    })),
    total: Number(total?.n ?? 0),
  };
}

/**
 * Signs the member out everywhere (deletes every session), in the caller's transaction. Answers how
 * many sessions there were.
 * @example await revokeMemberSessions(tx, memberId) // 2
 */
export async function revokeMemberSessions(tx: Database, memberId: string): Promise<number> {
  const deleted = await tx.delete(sessions).where(eq(sessions.userId, memberId)).returning({ id: sessions.id });
  return deleted.length;
}

/** The ban columns as they were (the audit entry's before). */
export interface MemberBan {
  banned: boolean;
  banReason: string | null;
  banExpires: string | null;
}

const banOf = (row: { banned: boolean | null; banReason: string | null; banExpires: Date | null }): MemberBan => ({
  banned: Boolean(row.banned),
  banReason: row.banReason,
  banExpires: row.banExpires ? new Date(row.banExpires).toISOString() : null,
});

/**
 * Bans a member (better-auth's columns: its session hook then refuses every sign-in with BANNED_USER,
 * and the shop's session reads treat the member as signed out) and deletes their sessions, in the
 * caller's transaction, under the member row's lock. Answers the ban before and the sessions revoked;
 * null when there is no such member.
 * @example await banMember(tx, memberId, { reason: '不正利用の疑い', expiresAt: null })
 */
export async function banMember(
  tx: Database,
  memberId: string,
  ban: { reason: string; expiresAt: Date | null },
): Promise<{ before: MemberBan; sessionsRevoked: number } | null> {
  const [row] = await tx
    .select({ banned: users.banned, banReason: users.banReason, banExpires: users.banExpires })
    .from(users)
    .where(eq(users.id, memberId))
    .for('update');
  if (!row) return null;
  await tx
    .update(users)
    .set({ banned: true, banReason: ban.reason, banExpires: ban.expiresAt, updatedAt: new Date() })
    .where(eq(users.id, memberId));
  return { before: banOf(row), sessionsRevoked: await revokeMemberSessions(tx, memberId) };
}

/**
 * Lifts a ban, in the caller's transaction. Answers the ban before (banned false: nothing changed);
 * null when there is no such member.
 * @example await unbanMember(tx, memberId)
 */
export async function unbanMember(tx: Database, memberId: string): Promise<{ before: MemberBan } | null> {
  const [row] = await tx
    .select({ banned: users.banned, banReason: users.banReason, banExpires: users.banExpires })
    .from(users)
    .where(eq(users.id, memberId))
    .for('update');
  if (!row) return null;
  if (row.banned)
    await tx
      .update(users)
      .set({ banned: false, banReason: null, banExpires: null, updatedAt: new Date() })
      .where(eq(users.id, memberId));
  return { before: banOf(row) };
}
