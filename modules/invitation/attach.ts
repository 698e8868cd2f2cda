// Attaching an invitation to a new member at sign-up, once.
import { eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { refuse, type Outcome } from '#modules/kernel';
import { memberStandingOf, referralProfilesOf, takeRateLimit } from '#modules/identity';
import { firstPurchasesOf } from '#modules/payments';
import { invitationCodes, invitations } from './schema';
import { type InvitationRefusalCode, TYPED_CODES_PER_HOUR, normaliseInvitationCode, LATE_ENTRY_HOURS } from './codes';

/**
 * An address as one mailbox: lower case, no +tag; Gmail ignores dots and googlemail.com is gmail.com.
 * @example normaliseEmail('Ta.ro+x@GoogleMail.com') === 'taro@gmail.com'
 */
export function normaliseEmail(email: string): string {
  const [local = '', domain = ''] = email
    .normalize('NFKC')
    .trim()
    .toLowerCase()
    .split(/@(?=[^@]*$)/);
  const host = domain === 'googlemail.com' ? 'gmail.com' : domain;
  let name = local.split('+')[0] ?? '';
  if (host === 'gmail.com') name = name.replaceAll('.', '');
  return `${name}@${host}`;
}

export interface AttachInput {
  inviteeId: string;
  code: unknown;
  /** A member entering a code by hand after sign-up: only within LATE_ENTRY_HOURS and before a first purchase. */
  lateEntry?: boolean;
  now?: Date;
}

/**
 * Attaches an invitation to a member, once (the invitee is unique). The same member is refused; the same
 * mailbox after normalisation is attached as refused (self), so it is never rewarded.
 * @example const outcome = await attachInvitation(db, { inviteeId, code: 'K7Q2M9XA' })
 */
export async function attachInvitation(
  db: Database,
  input: AttachInput,
): Promise<Outcome<{ ok: true; inviterId: string; invitationId: number; refused: boolean }, InvitationRefusalCode>> {
  const now = input.now ?? new Date();
  if (input.lateEntry) {
    const limit = await takeRateLimit(db, {
      key: `invitation-code:${input.inviteeId}`,
      windowSeconds: 3600,
      max: TYPED_CODES_PER_HOUR,
      now,
    });
    if (!limit.allowed) return refuse('INVITATION_RATE_LIMITED', { retryAfterSeconds: limit.retryAfterSeconds });
  }
  const code = normaliseInvitationCode(input.code);
  if (!code) return refuse('INVITATION_CODE_INVALID');
  const [owner] = await db
    .select({ memberId: invitationCodes.memberId })
    .from(invitationCodes)
    .where(eq(invitationCodes.code, code));
  if (!owner) return refuse('INVITATION_CODE_NOT_FOUND');
  const inviterId = owner.memberId;
  if (inviterId === input.inviteeId) return refuse('INVITATION_SELF');
  const profiles = await referralProfilesOf(db, [inviterId, input.inviteeId], now);
  const inviter = profiles.get(inviterId);
  const invitee = profiles.get(input.inviteeId);
  // A code of a banned, deleted or staff account is not offered (answered as unknown).
  if (!inviter || inviter.ineligible || !invitee) return refuse('INVITATION_CODE_NOT_FOUND');
  if (input.lateEntry) {
    const [already] = await db
      .select({ id: invitations.id })
      .from(invitations)
      .where(eq(invitations.inviteeId, input.inviteeId));
    if (already) return refuse('INVITATION_ALREADY_ATTACHED');
    const standing = await memberStandingOf(db, input.inviteeId, now);
    const purchased = (await firstPurchasesOf(db, [input.inviteeId])).has(input.inviteeId);
    if (!standing || purchased || now.getTime() - standing.joinedAt.getTime() > LATE_ENTRY_HOURS * 3600_000)
      return refuse('INVITATION_TOO_LATE', { hours: LATE_ENTRY_HOURS });
  }
  const self = normaliseEmail(inviter.email) === normaliseEmail(invitee.email);
  const [row] = await db
    .insert(invitations)
    .values({
      inviterId,
      inviteeId: input.inviteeId,
      code,
      attachedAt: now,
      ...(self ? { outcome: 'refused' as const, refusal: 'self' as const, settledAt: now } : {}),
    })
    .onConflictDoNothing({ target: invitations.inviteeId })
    .returning({ id: invitations.id });
  if (!row) return refuse('INVITATION_ALREADY_ATTACHED');
  return { ok: true, inviterId, invitationId: row.id, refused: self };
}
