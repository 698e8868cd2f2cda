// The member's mail preferences: whether a system mail also comes as an email (off unless chosen).
import { eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { mailPreferences } from './schema';

/** @example if (await mailEmailOptIn(db, memberId)) queueTheEmail() */
export async function mailEmailOptIn(db: Database, memberId: string): Promise<boolean> {
  const [row] = await db
    .select({ on: mailPreferences.emailOptIn })
    .from(mailPreferences)
    .where(eq(mailPreferences.memberId, memberId));
  return row?.on ?? false;
}

/** @example await setMailEmailOptIn(db, memberId, true) */
export async function setMailEmailOptIn(db: Database, memberId: string, on: boolean): Promise<void> {
  const now = new Date();
  await db
    .insert(mailPreferences)
    .values({ memberId, emailOptIn: on, updatedAt: now })
    .onConflictDoUpdate({ target: mailPreferences.memberId, set: { emailOptIn: on, updatedAt: now } });
}
