// For the invitations (modules/invitation): whether a member was seen with the same device, address
// or phone fingerprint as any of some other members (the fingerprints the signals job keeps).
import { and, eq, inArray, ne } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '#db/client';
import { riskFingerprints, type FingerprintKind } from './schema';
import { fingerprint, normaliseDevice, normalisePhone } from './fingerprints';

/**
 * The fingerprint kinds `memberId` shares with any of `others` (empty when none).
 * @example await sharedFingerprintKinds(db, inviteeId, [inviterId]) // Set { 'device' }
 */
export async function sharedFingerprintKinds(
  db: Database,
  memberId: string,
  others: string[],
): Promise<Set<FingerprintKind>> {
  const ids = [...new Set(others)].filter((id) => id !== memberId);
  if (ids.length === 0) return new Set();
  const theirs = alias(riskFingerprints, 'theirs');
  const rows = await db
    .selectDistinct({ kind: riskFingerprints.kind })
    .from(riskFingerprints)
    .innerJoin(
      theirs,
      and(
        eq(theirs.kind, riskFingerprints.kind),
        eq(theirs.keyHash, riskFingerprints.keyHash),
        ne(theirs.memberId, riskFingerprints.memberId),
      ),
    )
    .where(and(eq(riskFingerprints.memberId, memberId), inArray(theirs.memberId, ids)));
  return new Set(rows.map((r) => r.kind));
}

/** A phone number's keyed fingerprint (digits, +81 read as 0), as the signals job keys them. */
export const phoneFingerprintOf = (key: Buffer, phone: string): string =>
  fingerprint(key, 'phone', normalisePhone(phone));

/** A device's keyed fingerprint (client address and browser), as the signals job keys them. */
export const deviceFingerprintOf = (key: Buffer, ipAddress: string, userAgent: string): string =>
  fingerprint(key, 'device', normaliseDevice(ipAddress, userAgent));
