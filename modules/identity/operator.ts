// What the operators' command line needs from identity: find a member by id or email, make members
// with a session (benchmarks, tests), and make a member staff or not.
import { randomUUID } from 'node:crypto';
import { eq, or } from 'drizzle-orm';
import type { Database } from '#db/client';
import { sessions, users } from './schema';

export type MemberRole = 'user' | 'admin';

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
 * Staff (`admin`: cannot draw) or an ordinary member; open sessions carry the new role from their next request.
 * @example await setMemberRole(db, memberId, 'admin')
 */
export async function setMemberRole(db: Database, memberId: string, role: MemberRole): Promise<void> {
  await db.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, memberId));
}
