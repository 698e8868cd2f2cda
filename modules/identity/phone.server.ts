// Phone numbers through better-auth's phoneNumber plugin (docs/decisions/017): a member adds or
// changes a number with a 6-digit SMS code (valid 10 minutes, 5 tries, one send per number per 60 s),
// and signs in with a verified number and a code. The shop's rules on top of the plugin live here, as
// hooks of the plugin itself, so they hold for the raw API (/api/auth/phone-number/*) and the pages:
// - numbers are E.164 and SMS-capable (phone-numbers.ts); the plugin is only given canonical numbers;
// - the resend cooldown is counted atomically per number in `rate_limits` (takeRateLimit);
// - a code for sign-in goes out only to a number verified on an account: for any other number the
//   answer is the same, and the stored code is made unguessable, so its tries count down alike;
// - no account is ever created from a phone number (the shop needs a nickname and the terms);
// - a wrong code's answer carries the tries left; the plugin's phone+password sign-in and password
//   reset by SMS are not offered (404).
import { and, eq, ne, or, isNotNull, count } from 'drizzle-orm';
import { phoneNumber } from 'better-auth/plugins';
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api';
import type { Database } from '#db/client';
import type { IdentityConfig } from './settings';
import type { IdentityMessenger } from './messenger';
import { isStoredPhoneNumber, type PhoneNumberPolicy } from './phone-numbers';
import { takeRateLimit } from './rate-limit';
import { accounts, users } from './schema';
import { LINE_PROVIDER_ID } from './line.server';

/** The numbers: 6 digits, valid 10 minutes, 5 tries, 60 s between two sends to one number. */
export const PHONE_CODE = {
  length: 6,
  expiresInSeconds: 600,
  allowedAttempts: 5,
  resendCooldownSeconds: 60,
} as const;

/** The refusal codes this file adds to the plugin's (their words: messages.ts). */
export const PHONE_CODE_COOLDOWN = 'PHONE_CODE_COOLDOWN';

/** Where the plugin keeps a number's code (routes.mjs `phoneNumberOTPIdentifier`, better-auth 1.7). */
const codeIdentifier = (e164: string) => `phone-number-otp-${e164}`;
/** Stored in place of a code nobody was sent: never equal to the digits a member types. */
const VOID_CODE = 'void';
/** The plugin's endpoints the shop does not offer (no phone+password sign-in, no password reset by SMS). */
const NOT_OFFERED = new Set([
  '/sign-in/phone-number',
  '/phone-number/request-password-reset',
  '/phone-number/reset-password',
]);

export interface PhoneNumberSetup {
  db: Database;
  messenger: IdentityMessenger;
  /** PHONE_COUNTRIES: whose mobile numbers may take a code. */
  config: Pick<IdentityConfig, 'PHONE_COUNTRIES'>;
  /** The cooldown's clock (tests move it); the plugin's own expiry reads the system clock. */
  now?: () => Date;
}

/**
 * better-auth's phoneNumber plugin with the shop's options and rules; one entry in createShopAuth's plugins.
 * @example plugins: [ …, phoneNumberPlugin({ db, config, messenger }) ]
 */
export function phoneNumberPlugin(setup: PhoneNumberSetup) {
  const { db, messenger } = setup;
  const policy = phoneNumberPolicy(setup.config);
  const now = setup.now ?? (() => new Date());
  const plugin = phoneNumber({
    otpLength: PHONE_CODE.length,
    expiresIn: PHONE_CODE.expiresInSeconds,
    allowedAttempts: PHONE_CODE.allowedAttempts,
    // Only the stored form reaches the plugin: "09012345678" and "+819012345678" are one number.
    phoneNumberValidator: (value) => isStoredPhoneNumber(value, policy),
    // signUpOnVerification is deliberately unset: an unknown number never becomes an account.
    async sendOTP({ phoneNumber: to, code }, ctx) {
      const session = ctx ? await getSessionFromCtx(ctx).catch(() => null) : null;
      // A signed-in member is adding or changing a number: the code goes to the number they typed.
      // Otherwise this is a sign-in: only a number verified on an account gets a code.
      const memberId = session?.user.id ?? (await verifiedHolderOf(db, to));
      if (!memberId) {
        // Same answer as for a known number, no SMS (no cost, no stranger woken), and the stored code
        // can never match, so its five tries count down exactly as a real one's would.
        await ctx?.context.internalAdapter.updateVerificationByIdentifier(codeIdentifier(to), {
          value: `${VOID_CODE}:0`,
        });
        return;
      }
      await messenger.sms({
        to,
        template: 'phone-code',
        vars: { code, minutes: String(PHONE_CODE.expiresInSeconds / 60) },
        memberId,
      });
    },
  });

  const before = [
    ...plugin.hooks.before,
    {
      matcher: (ctx: { path?: string }) => NOT_OFFERED.has(ctx.path ?? ''),
      handler: createAuthMiddleware(async () => {
        throw new APIError('NOT_FOUND', { code: 'NOT_FOUND', message: 'Not offered by this shop' });
      }),
    },
    {
      // One code per number per 60 s, counted in the database before a new code replaces the old one.
      matcher: (ctx: { path?: string }) => ctx.path === '/phone-number/send-otp',
      handler: createAuthMiddleware(async (ctx) => {
        const to = (ctx.body as { phoneNumber?: unknown } | undefined)?.phoneNumber;
        if (typeof to !== 'string' || !isStoredPhoneNumber(to, policy)) return; // the plugin refuses it
        const { allowed, retryAfterSeconds } = await takeRateLimit(db, {
          key: `phone-code:number:${to}`,
          windowSeconds: PHONE_CODE.resendCooldownSeconds,
          max: 1,
          now: now(),
        });
        if (!allowed)
          throw new APIError(
            'TOO_MANY_REQUESTS',
            { code: PHONE_CODE_COOLDOWN, message: 'Wait before sending another code', retryAfterSeconds },
            { 'Retry-After': String(retryAfterSeconds) },
          );
      }),
    },
    {
      // Sign-in (verify without updatePhoneNumber) with the right code for a number no account has
      // verified: only the phone's holder can get here, so saying so reveals nothing to a stranger;
      // the plugin itself would answer 500 (it looks for the account after the code).
      matcher: (ctx: { path?: string; body?: { updatePhoneNumber?: unknown } }) =>
        ctx.path === '/phone-number/verify' && ctx.body?.updatePhoneNumber !== true,
      handler: createAuthMiddleware(async (ctx) => {
        const { phoneNumber: to, code } = (ctx.body ?? {}) as { phoneNumber?: unknown; code?: unknown };
        if (typeof to !== 'string' || typeof code !== 'string') return;
        if (await verifiedHolderOf(db, to)) return;
        const stored = await ctx.context.internalAdapter.findVerificationValue(codeIdentifier(to));
        if (!stored || stored.expiresAt < new Date() || stored.value.split(':')[0] !== code) return;
        await ctx.context.internalAdapter.deleteVerificationByIdentifier(codeIdentifier(to));
        throw new APIError('BAD_REQUEST', {
          code: 'PHONE_NUMBER_NOT_EXIST',
          message: "phone number isn't registered",
        });
      }),
    },
  ];

  const after = [
    {
      // A wrong code: say how many tries this code has left (the plugin keeps the count beside it).
      matcher: (ctx: { path?: string }) => ctx.path === '/phone-number/verify',
      handler: createAuthMiddleware(async (ctx) => {
        const returned = ctx.context.returned;
        if (!(returned instanceof APIError) || returned.body?.code !== 'INVALID_OTP') return;
        const to = (ctx.body as { phoneNumber?: unknown } | undefined)?.phoneNumber;
        if (typeof to !== 'string') return;
        const stored = await ctx.context.internalAdapter.findVerificationValue(codeIdentifier(to));
        const used = Number(stored?.value.split(':')[1] ?? PHONE_CODE.allowedAttempts);
        const attemptsLeft = Math.max(0, PHONE_CODE.allowedAttempts - (Number.isSafeInteger(used) ? used : 0));
        throw new APIError('BAD_REQUEST', { ...returned.body, attemptsLeft });
      }),
    },
  ];

  return { ...plugin, hooks: { before, after } };
}

/** The number rule of the settings (pages and the plugin read numbers alike). */
export function phoneNumberPolicy(config: Pick<IdentityConfig, 'PHONE_COUNTRIES'>): PhoneNumberPolicy {
  return { countries: config.PHONE_COUNTRIES };
}

/** The member whose verified number this is, or null. */
async function verifiedHolderOf(db: Database, e164: string): Promise<string | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.phoneNumber, e164), eq(users.phoneNumberVerified, true)))
    .limit(1);
  return row?.id ?? null;
}

/** The member's number as stored (E.164) and whether an SMS code proved it. */
export async function memberPhoneNumber(
  db: Database,
  memberId: string,
): Promise<{ phoneNumber: string | null; verified: boolean }> {
  const [row] = await db
    .select({ phoneNumber: users.phoneNumber, verified: users.phoneNumberVerified })
    .from(users)
    .where(eq(users.id, memberId));
  return { phoneNumber: row?.phoneNumber ?? null, verified: Boolean(row?.phoneNumber && row.verified) };
}

/**
 * Whether the member could still sign in without their phone: a password, or a sign-in account other
 * than LINE (LINE only links, decision in line.md). Removing the number is refused otherwise.
 */
export async function hasSignInBesidesPhone(db: Database, memberId: string): Promise<boolean> {
  const [row] = await db
    .select({ n: count() })
    .from(accounts)
    .where(
      and(
        eq(accounts.userId, memberId),
        or(
          and(eq(accounts.providerId, 'credential'), isNotNull(accounts.password)),
          and(ne(accounts.providerId, 'credential'), ne(accounts.providerId, LINE_PROVIDER_ID)),
        ),
      ),
    );
  return (row?.n ?? 0) > 0;
}
