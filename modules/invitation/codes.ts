// The invitation's refusals and rules, and each member's personal code (its alphabet, the cookie that carries it).
import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { invitationCodes } from './schema';

export const INVITATION_REFUSAL_CODES = [
  'UNAUTHENTICATED',
  'INVITATION_CODE_INVALID',
  'INVITATION_CODE_NOT_FOUND',
  'INVITATION_SELF',
  'INVITATION_ALREADY_ATTACHED',
  'INVITATION_TOO_LATE',
  'INVITATION_RATE_LIMITED',
] as const;
export type InvitationRefusalCode = (typeof INVITATION_REFUSAL_CODES)[number];

/** The settings of the rewards (server/config.ts: INVITATION_*). */
export interface InvitationRules {
  /** Free coins each member receives (default 500). */
  rewardCoins: number;
  /** Rewarded invitations per inviter per Japan-time month (default 10). */
  monthlyCap: number;
  /** Days the members have to claim the mailbox attachment. */
  claimDays: number;
  /** The risk module's fingerprint key (fingerprintKeyOf(AUTH_SECRET)): phones are compared as keyed hashes. */
  fingerprintKey: Buffer;
}

/** The code alphabet: digits and capitals without look-alikes (0/O, 1/I). */
export const INVITATION_CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const INVITATION_CODE_LENGTH = 8;
/** Codes a member may type by hand in an hour (against guessing other members' codes). */
export const TYPED_CODES_PER_HOUR = 10;
/** A member may still enter a code by hand within this many hours of joining, before a first purchase. */
export const LATE_ENTRY_HOURS = 72;
/** The cookie /r?code=… leaves for the sign-up (HttpOnly, Secure, SameSite=Lax). */
export const INVITATION_COOKIE = 'oripa_invite';
/** Seconds the cookie lives: a week, long enough to sign up, short enough not to claim a later visit. */
export const INVITATION_COOKIE_SECONDS = 7 * 24 * 3600;
/** A readable one-shot cookie the page turns into the friend-invitation analytics event, then deletes. */
export const INVITATION_EVENT_COOKIE = 'oripa_invite_event';

/**
 * A typed code as stored: NFKC (full-width accepted), capitals, no spaces or dashes; null when it cannot be one.
 * @example normaliseInvitationCode(' ａｂｃｄ-２３４５ ') === 'ABCD2345'
 */
export function normaliseInvitationCode(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const code = input
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s\-‐－ー_]/g, '');
  if (code.length !== INVITATION_CODE_LENGTH) return null;
  for (const ch of code) if (!INVITATION_CODE_ALPHABET.includes(ch)) return null;
  return code;
}

const newCode = () =>
  Array.from({ length: INVITATION_CODE_LENGTH }, () => INVITATION_CODE_ALPHABET[randomInt(32)]).join('');

/**
 * The member's personal code, made on first need (unique; a rare collision draws again).
 * @example const code = await invitationCodeOf(db, memberId) // 'K7Q2M9XA'
 */
export async function invitationCodeOf(db: Database, memberId: string): Promise<string> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const [existing] = await db
      .select({ code: invitationCodes.code })
      .from(invitationCodes)
      .where(eq(invitationCodes.memberId, memberId));
    if (existing) return existing.code;
    await db.insert(invitationCodes).values({ memberId, code: newCode() }).onConflictDoNothing();
  }
  throw new Error('could not make a unique invitation code');
}

/** The member who owns a code, or null. */
export async function inviterOfCode(db: Database, code: string): Promise<string | null> {
  const normalised = normaliseInvitationCode(code);
  if (!normalised) return null;
  const [row] = await db
    .select({ memberId: invitationCodes.memberId })
    .from(invitationCodes)
    .where(eq(invitationCodes.code, normalised));
  return row?.memberId ?? null;
}
