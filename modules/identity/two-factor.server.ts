// The second factor: better-auth's twoFactor plugin set up for the shop (TOTP from an authenticator
// app, ten single-use backup codes, "trust this device for 30 days"), what the security page reads
// about a member's setup, and the staff rule (staff and admin accounts need TOTP before any staff page).
import { and, eq, isNotNull } from 'drizzle-orm';
import { twoFactor } from 'better-auth/plugins';
import { symmetricDecrypt } from 'better-auth/crypto';
import { createOTP } from '@better-auth/utils/otp';
import type { Database } from '#db/client';
import type { IdentityConfig } from './settings';
import { accounts, twoFactors, users } from './schema';
import { staffAccessOf, type StaffAccess } from './operator';

/** Digits of a TOTP code and seconds per code (what every authenticator app expects). */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Backup codes issued at setup and on each regeneration (`xxxxx-xxxxx`, single use). */
export const BACKUP_CODE_COUNT = 10;
/** 「この端末を30日間信頼する」 */
export const TRUST_DEVICE_DAYS = 30;
/** Minutes the member has between the password and the code on /auth/sign_in. */
export const SECOND_STEP_MINUTES = 10;

/** The model names better-auth's drizzle adapter looks up, for `schema: { …, ...TWO_FACTOR_TABLES }`. */
export const TWO_FACTOR_TABLES = { twoFactor: twoFactors };

/**
 * The twoFactor plugin with the shop's settings: issuer = SITE_NAME; secrets and backup codes encrypted
 * with AUTH_SECRET; sign-in verification locked for 15 minutes after 10 failures in a row (the plugin's
 * account lockout) on top of its rate limit (3 code checks per 10 seconds per address).
 * @example plugins: [ …, twoFactorPlugin(config) ]
 */
export function twoFactorPlugin(config: Pick<IdentityConfig, 'SITE_NAME'>) {
  return twoFactor({
    issuer: config.SITE_NAME,
    totpOptions: { digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS },
    backupCodeOptions: { amount: BACKUP_CODE_COUNT, length: 10, storeBackupCodes: 'encrypted' },
    twoFactorCookieMaxAge: SECOND_STEP_MINUTES * 60,
    trustDeviceMaxAge: TRUST_DEVICE_DAYS * 24 * 60 * 60,
    accountLockout: { enabled: true, maxFailedAttempts: 10, durationSeconds: 15 * 60 },
  });
}

/**
 * A code as members type it: full-width digits and spaces or hyphens between groups are accepted for
 * TOTP (`１２３ ４５６` → `123456`); a backup code keeps its letters and its one hyphen.
 * @example normaliseOtp(' １２３ ４５６ ') === '123456'; normaliseBackupCode('abcde fghij') === 'abcde-fghij'
 */
export function normaliseOtp(text: unknown): string {
  return String(text ?? '')
    .normalize('NFKC')
    .replace(/[\s-]/g, '');
}

/** @see normaliseOtp */
export function normaliseBackupCode(text: unknown): string {
  const compact = String(text ?? '')
    .normalize('NFKC')
    .replace(/[\s-]/g, '');
  return compact.length === 10 ? `${compact.slice(0, 5)}-${compact.slice(5)}` : compact;
}

/** A 6-digit code (after normaliseOtp). */
export const isTotpCode = (code: string) => new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code);

/** Where a member stands with the second factor. */
export interface SecondFactorState {
  /** TOTP set up and confirmed: sign-in asks for a code. */
  enabled: boolean;
  /** A setup was started (QR shown) but not yet confirmed with a code. */
  pendingSetup: boolean;
}

/** @example const { enabled } = await secondFactorOf(db, memberId) */
export async function secondFactorOf(db: Database, memberId: string): Promise<SecondFactorState> {
  const [row] = await db
    .select({ enabled: users.twoFactorEnabled, verified: twoFactors.verified })
    .from(users)
    .leftJoin(twoFactors, eq(twoFactors.userId, users.id))
    .where(eq(users.id, memberId))
    .limit(1);
  const enabled = Boolean(row?.enabled);
  return { enabled, pendingSetup: !enabled && row?.verified === false };
}

/**
 * Whether the member signs in with a password (better-auth's 'credential' account): the second factor
 * guards the password sign-in only, and its setup asks for the password.
 * @example if (!(await hasPassword(db, memberId))) …
 */
export async function hasPassword(db: Database, memberId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.userId, memberId), eq(accounts.providerId, 'credential'), isNotNull(accounts.password)))
    .limit(1);
  return Boolean(row);
}

/** What better-auth gives us that these helpers need (ShopAuth, kept structural to avoid a cycle). */
interface AuthLike {
  $context: Promise<{ secretConfig: unknown }>;
  api: { viewBackupCodes(input: { body: { userId: string } }): Promise<{ backupCodes: string[] }> };
}

/**
 * The otpauth:// URI of a setup started but not yet confirmed, for showing the QR code again (after a
 * reload or a wrong code) without asking for the password once more; null when there is none.
 * @example const uri = await pendingTotpUri(auth, db, { memberId, email, issuer: config.SITE_NAME })
 */
export async function pendingTotpUri(
  auth: AuthLike,
  db: Database,
  member: { memberId: string; email: string; issuer: string },
): Promise<string | null> {
  const [row] = await db
    .select({ secret: twoFactors.secret, verified: twoFactors.verified })
    .from(twoFactors)
    .where(eq(twoFactors.userId, member.memberId))
    .limit(1);
  if (!row || row.verified !== false) return null;
  const context = await auth.$context;
  const secret = await symmetricDecrypt({ key: context.secretConfig as never, data: row.secret });
  return createOTP(secret, { digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS }).url(member.issuer, member.email);
}

/**
 * The backup codes a member still has (server only: better-auth decrypts them); [] without a setup.
 * @example (await remainingBackupCodes(auth, memberId)).length // 9 after one was used
 */
export async function remainingBackupCodes(auth: AuthLike, memberId: string): Promise<string[]> {
  try {
    return (await auth.api.viewBackupCodes({ body: { userId: memberId } })).backupCodes;
  } catch {
    return [];
  }
}

/**
 * The secret of an otpauth:// URI in groups of four for typing by hand (`JBSW Y3DP EHPK 3PXP`).
 * @example manualEntryKey('otpauth://totp/…?secret=JBSWY3DPEHPK3PXP&…') === 'JBSW Y3DP EHPK 3PXP'
 */
export function manualEntryKey(totpUri: string): string {
  let secret = '';
  try {
    secret = new URL(totpUri).searchParams.get('secret') ?? '';
  } catch {
    return '';
  }
  return (secret.match(/.{1,4}/g) ?? []).join(' ');
}

// ---------------------------------------------------------------------------------------------
// The staff rule

/** The API's and the pages' refusal for staff without TOTP (words and status in refusal-words.ts). */
export const STAFF_ACCESS_REFUSAL_CODES = ['SECOND_FACTOR_REQUIRED'] as const;
export type StaffAccessRefusalCode = (typeof STAFF_ACCESS_REFUSAL_CODES)[number];

/**
 * staffAccessOf for a member id, read from the database (the session member carries no second-factor flag).
 * @example if ((await staffAccessOfMember(db, member.id)) !== 'ok') …
 */
export async function staffAccessOfMember(db: Database, memberId: string): Promise<StaffAccess> {
  const [row] = await db
    .select({ role: users.role, twoFactorEnabled: users.twoFactorEnabled, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, memberId))
    .limit(1);
  return staffAccessOf(row ?? null);
}
