// 退会: the member deletes their own account. The users row stays as an anonymised tombstone, because
// the coin ledger, payment orders, draws and prizes (kept for the legal retention periods: decision
// 016) refer to the member's id; everything that identifies or authenticates the person goes.
import { and, eq, gte, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { refuse, type Outcome } from '#modules/kernel';
import type { Database } from '#db/client';
import type { IdentityMessenger } from './messenger';
import { takeRateLimit } from './rate-limit';
import { DELETED_MEMBER_PUBLIC_NAME } from './public-names';
import { formatPhoneNumber } from './phone-numbers';
import { accounts, rateLimits, sessions, twoFactors, users, verifications } from './schema';

/** The name a deleted member carries, on the tombstone row and on every public board. */
export const DELETED_MEMBER_NAME = DELETED_MEMBER_PUBLIC_NAME;
/** What the member types to confirm. */
export const DELETION_CONFIRMATION_PHRASE = '退会する';

export const ACCOUNT_DELETION_REFUSAL_CODES = [
  'UNAUTHENTICATED',
  'DELETION_NOT_CONFIRMED',
  'PASSWORD_REQUIRED',
  'WRONG_PASSWORD',
  'REAUTHENTICATION_REQUIRED',
  'REAUTH_RATE_LIMITED',
] as const;
export type AccountDeletionRefusalCode = (typeof ACCOUNT_DELETION_REFUSAL_CODES)[number];

/** The tombstone's address: unique per member, on a reserved domain no mail reaches (RFC 6761). */
export const tombstoneEmailOf = (memberId: string) => `deleted-${memberId}@invalid`;

/**
 * The users columns a tombstone keeps or blanks. Columns added to `users` later (phone number,
 * birthday, …) that identify the person must be blanked here too.
 */
function tombstoneOf(memberId: string, now: Date) {
  return {
    name: DELETED_MEMBER_NAME,
    email: tombstoneEmailOf(memberId),
    emailVerified: false,
    image: null,
    role: 'user',
    banned: true,
    banReason: '退会',
    banExpires: null,
    twoFactorEnabled: false,
    phoneNumber: null,
    phoneNumberVerified: false,
    birthday: null,
    deletedAt: now,
    updatedAt: now,
  } satisfies Partial<typeof users.$inferInsert>;
}

/** What better-auth gives this function (ShopAuth, structural). */
interface AuthLike {
  api: {
    getSession(input: {
      headers: Headers;
      query?: { disableCookieCache?: boolean };
    }): Promise<{ user: { id: string; email: string }; session: { createdAt: Date | string } } | null>;
    verifyPassword(input: { body: { password: string }; headers: Headers }): Promise<unknown>;
  };
}

export interface DeleteOwnAccountInput {
  auth: AuthLike;
  db: Database;
  messenger: IdentityMessenger;
  /** The request's headers: the member is the one signed in by them, never an id from a form. */
  headers: Headers;
  /** What the member typed (must be DELETION_CONFIRMATION_PHRASE). */
  confirmation: string;
  /** Required when the member has a password. */
  password?: string | null;
  /** REAUTH_MAX_AGE_MINUTES: a member without a password must have signed in this recently. */
  reauthMaxAgeMinutes: number;
  /** Password attempts per member per minute (SIGN_IN_ATTEMPTS_PER_MINUTE). */
  attemptsPerMinute: number;
  /**
   * Personal data other modules hold that goes with the account (the address book, inquiries, the
   * outbox…: docs/personal-data.md), erased in the tombstone's transaction: both happen, or neither.
   * It is given what the row said before it became a tombstone, to find copies kept by value.
   */
  eraseWith?: (tx: Database, member: ErasedMember) => Promise<void>;
  now?: Date;
}

/** What identified the member before the tombstone: the values other modules may hold copies of. */
export interface ErasedMember {
  id: string;
  email: string;
  /** E.164 (`+819012345678`), or null when the member never verified one. */
  phoneNumber: string | null;
  /** The nickname (users.name). */
  name: string;
  /**
   * Every way the rows may spell them: the address, the number in E.164, as Japanese members type it
   * (090-1234-5678) and as bare digits, and the nickname. For redacting text that others wrote.
   */
  spellings: string[];
}

/**
 * The spellings of a member's identifiers that copies may carry.
 * @example spellingsOf({ email: 'a@example.jp', phoneNumber: '+819012345678', name: 'たろう' }) // […, '090-1234-5678', '09012345678', …]
 */
export function spellingsOf(member: { email: string; phoneNumber: string | null; name: string }): string[] {
  const spellings = [member.email, member.name];
  if (member.phoneNumber) {
    const typed = formatPhoneNumber(member.phoneNumber);
    spellings.push(member.phoneNumber, typed, typed.replace(/\D/g, ''), member.phoneNumber.replace(/^\+/, ''));
  }
  return [...new Set(spellings.filter(Boolean))];
}

export type DeleteOwnAccountOutcome = Outcome<
  { ok: true; memberId: string; formerEmail: string; erased: ErasedMember },
  AccountDeletionRefusalCode
>;

/**
 * Deletes the signed-in member's account: checks the typed phrase and re-authentication (the password,
 * or a session younger than reauthMaxAgeMinutes without one), queues the 'account-deleted' mail to the
 * address on file, then in one transaction turns the users row into a tombstone (anonymised, banned,
 * deletedAt set) and deletes its sessions, sign-in accounts (password, LINE, …), second factor and
 * verifications. Coins, orders, draws and prizes stay in their modules, under the tombstone's id.
 * @example const outcome = await deleteOwnAccount({ auth, db, messenger, headers: request.headers, confirmation: '退会する', password, reauthMaxAgeMinutes: 10, attemptsPerMinute: 10 })
 */
export async function deleteOwnAccount(input: DeleteOwnAccountInput): Promise<DeleteOwnAccountOutcome> {
  const { auth, db } = input;
  const now = input.now ?? new Date();
  const session = await auth.api
    .getSession({ headers: input.headers, query: { disableCookieCache: true } })
    .catch(() => null);
  if (!session) return refuse('UNAUTHENTICATED');
  const memberId = session.user.id;

  if (input.confirmation.normalize('NFKC').trim() !== DELETION_CONFIRMATION_PHRASE)
    return refuse('DELETION_NOT_CONFIRMED', { phrase: DELETION_CONFIRMATION_PHRASE });

  const [credential] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.userId, memberId), eq(accounts.providerId, 'credential'), isNotNull(accounts.password)))
    .limit(1);
  if (credential) {
    if (!input.password) return refuse('PASSWORD_REQUIRED');
    const limit = await takeRateLimit(db, {
      key: `reauth:member:${memberId}`,
      windowSeconds: 60,
      max: input.attemptsPerMinute,
      now,
    });
    if (!limit.allowed) return refuse('REAUTH_RATE_LIMITED', { retryAfterSeconds: limit.retryAfterSeconds });
    const verified = await auth.api
      .verifyPassword({ body: { password: input.password }, headers: input.headers })
      .then(() => true)
      .catch(() => false);
    if (!verified) return refuse('WRONG_PASSWORD');
  } else {
    const signedInAt = new Date(session.session.createdAt).getTime();
    if (now.getTime() - signedInAt > input.reauthMaxAgeMinutes * 60_000)
      return refuse('REAUTHENTICATION_REQUIRED', { minutes: input.reauthMaxAgeMinutes });
  }

  // The notice goes to the address before it is erased; the messenger resolves once it is in the outbox.
  const formerEmail = session.user.email;
  await input.messenger.mail({ to: formerEmail, template: 'account-deleted', vars: {}, memberId });

  const erased = await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ email: users.email, phoneNumber: users.phoneNumber, name: users.name })
      .from(users)
      .where(and(eq(users.id, memberId), isNull(users.deletedAt)))
      .for('update');
    if (!before) return null;
    const member: ErasedMember = { id: memberId, ...before, spellings: spellingsOf(before) };
    await tx.update(users).set(tombstoneOf(memberId, now)).where(eq(users.id, memberId));
    await tx.delete(sessions).where(eq(sessions.userId, memberId));
    await tx.delete(accounts).where(eq(accounts.userId, memberId));
    await tx.delete(twoFactors).where(eq(twoFactors.userId, memberId));
    // Trusted devices, second-step challenges, reset and change links: better-auth keeps the member's
    // id as the value (or inside a JSON value).
    await tx
      .delete(verifications)
      .where(or(eq(verifications.value, memberId), sql`position(${memberId} in ${verifications.value}) > 0`));
    // Sign-up confirmations, email-change links and SMS codes are keyed by the address or the number.
    for (const value of identifiersOf(member)) {
      await tx
        .delete(verifications)
        .where(
          or(
            sql`position(${value} in lower(${verifications.identifier})) > 0`,
            sql`position(${value} in lower(${verifications.value})) > 0`,
          ),
        );
      // Rate-limit keys name the account they count (`limit:check:account:<email>`, `phone-code:number:<E.164>`).
      await tx.delete(rateLimits).where(sql`position(${value} in lower(${rateLimits.key})) > 0`);
    }
    await input.eraseWith?.(tx, member);
    return member;
  });
  if (!erased) return refuse('UNAUTHENTICATED');
  return { ok: true, memberId, formerEmail, erased };
}

/** The member's address, number and id as other rows spell them (lower case), for matching copies. */
function identifiersOf(member: ErasedMember): string[] {
  return [member.email, member.phoneNumber, member.id]
    .filter((value): value is string => Boolean(value))
    .map((value) => value.toLowerCase());
}

/**
 * Members deleted since `since` (tombstones), for the clean-ups that finish a deletion after its
 * transaction (the outbox's notice once sent: server/jobs/privacy.ts).
 * @example const ids = await recentlyDeletedMembers(db, new Date(Date.now() - 30 * 86_400_000))
 */
export async function recentlyDeletedMembers(db: Database, since: Date): Promise<string[]> {
  const rows = await db.select({ id: users.id }).from(users).where(gte(users.deletedAt, since));
  return rows.map((row) => row.id);
}

/** Whether a member's account was deleted (a tombstone), for doors that must not treat it as a member. */
export async function isDeletedMember(db: Database, memberId: string): Promise<boolean> {
  const [row] = await db.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, memberId)).limit(1);
  return Boolean(row?.deletedAt);
}
