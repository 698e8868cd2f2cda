// better-auth, configured for the shop: email and password now; the other methods plug in here.
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { admin } from 'better-auth/plugins';
import type { Database } from '../../db/client';
import type { ShopConfig } from '../../server/config';
import type { Logger } from '../../server/logger';
import { users, sessions, accounts, verifications, rateLimits } from './schema';

/** The header the server sets from the socket (or the trusted proxy); clients cannot forge it. */
export const CLIENT_IP_HEADER = 'x-shop-client-ip';

export const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 30;

/**
 * @example const auth = createShopAuth({ db, config, logger }); await auth.handler(request)
 */
export function createShopAuth(options: { db: Database; config: ShopConfig; logger: Logger }) {
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
    session: { expiresIn: SESSION_MAX_AGE_SECONDS, updateAge: 60 * 60 * 24 },
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 100,
      customRules: {
        '/sign-in/email': { window: 60, max: 10 },
        '/sign-up/email': { window: 60, max: 10 },
      },
    },
    advanced: {
      // Secure everywhere: browsers accept Secure cookies on http://localhost, so development matches production.
      useSecureCookies: true,
      cookiePrefix: 'oripa',
      defaultCookieAttributes: { httpOnly: true, secure: true, sameSite: 'lax', path: '/' },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    plugins: [admin({ defaultRole: 'user', adminRoles: ['admin'] })],
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
