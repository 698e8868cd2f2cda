// Members created by the shop itself rather than by signing up (the demo data's drawing member).
import type { Database } from '#db/client';
import { users } from './schema';

/**
 * Creates a plain member with no way to sign in, unless the id exists already.
 * @example await addSystemMember(db, { id: 'demo-bot', name: 'デモ会員', email: 'demo-member@example.invalid' })
 */
export async function addSystemMember(
  db: Database,
  member: { id: string; name: string; email: string },
): Promise<void> {
  await db
    .insert(users)
    .values({ ...member, role: 'user' })
    .onConflictDoNothing();
}
