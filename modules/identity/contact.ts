// What other modules may read of a member to reach them or to check a requirement: the mail address
// that can receive mail, and whether a phone number is verified (shipping requires one).
import { eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { users } from './schema';
import { isPlaceholderEmail } from './social';

export interface MemberContact {
  /** The address mail can go to; null for a deleted member or a sign-in without a real address (LINE, X). */
  email: string | null;
  /** An SMS code proved the member's phone number. */
  phoneVerified: boolean;
  /** 退会 (the row is a tombstone). */
  deleted: boolean;
}

/**
 * The member's contact, or null when there is no such member.
 * @example const contact = await memberContactOf(db, memberId) // { email: 'a@example.jp', phoneVerified: true, deleted: false }
 */
export async function memberContactOf(db: Database, memberId: string): Promise<MemberContact | null> {
  const [row] = await db
    .select({
      email: users.email,
      phoneVerified: users.phoneNumberVerified,
      phoneNumber: users.phoneNumber,
      deletedAt: users.deletedAt,
    })
    .from(users)
    .where(eq(users.id, memberId));
  if (!row) return null;
  const deleted = row.deletedAt !== null;
  return {
    email: deleted || isPlaceholderEmail(row.email) ? null : row.email,
    phoneVerified: !deleted && row.phoneVerified && row.phoneNumber !== null,
    deleted,
  };
}
