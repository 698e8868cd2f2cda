// What the invitations (modules/invitation) read from identity to settle a reward and to refuse abuse:
// each member's address, verified phone number and standing, and the devices (client address and
// browser) of their live sessions. Never a session token.
import { inArray } from 'drizzle-orm';
import type { Database } from '#db/client';
import { sessions, users } from './schema';
import { isStaffRole } from './operator';

export interface ReferralProfile {
  email: string;
  /** E.164, only when an SMS code proved it. */
  verifiedPhone: string | null;
  /** Staff, banned now, or deleted (退会): not rewarded. */
  ineligible: boolean;
}

/**
 * Profiles of the given members (unknown ids are absent).
 * @example (await referralProfilesOf(db, [a, b])).get(a)?.verifiedPhone // '+819012345678'
 */
export async function referralProfilesOf(
  db: Database,
  memberIds: string[],
  now = new Date(),
): Promise<Map<string, ReferralProfile>> {
  const ids = [...new Set(memberIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      phone: users.phoneNumber,
      verified: users.phoneNumberVerified,
      role: users.role,
      banned: users.banned,
      banExpires: users.banExpires,
      deletedAt: users.deletedAt,
    })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(
    rows.map((r) => [
      r.id,
      {
        email: r.email,
        verifiedPhone: r.verified && r.phone ? r.phone : null,
        ineligible:
          isStaffRole(r.role) ||
          r.deletedAt !== null ||
          (Boolean(r.banned) && (r.banExpires === null || r.banExpires > now)),
      },
    ]),
  );
}

/** One device a member's sessions came from. */
export interface DeviceSighting {
  memberId: string;
  ipAddress: string;
  userAgent: string;
}

/**
 * The distinct (client address, browser) pairs of the given members' sessions.
 * @example await sessionDevicesOf(db, [inviteeId, inviterId])
 */
export async function sessionDevicesOf(db: Database, memberIds: string[]): Promise<DeviceSighting[]> {
  const ids = [...new Set(memberIds)];
  if (ids.length === 0) return [];
  const rows = await db
    .selectDistinct({ memberId: sessions.userId, ipAddress: sessions.ipAddress, userAgent: sessions.userAgent })
    .from(sessions)
    .where(inArray(sessions.userId, ids));
  return rows.flatMap((r) =>
    r.ipAddress && r.userAgent ? [{ memberId: r.memberId, ipAddress: r.ipAddress, userAgent: r.userAgent }] : [],
  );
}
