// 退会: the member deletes their own account. The users row stays as an anonymised tombstone, because
// the coin ledger, payment orders, draws and prizes (kept for the legal retention periods: decision
// 016) refer to the member's id; everything that identifies or authenticates the person goes.
import { and, eq, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { refuse, type Outcome } from '#modules/kernel';
import type { Database } from '#db/client';
import type { IdentityMessenger } from './messenger';
import { takeRateLimit } from './rate-limit';
import { DELETED_MEMBER_PUBLIC_NAME } from './public-names';
import { accounts, sessions, twoFactors, users, verifications } from './schema';

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
   * Personal data other modules hold that goes with the account (the address book), erased in the
   * tombstone's transaction: both happen, or neither.
   */
  eraseWith?: (tx: Database, memberId: string) => Promise<void>;
  now?: Date;
}

export type DeleteOwnAccountOutcome = Outcome<
  { ok: true; memberId: string; formerEmail: string },
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

  const done = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set(tombstoneOf(memberId, now))
      .where(and(eq(users.id, memberId), isNull(users.deletedAt)))
      .returning({ id: users.id });
    if (!row) return false;
    await tx.delete(sessions).where(eq(sessions.userId, memberId));
    await tx.delete(accounts).where(eq(accounts.userId, memberId));
    await tx.delete(twoFactors).where(eq(twoFactors.userId, memberId));
    // Trusted devices, second-step challenges, reset and change links: better-auth keeps the member's
    // id as the value (or inside a JSON value).
    await tx
      .delete(verifications)
      .where(or(eq(verifications.value, memberId), sql`position(${memberId} in ${verifications.value}) > 0`));
    await input.eraseWith?.(tx, memberId);
    return true;
  });
  if (!done) return refuse('UNAUTHENTICATED');
  return { ok: true, memberId, formerEmail };
}

/** Whether a member's account was deleted (a tombstone), for doors that must not treat it as a member. */
export async function isDeletedMember(db: Database, memberId: string): Promise<boolean> {
  const [row] = await db.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, memberId)).limit(1);
  return Boolean(row?.deletedAt);
}
