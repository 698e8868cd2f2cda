// better-auth, configured for the shop: email and password now; the other methods plug in here.
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { admin, bearer, genericOAuth, oneTimeToken } from 'better-auth/plugins';
import { lineOAuthConfig, type LineOAuthOptions } from './line.server';
import { accountOptionsOf, configuredSocialProviders, socialProvidersOf } from './social.server';
import { APIError } from 'better-auth/api';
import { nicknameSchema } from './forms';
import type { Database } from '#db/client';
import type { ShopConfig } from '#server/config';
import type { Logger } from '#server/logger';
import { users, sessions, accounts, verifications, rateLimits } from './schema';

import { CLIENT_IP_HEADER } from './constants';
export { CLIENT_IP_HEADER };

import { SESSION_MAX_AGE_SECONDS, SESSION_UPDATE_AGE_SECONDS } from './constants';

export { SESSION_MAX_AGE_SECONDS, SESSION_UPDATE_AGE_SECONDS };

/**
 * @example const auth = createShopAuth({ db, config, logger }); await auth.handler(request)
 */
export function createShopAuth(options: {
  db: Database;
  config: ShopConfig;
  logger: Logger;
  /** LINE sign-in and linking (line.server.ts, line.md); off when unset. */
  line?: LineOAuthOptions;
}) {
  const { db, config, logger } = options;
  return betterAuth({
    appName: config.SITE_NAME,
    baseURL: config.PUBLIC_ORIGIN,
    basePath: '/api/auth',
    secret: config.AUTH_SECRET,
    trustedOrigins: [config.PUBLIC_ORIGIN],
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: users, session: sessions, account: accounts, verification: verifications, rateLimit: rateLimits },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: config.PASSWORD_MIN_LENGTH,
      maxPasswordLength: 128,
      autoSignIn: true,
    },
    session: { expiresIn: SESSION_MAX_AGE_SECONDS, updateAge: SESSION_UPDATE_AGE_SECONDS },
    // Social sign-in and linking (social.server.ts, docs/decisions/015).
    socialProviders: socialProvidersOf(config),
    account: accountOptionsOf({ db, providers: configuredSocialProviders(config, { line: Boolean(options.line) }) }),
    // The nickname rules hold however an account is created or renamed, not only through our form.
    databaseHooks: {
      user: {
        create: { before: async (user) => ({ data: { ...user, name: checkedNickname(user.name) } }) },
        update: {
          before: async (user) => ({
            data: user.name === undefined ? user : { ...user, name: checkedNickname(user.name) },
          }),
        },
      },
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 100,
      customRules: {
        '/sign-in/email': { window: 60, max: config.SIGN_IN_ATTEMPTS_PER_MINUTE },
        '/sign-up/email': { window: 60, max: config.SIGN_UP_ATTEMPTS_PER_MINUTE },
        '/one-time-token/verify': { window: 60, max: config.SIGN_IN_ATTEMPTS_PER_MINUTE },
        // The shop's own route (POST /api/v1/me/app-handoffs) also counts per member; this is the raw endpoint.
        '/one-time-token/generate': { window: 60, max: config.APP_HANDOFF_PER_MINUTE },
      },
    },
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
      // LINE Login v2.1 (line.server.ts): sign-in, and linking for a signed-in member.
      genericOAuth({ config: options.line ? [lineOAuthConfig(options.line)] : [] }),
      // ← more plugins go here
    ],
    logger: {
      level: 'warn',
      log: (level, message, ...args) => {
        const method = level === 'error' ? 'error' : level === 'warn' ? 'warn' : 'debug';
        logger[method]({ module: 'auth', args }, message);
      },
    },
  });
}

export type ShopAuth = ReturnType<typeof createShopAuth>;

function checkedNickname(name: unknown): string {
  const parsed = nicknameSchema.safeParse(name);
  if (!parsed.success)
    throw new APIError('BAD_REQUEST', {
      code: 'INVALID_NICKNAME',
      message: parsed.error.issues[0]?.message ?? 'ニックネームが正しくありません。',
    });
  return parsed.data;
}

/**
 * better-auth endpoints that the shop offers only through its own pages, where the terms agreement
 * and the form rules apply; called directly, they answer 403.
 */
export const AUTH_ENDPOINTS_ONLY_THROUGH_PAGES = ['/api/auth/sign-up/', '/api/auth/update-user'];
