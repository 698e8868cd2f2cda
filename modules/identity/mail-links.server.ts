// The links in identity's mails. Every one lands on /auth/action?mode=…&oobCode=… (the
// specification's action page), which shows a button: a link scanner that opens the page spends
// nothing, and the member's own press does the work.
import type { GenericEndpointContext } from 'better-auth';
import { randomBytes } from 'node:crypto';
import type { IdentityMessenger } from './messenger';
import type { ActionMode } from './constants';

/** A sign-up's confirmation link lives a day; a reset link an hour; an email link 15 minutes. */
export const EMAIL_VERIFICATION_SECONDS = 24 * 60 * 60;
export const RESET_PASSWORD_SECONDS = 60 * 60;
export const MAGIC_LINK_SECONDS = 15 * 60;
/** The old address may undo an email change for 3 days. */
export const RECOVER_EMAIL_SECONDS = 3 * 24 * 60 * 60;

export { ACTION_MODES, type ActionMode } from './constants';

/**
 * @example actionUrl('https://shop.example', 'resetPassword', 'abc') === 'https://shop.example/auth/action?mode=resetPassword&oobCode=abc'
 */
export function actionUrl(origin: string, mode: ActionMode, code: string, continuePath?: string): string {
  const url = new URL('/auth/action', origin);
  url.searchParams.set('mode', mode);
  url.searchParams.set('oobCode', code);
  if (continuePath && continuePath !== '/') url.searchParams.set('continueUrl', continuePath);
  return url.toString();
}

/** The claims of an email-verification token (a JWT better-auth signs), read without trusting them. */
export function verificationClaimsOf(token: string): { email?: string; updateTo?: string; requestType?: string } {
  try {
    const payload = token.split('.')[1] ?? '';
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

/** The local path a better-auth link carries as its callbackURL (where the member continues), if any. */
export function continuePathOf(betterAuthUrl: string): string | undefined {
  try {
    return new URL(betterAuthUrl).searchParams.get('callbackURL') ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The action link for a verification mail better-auth asked us to send: a sign-up's confirmation, or
 * the new address's confirmation of a change. The path the member came from rides along.
 */
export function verificationLinkOf(origin: string, betterAuthUrl: string, token: string) {
  const claims = verificationClaimsOf(token);
  const mode: ActionMode = claims.requestType === 'change-email-verification' ? 'verifyAndChangeEmail' : 'verifyEmail';
  return { mode, url: actionUrl(origin, mode, token, continuePathOf(betterAuthUrl)) };
}

const recoverIdentifier = (code: string) => `recover-email:${code}`;

/**
 * After better-auth changed a member's address (the new address confirmed it), the old address is
 * told, with a link that puts it back for RECOVER_EMAIL_SECONDS (someone who took over the session
 * cannot keep the account by changing its address).
 */
export async function afterEmailChanged(
  ctx: GenericEndpointContext,
  user: { id: string; email: string },
  messenger: IdentityMessenger,
  origin: string,
): Promise<void> {
  if (ctx.path !== '/verify-email') return;
  const token = (ctx.query as { token?: string } | undefined)?.token;
  if (!token) return;
  const claims = verificationClaimsOf(token);
  if (claims.requestType !== 'change-email-verification' || !claims.email || claims.updateTo !== user.email) return;
  const code = randomBytes(24).toString('base64url');
  await ctx.context.internalAdapter.createVerificationValue({
    identifier: recoverIdentifier(code),
    value: JSON.stringify({ userId: user.id, oldEmail: claims.email, newEmail: user.email }),
    expiresAt: new Date(Date.now() + RECOVER_EMAIL_SECONDS * 1000),
  });
  await messenger.mail({
    to: claims.email,
    template: 'email-change-notice',
    vars: { newEmail: user.email, url: actionUrl(origin, 'recoverEmail', code) },
    memberId: user.id,
  });
}

/** The parts of better-auth's context the action page's checks use. */
export interface AuthContextLike {
  internalAdapter: {
    findVerificationValue(identifier: string): Promise<{ value: string; expiresAt: Date } | null | undefined>;
    consumeVerificationValue?(identifier: string): Promise<unknown>;
    deleteVerificationByIdentifier?(identifier: string): Promise<unknown>;
    findUserById(id: string): Promise<{ id: string; email: string } | null>;
    findUserByEmail(email: string): Promise<{ user: { id: string } } | null>;
    updateUser(id: string, data: Record<string, unknown>): Promise<unknown>;
    deleteUserSessions(userId: string): Promise<unknown>;
  };
}

/** Whether a reset code is still good (checked before the new-password form is shown). */
export async function resetCodeIsValid(context: AuthContextLike, code: string, now = new Date()): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{8,200}$/.test(code)) return false;
  const found = await context.internalAdapter.findVerificationValue(`reset-password:${code}`);
  return Boolean(found && found.expiresAt > now);
}

export type RecoverEmailOutcome =
  { ok: true; email: string } | { ok: false; reason: 'invalid' | 'expired' | 'changed-again' | 'address-taken' };

/** What a recover link would restore, without using it (the page shows it before the button). */
export async function peekRecoverEmail(
  context: AuthContextLike,
  code: string,
  now = new Date(),
): Promise<RecoverEmailOutcome & { newEmail?: string }> {
  if (!/^[A-Za-z0-9_-]{8,200}$/.test(code)) return { ok: false, reason: 'invalid' };
  const found = await context.internalAdapter.findVerificationValue(recoverIdentifier(code));
  if (!found) return { ok: false, reason: 'invalid' };
  if (found.expiresAt <= now) return { ok: false, reason: 'expired' };
  const record = JSON.parse(found.value) as { oldEmail: string; newEmail: string };
  return { ok: true, email: record.oldEmail, newEmail: record.newEmail };
}

/**
 * Puts the old address back, marks it confirmed (it received the link) and ends every session; the
 * code works once. Refused when the member has changed the address again since, or when another
 * member now holds the old address.
 */
export async function recoverEmail(
  context: AuthContextLike,
  code: string,
  now = new Date(),
): Promise<RecoverEmailOutcome> {
  const peeked = await peekRecoverEmail(context, code, now);
  if (!peeked.ok) return peeked;
  const identifier = recoverIdentifier(code);
  const found = await context.internalAdapter.findVerificationValue(identifier);
  if (!found) return { ok: false, reason: 'invalid' };
  const record = JSON.parse(found.value) as { userId: string; oldEmail: string; newEmail: string };
  const user = await context.internalAdapter.findUserById(record.userId);
  if (!user || user.email !== record.newEmail) return { ok: false, reason: 'changed-again' };
  const holder = await context.internalAdapter.findUserByEmail(record.oldEmail);
  if (holder && holder.user.id !== user.id) return { ok: false, reason: 'address-taken' };
  if (context.internalAdapter.consumeVerificationValue) {
    if (!(await context.internalAdapter.consumeVerificationValue(identifier))) return { ok: false, reason: 'invalid' };
  } else {
    await context.internalAdapter.deleteVerificationByIdentifier?.(identifier);
  }
  await context.internalAdapter.updateUser(user.id, { email: record.oldEmail, emailVerified: true });
  await context.internalAdapter.deleteUserSessions(user.id);
  return { ok: true, email: record.oldEmail };
}
