// better-auth, configured for the shop: email and password now; the other methods plug in here.
import { betterAuth, type BetterAuthOptions } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { admin, bearer, genericOAuth, magicLink, oneTimeToken } from 'better-auth/plugins';
import { lineOAuthConfig, type LineOAuthOptions } from './line.server';
import { accountOptionsOf, configuredSocialProviders, socialProvidersOf } from './social.server';
import { APIError } from 'better-auth/api';
import { isStrictDate, nicknameSchemaOf, type NicknameRules } from './forms';
import {
  checkPassword,
  maxLengthOf,
  passwordPolicyOf,
  PASSWORD_HARD_MAX_LENGTH,
  PASSWORD_LIBRARY_MIN_LENGTH,
  type PasswordPolicy,
} from './password-policy';
import {
  actionUrl,
  afterEmailChanged,
  continuePathOf,
  EMAIL_VERIFICATION_SECONDS,
  MAGIC_LINK_SECONDS,
  RESET_PASSWORD_SECONDS,
  verificationLinkOf,
} from './mail-links.server';
import type { IdentityMessenger } from './messenger';
import { phoneNumberPlugin } from './phone.server';
import type { Database } from '#db/client';
import type { IdentityConfig } from './settings';
import type { Logger } from 'pino';
import { users, sessions, accounts, verifications, rateLimits } from './schema';
import { TWO_FACTOR_TABLES, twoFactorPlugin } from './two-factor.server';
import { abuseGuard } from './abuse.server';
import { createRateLimiter, RATE_LIMIT_KEY_PREFIX, type RateLimiter } from './rate-limiter.server';

import { CLIENT_IP_HEADER } from './constants';
export { CLIENT_IP_HEADER };

import { SESSION_MAX_AGE_SECONDS, SESSION_UPDATE_AGE_SECONDS } from './constants';

export { SESSION_MAX_AGE_SECONDS, SESSION_UPDATE_AGE_SECONDS };

/** A new member as the sign-up hook sees it: who, the request's cookies, and a cookie for the answer. */
export interface MemberCreated {
  memberId: string;
  getCookie: (name: string) => string | null;
  setCookie: (
    name: string,
    value: string,
    options: { path: string; maxAge: number; httpOnly: boolean; secure: boolean; sameSite: 'lax' },
  ) => void;
}

/**
 * @example const auth = createShopAuth({ db, config, logger }); await auth.handler(request)
 */
export function createShopAuth(options: {
  db: Database;
  config: IdentityConfig;
  logger: Logger;
  /** LINE account linking (line.server.ts, line.md); off when unset. */
  line?: LineOAuthOptions;
  /** Where identity's mails and text messages go (the outbox in the shop; a capture in tests). */
  messenger: IdentityMessenger;
  /** The clock of the SMS code's resend cooldown (phone.server.ts); tests move it. */
  now?: () => Date;
  /** The shared rate limiter (Redis when REDIS_URL is set: server/main.ts); the database's when unset. */
  limiter?: RateLimiter;
  /**
   * Runs once a member row exists, whatever the path (email and password, phone, a provider, an operator),
   * with the request's cookies and a way to set one on its answer: the shop attaches an invitation
   * (decision 038) and writes the welcome mail (decision 034) here. Its failure is logged, never the sign-up's.
   */
  onMemberCreated?: (created: MemberCreated) => Promise<void>;
}) {
  const { db, config, logger, messenger } = options;
  const policy = passwordPolicyOf(config);
  const nicknames: NicknameRules = {
    maxLength: config.NICKNAME_MAX_LENGTH,
    forbiddenWords: config.NICKNAME_FORBIDDEN_WORDS,
  };
  const origin = config.PUBLIC_ORIGIN;
  return betterAuth({
    appName: config.SITE_NAME,
    baseURL: config.PUBLIC_ORIGIN,
    basePath: '/api/auth',
    secret: config.AUTH_SECRET,
    trustedOrigins: [config.PUBLIC_ORIGIN],
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        user: users,
        session: sessions,
        account: accounts,
        verification: verifications,
        rateLimit: rateLimits,
        ...TWO_FACTOR_TABLES,
      },
    }),
    user: {
      additionalFields: {
        /** 生年月日, YYYY-MM-DD (checked strictly by the update hook). */
        birthday: { type: 'string', required: false, input: true },
      },
      // A verified address changes in two steps: the old address approves, the new one confirms; then
      // the old address is told, with a link that undoes the change (/auth/action?mode=recoverEmail).
      changeEmail: {
        enabled: true,
        sendChangeEmailConfirmation: async ({ user, newEmail, token }) => {
          await messenger.mail({
            to: user.email,
            template: 'email-change-confirm',
            vars: { url: actionUrl(origin, 'approveEmailChange', token), newEmail },
            memberId: user.id,
          });
        },
      },
    },
    emailAndPassword: emailAndPasswordOf(policy, messenger, origin),
    emailVerification: emailVerificationOf(messenger, origin),
    session: { expiresIn: SESSION_MAX_AGE_SECONDS, updateAge: SESSION_UPDATE_AGE_SECONDS },
    // Social sign-in and linking (social.server.ts, docs/decisions/015).
    socialProviders: socialProvidersOf(config),
    account: accountOptionsOf({ db, providers: configuredSocialProviders(config, { line: Boolean(options.line) }) }),
    // The nickname and birthday rules hold however an account is created or changed, not only through our form.
    databaseHooks: databaseHooksOf(nicknames, messenger, origin, logger, options.onMemberCreated),
    // Per account and address limits and the captcha after repeated failures (abuse.server.ts), then
    // the password policy on every path that sets a password.
    hooks: abuseGuard({
      limiter: options.limiter ?? createRateLimiter({ db, logger, keyPrefix: RATE_LIMIT_KEY_PREFIX }),
      config,
      logger,
      alsoBefore: (request) => enforcePasswordPolicy(policy, request),
    }),
    rateLimit: rateLimitOf(config),
    advanced: {
      // Secure everywhere: browsers accept Secure cookies on http://localhost, so development matches production.
      useSecureCookies: true,
      cookiePrefix: 'oripa',
      defaultCookieAttributes: { httpOnly: true, secure: true, sameSite: 'lax', path: '/' },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    plugins: [
      admin({ defaultRole: 'user', adminRoles: ['admin'] }),
      bearer(),
      // The native app hands its signed-in member to a web view (/app/checkout/*): a token valid for
      // 3 minutes, used once, stored hashed.
      oneTimeToken({ expiresIn: 3, storeToken: 'hashed' }),
      // Email-link sign-in for existing members only (a new member signs up with the terms); the
      // answer is the same for an unknown address, which gets no mail.
      magicLink({
        expiresIn: MAGIC_LINK_SECONDS,
        disableSignUp: true,
        storeToken: 'hashed',
        sendMagicLink: async ({ email, token, url }, ctx) => {
          const found = await ctx?.context.internalAdapter.findUserByEmail(email.toLowerCase());
          if (!found?.user) return;
          await messenger.mail({
            to: found.user.email,
            template: 'magic-link',
            vars: { url: actionUrl(origin, 'signIn', token, continuePathOf(url)) },
            memberId: found.user.id,
          });
        },
      }),
      // LINE Login v2.1 (line.server.ts): sign-in, and linking for a signed-in member.
      genericOAuth({ config: options.line ? [lineOAuthConfig(options.line)] : [] }),
      // TOTP with backup codes, the second step after the password (two-factor.server.ts).
      twoFactorPlugin(config),
      phoneNumberPlugin({ db, config, messenger: options.messenger, now: options.now }),
      // ← more plugins go here
    ],
    logger: loggerOf(logger),
  });
}

export type ShopAuth = ReturnType<typeof createShopAuth>;

/** Email and password: the library's bounds, no account enumeration, the reset mail. */
function emailAndPasswordOf(
  policy: PasswordPolicy,
  messenger: IdentityMessenger,
  origin: string,
): NonNullable<BetterAuthOptions['emailAndPassword']> {
  const enforced = policy.mode === 'enforce';
  return {
    enabled: true,
    // The library refuses outside these; the shop's own rules are createShopAuth's policy hook (warn lets them pass).
    minPasswordLength: enforced ? policy.minLength : PASSWORD_LIBRARY_MIN_LENGTH,
    maxPasswordLength: enforced ? maxLengthOf(policy) : PASSWORD_HARD_MAX_LENGTH,
    // No account enumeration: a sign-up answers the same for a new and a known address, and the
    // account starts once the address is confirmed; the owner of a known address gets a mail instead.
    requireEmailVerification: true,
    onExistingUserSignUp: async ({ user }) => {
      await messenger.mail({
        to: user.email,
        template: 'account-exists',
        vars: { signInUrl: `${origin}/auth/sign_in`, resetUrl: `${origin}/auth/passwd` },
        memberId: user.id,
      });
    },
    resetPasswordTokenExpiresIn: RESET_PASSWORD_SECONDS,
    revokeSessionsOnPasswordReset: true,
    sendResetPassword: async ({ user, token }) => {
      await messenger.mail({
        to: user.email,
        template: 'password-reset',
        vars: { url: actionUrl(origin, 'resetPassword', token) },
        memberId: user.id,
      });
    },
  };
}

/** The confirmation mail of a new address (or of a changed one). */
function emailVerificationOf(messenger: IdentityMessenger, origin: string): BetterAuthOptions['emailVerification'] {
  return {
    sendOnSignUp: true,
    sendOnSignIn: true,
    autoSignInAfterVerification: true,
    expiresIn: EMAIL_VERIFICATION_SECONDS,
    sendVerificationEmail: async ({ user, url, token }) => {
      const link = verificationLinkOf(origin, url, token);
      await messenger.mail({
        to: user.email,
        template: link.mode === 'verifyAndChangeEmail' ? 'email-change-verify' : 'verify-email',
        vars: link.mode === 'verifyAndChangeEmail' ? { url: link.url, newEmail: user.email } : { url: link.url },
        memberId: user.id,
      });
    },
  };
}

/** The nickname and birthday rules hold however an account is created or changed, not only through our form. */
function databaseHooksOf(
  nicknames: NicknameRules,
  messenger: IdentityMessenger,
  origin: string,
  logger: Logger,
  onMemberCreated: ((created: MemberCreated) => Promise<void>) | undefined,
): BetterAuthOptions['databaseHooks'] {
  return {
    // A member who set up TOTP signs in with the password and the code: a method that has no second
    // step (an email link, a text message, a provider) does not open a session for them.
    session: {
      create: {
        before: async (session, ctx) => {
          if (!ctx || !PASSWORDLESS_SIGN_IN.some((path) => ctx.path.startsWith(path))) return;
          const user = (await ctx.context.internalAdapter.findUserById(session.userId)) as {
            twoFactorEnabled?: boolean | null;
          } | null;
          if (user?.twoFactorEnabled)
            throw new APIError('FORBIDDEN', {
              code: 'SECOND_FACTOR_NEEDS_PASSWORD',
              message: '二段階認証を設定しているため、メールアドレスとパスワードでログインしてください。',
            });
        },
      },
    },
    user: {
      create: {
        before: async (user) => ({ data: { ...user, name: checkedNickname(user.name, nicknames) } }),
        after: async (user, ctx) => {
          if (!onMemberCreated) return;
          try {
            await onMemberCreated({
              memberId: user.id,
              getCookie: (name) => ctx?.getCookie(name) ?? null,
              setCookie: (name, value, cookie) => void ctx?.setCookie(name, value, cookie),
            });
          } catch (error) {
            logger.error({ err: error, memberId: user.id }, 'after sign-up: the member-created hook failed');
          }
        },
      },
      update: {
        before: async (user) => ({
          data: {
            ...user,
            ...(user.name === undefined ? {} : { name: checkedNickname(user.name, nicknames) }),
            ...('birthday' in user ? { birthday: checkedBirthday(user.birthday) } : {}),
          },
        }),
        after: async (user, context) => {
          if (context) await afterEmailChanged(context, user, messenger, origin);
        },
      },
    },
  };
}

/** The library's own limits per path, in the database; the sign-in and sign-up ones from the settings. */
function rateLimitOf(config: IdentityConfig): BetterAuthOptions['rateLimit'] {
  return {
    enabled: true,
    storage: 'database',
    window: 60,
    max: 100,
    customRules: {
      '/sign-in/email': { window: 60, max: config.SIGN_IN_ATTEMPTS_PER_MINUTE },
      '/sign-up/email': { window: 60, max: config.SIGN_UP_ATTEMPTS_PER_MINUTE },
      // The confirmation link's button is a sign-up's second half: never below better-auth's default (100 a
      // minute per address), and as high as the sign-ups themselves when those are allowed more.
      '/verify-email': { window: 60, max: Math.max(100, config.SIGN_UP_ATTEMPTS_PER_MINUTE) },
      '/one-time-token/verify': { window: 60, max: config.SIGN_IN_ATTEMPTS_PER_MINUTE },
      // The shop's own route (POST /api/v1/me/app-handoffs) also counts per member; this is the raw endpoint.
      '/one-time-token/generate': { window: 60, max: config.APP_HANDOFF_PER_MINUTE },
    },
  };
}

/** The library's log lines through the shop's logger (warnings and errors; the rest as debug). */
function loggerOf(logger: Logger): BetterAuthOptions['logger'] {
  return {
    level: 'warn',
    log: (level, message, ...args) => {
      const method = level === 'error' ? 'error' : level === 'warn' ? 'warn' : 'debug';
      logger[method]({ module: 'auth', args }, message);
    },
  };
}

function checkedNickname(name: unknown, rules: NicknameRules): string {
  const parsed = nicknameSchemaOf(rules).safeParse(name);
  if (!parsed.success)
    throw new APIError('BAD_REQUEST', {
      code: 'INVALID_NICKNAME',
      message: parsed.error.issues[0]?.message ?? 'ニックネームが正しくありません。',
    });
  return parsed.data;
}

function checkedBirthday(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'string' || !isStrictDate(value))
    throw new APIError('BAD_REQUEST', { code: 'INVALID_BIRTHDAY', message: '生年月日が正しくありません。' });
  return value;
}

/** Sign-in paths without a second step (the app's one-time token comes from an app session that had one). */
const PASSWORDLESS_SIGN_IN = [
  '/magic-link/verify',
  '/sign-in/phone-number',
  '/phone-number/verify',
  '/callback/',
  '/oauth2/callback/',
];

/** Where each path that sets a password carries it. */
const NEW_PASSWORD_FIELD: Record<string, string> = {
  '/sign-up/email': 'password',
  '/reset-password': 'newPassword',
  '/change-password': 'newPassword',
  '/set-password': 'newPassword',
  '/admin/set-user-password': 'newPassword',
};

/**
 * The password policy on every path that sets a password (the pages check it first with the same
 * rules; this holds for the raw endpoints too). Mode warn and off let the shop's own rules pass.
 */
function enforcePasswordPolicy(policy: PasswordPolicy, request: { path: string; body: unknown }) {
  const field = NEW_PASSWORD_FIELD[request.path];
  if (!field) return;
  const password = (request.body as Record<string, unknown> | undefined)?.[field];
  if (typeof password !== 'string') return;
  const check = checkPassword(policy, password);
  if (!check.acceptable)
    throw new APIError('BAD_REQUEST', {
      code: 'PASSWORD_DOES_NOT_MEET_REQUIREMENTS',
      message: check.message ?? 'パスワードが条件を満たしていません。',
    });
}

/**
 * better-auth endpoints that the shop offers only through its own pages, where the terms agreement
 * and the form rules apply; called directly, they answer 403.
 */
export const AUTH_ENDPOINTS_ONLY_THROUGH_PAGES = ['/api/auth/sign-up/', '/api/auth/update-user'];

/**
 * better-auth's admin plugin endpoints (list, ban, set role, impersonate, set password…): closed over
 * HTTP. Operators act in /admin, where each action needs its permission, the second factor, and is
 * audited in its transaction (modules/admin); the plugin stays for its columns (role, banned).
 */
export const AUTH_ADMIN_ENDPOINTS = '/api/auth/admin/';
