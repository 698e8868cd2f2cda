// What the operators' command line needs from identity: find a member by id or email, make members
// with a session (benchmarks, tests), and make a member staff or not.
import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { pgTextArray, type Database } from '#db/client';
import { sessions, users } from './schema';

/** 'user': a member; 'admin': an operator with every permission; 'staff': an operator with the permissions granted to them (modules/admin). */
export type MemberRole = 'user' | 'admin' | 'staff';

/** Roles that open staff pages (`users.role`; better-auth's admin plugin names 'admin'). Both cannot draw. */
export const STAFF_ROLES: readonly MemberRole[] = ['admin', 'staff'];

/** @example isStaffRole(member.role) // true for 'admin' and 'staff' */
export const isStaffRole = (role: string | null | undefined): boolean =>
  STAFF_ROLES.includes((role ?? 'user') as MemberRole);

/** @example const member = await findMemberByIdOrEmail(db, 'a@example.com') // { id, role } or null */
export async function findMemberByIdOrEmail(
  db: Database,
  idOrEmail: string,
): Promise<{ id: string; role: string } | null> {
  const [row] = await db
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(or(eq(users.id, idOrEmail), eq(users.email, idOrEmail.toLowerCase())));
  return row ?? null;
}

/**
 * A member with a signed-in session, without a password (for benchmarks and tests that sign in by the token).
 * @example await createMemberWithSession(db, { id, name: 'member1', email, sessionToken, sessionExpiresAt })
 */
export async function createMemberWithSession(
  db: Database,
  input: { id: string; name: string; email: string; sessionToken: string; sessionExpiresAt: Date },
): Promise<void> {
  await db.insert(users).values({ id: input.id, name: input.name, email: input.email, role: 'user' });
  await db
    .insert(sessions)
    .values({ id: randomUUID(), token: input.sessionToken, userId: input.id, expiresAt: input.sessionExpiresAt });
}

/**
 * Staff (`admin` or `staff`: cannot draw) or an ordinary member; open sessions carry the new role from their next request.
 * @example await setMemberRole(db, memberId, 'admin')
 */
export async function setMemberRole(db: Database, memberId: string, role: MemberRole): Promise<void> {
  await db.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, memberId));
}

/** A member as the admin area sees them: who they are, their role, whether they can open staff pages. */
export interface StaffAccount {
  id: string;
  email: string;
  name: string;
  role: string;
  twoFactorEnabled: boolean;
  emailVerified: boolean;
  deleted: boolean;
}

const staffAccountColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  role: users.role,
  twoFactorEnabled: users.twoFactorEnabled,
  emailVerified: users.emailVerified,
  deletedAt: users.deletedAt,
};

function toStaffAccount(row: {
  id: string;
  email: string;
  name: string;
  role: string | null;
  twoFactorEnabled: boolean | null;
  emailVerified: boolean;
  deletedAt: Date | null;
}): StaffAccount {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role ?? 'user',
    twoFactorEnabled: Boolean(row.twoFactorEnabled),
    emailVerified: row.emailVerified,
    deleted: row.deletedAt !== null,
  };
}

/** @example const account = await staffAccountOf(db, memberId) // null when there is no such member */
export async function staffAccountOf(db: Database, memberId: string): Promise<StaffAccount | null> {
  const [row] = await db.select(staffAccountColumns).from(users).where(eq(users.id, memberId)).limit(1);
  return row ? toStaffAccount(row) : null;
}

/** Every member holding a staff role, by email. @example (await listStaffAccounts(db)).length */
export async function listStaffAccounts(db: Database): Promise<StaffAccount[]> {
  const rows = await db
    .select(staffAccountColumns)
    .from(users)
    .where(inArray(users.role, [...STAFF_ROLES]))
    .orderBy(asc(users.email));
  return rows.map(toStaffAccount);
}

export type StaffAccess = 'ok' | 'needs-second-factor' | 'not-staff';

/**
 * Whether a member may open a staff page: staff and admin accounts only, and only with TOTP on.
 * Every staff surface (the admin area, `auth: 'staff'` API operations) must ask this, not the role alone.
 * @example staffAccessOf({ role: 'admin', twoFactorEnabled: false }) === 'needs-second-factor'
 */
export function staffAccessOf(
  member: { role?: string | null; twoFactorEnabled?: boolean | null; deletedAt?: Date | string | null } | null,
): StaffAccess {
  if (!member || member.deletedAt || !isStaffRole(member.role)) return 'not-staff';
  return member.twoFactorEnabled ? 'ok' : 'needs-second-factor';
}

/** Whether a member may receive member rewards now: role, an active ban, 退会. */
export interface MemberStanding {
  role: string;
  /** Banned now (a ban without an end, or one that has not ended yet). */
  banned: boolean;
  deleted: boolean;
  /** When the member signed up (a broadcast reaches those who were members when it was sent). */
  joinedAt: Date;
}

/**
 * A member's standing at `now`, or null when there is no such member (read in the caller's transaction).
 * @example const standing = await memberStandingOf(tx, memberId) // { role: 'user', banned: false, deleted: false }
 */
export async function memberStandingOf(
  db: Database,
  memberId: string,
  now = new Date(),
): Promise<MemberStanding | null> {
  const [row] = await db
    .select({
      role: users.role,
      banned: users.banned,
      banExpires: users.banExpires,
      deletedAt: users.deletedAt,
      joinedAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.id, memberId));
  if (!row) return null;
  return {
    role: row.role ?? 'user',
    banned: Boolean(row.banned) && (row.banExpires === null || row.banExpires > now),
    deleted: row.deletedAt !== null,
    joinedAt: row.joinedAt,
  };
}

/**
 * Members who had joined before `at` and have not deleted their account: everyone a broadcast sent at
 * `at` can reach (decision 034), and the most any of its segments can reach (decision 052).
 * @example const recipients = await countMembersJoinedBefore(db, new Date()) // 1234
 */
export async function countMembersJoinedBefore(db: Database, at: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(lt(users.createdAt, at), isNull(users.deletedAt)));
  return Number(row?.n ?? 0);
}

/**
 * How many of the listed members had joined before `at` and have not deleted their account: a segment's
 * members (found by another module's rule) as a broadcast sent at `at` would reach them (decision 052).
 * @example await countMembersAmong(db, ['u1', 'u7'], new Date()) // 2
 */
export async function countMembersAmong(db: Database, memberIds: readonly string[], at: Date): Promise<number> {
  if (memberIds.length === 0) return 0;
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(
      and(sql`${users.id} = any(${pgTextArray(memberIds)}::text[])`, lt(users.createdAt, at), isNull(users.deletedAt)),
    );
  return Number(row?.n ?? 0);
}
