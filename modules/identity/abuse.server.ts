// Sign-in abuse protection, as a better-auth before/after hook pair (docs/decisions/014):
// - limits per account (the email or phone number in the body, normalised) and per client address
//   (CLIENT_IP_HEADER) on every password or code check, sign-in mail, text message and sign-up,
//   counted atomically in the shared store (rate-limiter.server.ts); beyond a limit: 429
//   TOO_MANY_REQUESTS with Retry-After, before the endpoint runs, so a known and an unknown account
//   are answered alike;
// - failed checks counted per account and per address; after CAPTCHA_AFTER_FAILURES of them within
//   CAPTCHA_FAILURE_WINDOW_MINUTES, the checking endpoints need a Turnstile token in the
//   `x-captcha-response` header (400 CAPTCHA_REQUIRED without one, CAPTCHA_INVALID for a bad one),
//   when Turnstile is configured; a success clears the account's count (not the address's: one's
//   own account must not wash an address that guesses at others').
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { IdentityConfig } from './settings';
import type { Logger } from 'pino';
import { CAPTCHA_HEADER, CLIENT_IP_HEADER } from './constants';
import { AUTH_ERROR_MESSAGES } from './messages';
import type { RateLimiter } from './rate-limiter.server';
import { verifyTurnstile } from './turnstile.server';

/** The codes the guard answers with (Japanese words in messages.ts). */
export const ABUSE_ERROR_CODES = ['TOO_MANY_REQUESTS', 'CAPTCHA_REQUIRED', 'CAPTCHA_INVALID'] as const;

/** A siteverify call longer than this fails the captcha. */
export const TURNSTILE_TIMEOUT_MS = 5000;

/** The settings the guard reads (identity's, passed in by the server). */
export type AbuseConfig = Pick<
  IdentityConfig,
  | 'SIGN_IN_ATTEMPTS_PER_MINUTE'
  | 'SIGN_UP_ATTEMPTS_PER_MINUTE'
  | 'SIGN_IN_ATTEMPTS_PER_ACCOUNT_PER_15_MINUTES'
  | 'AUTH_MAILS_PER_ACCOUNT_PER_HOUR'
  | 'AUTH_MAILS_PER_ADDRESS_PER_HOUR'
  | 'SMS_PER_NUMBER_PER_HOUR'
  | 'SMS_PER_ADDRESS_PER_HOUR'
  | 'CAPTCHA_AFTER_FAILURES'
  | 'CAPTCHA_FAILURE_WINDOW_MINUTES'
  | 'turnstile'
>;

export interface AbuseGuardOptions {
  limiter: RateLimiter;
  config: AbuseConfig;
  logger: Logger;
  /** For siteverify (tests); the global fetch otherwise. */
  fetch?: typeof fetch;
}

/** What an endpoint is: a check of a password or code, a mail or text message sent, or a sign-up. */
type Group = 'check' | 'mail' | 'sms' | 'sign-up';
/** Where the account named by a request is: the body's email or phone number, or the two-factor cookie. */
type AccountSource = 'email' | 'phoneNumber' | 'twoFactorCookie';

interface GuardedPath {
  group: Group;
  account?: AccountSource;
  /** The captcha can be asked for (pages post these; links opened from a mail or an app cannot carry it). */
  captcha?: boolean;
}

/**
 * The better-auth endpoints the guard watches (paths without /api/auth). Endpoints of plugins that
 * are not installed simply never match.
 */
export const GUARDED_AUTH_PATHS: Readonly<Record<string, GuardedPath>> = {
  '/sign-in/email': { group: 'check', account: 'email', captcha: true },
  '/sign-in/phone-number': { group: 'check', account: 'phoneNumber', captcha: true },
  '/phone-number/verify': { group: 'check', account: 'phoneNumber', captcha: true },
  '/phone-number/reset-password': { group: 'check', account: 'phoneNumber', captcha: true },
  '/sign-in/email-otp': { group: 'check', account: 'email', captcha: true },
  '/email-otp/verify-email': { group: 'check', account: 'email', captcha: true },
  '/email-otp/check-verification-otp': { group: 'check', account: 'email', captcha: true },
  '/email-otp/reset-password': { group: 'check', account: 'email', captcha: true },
  '/two-factor/verify-totp': { group: 'check', account: 'twoFactorCookie', captcha: true },
  '/two-factor/verify-backup-code': { group: 'check', account: 'twoFactorCookie', captcha: true },
  '/two-factor/verify-otp': { group: 'check', account: 'twoFactorCookie', captcha: true },
  '/reset-password': { group: 'check', captcha: true },
  '/magic-link/verify': { group: 'check' },
  '/one-time-token/verify': { group: 'check' },
  '/request-password-reset': { group: 'mail', account: 'email' },
  '/forget-password': { group: 'mail', account: 'email' },
  '/sign-in/magic-link': { group: 'mail', account: 'email' },
  '/send-verification-email': { group: 'mail', account: 'email' },
  '/change-email': { group: 'mail' },
  '/email-otp/send-verification-otp': { group: 'mail', account: 'email' },
  '/email-otp/request-password-reset': { group: 'mail', account: 'email' },
  '/forget-password/email-otp': { group: 'mail', account: 'email' },
  '/two-factor/send-otp': { group: 'mail', account: 'twoFactorCookie' },
  '/phone-number/send-otp': { group: 'sms', account: 'phoneNumber' },
  '/phone-number/request-password-reset': { group: 'sms', account: 'phoneNumber' },
  '/phone-number/forget-password': { group: 'sms', account: 'phoneNumber' },
  '/sign-up/email': { group: 'sign-up' },
};

/** Refusals that are not a wrong secret: the password was right but the mail is not confirmed, or a new password fails the policy. */
const NOT_FAILURES = new Set([
  'EMAIL_NOT_VERIFIED',
  // A new password the policy refuses is not a guess at a secret.
  'PASSWORD_DOES_NOT_MEET_REQUIREMENTS',
  'PASSWORD_TOO_SHORT',
  'PASSWORD_TOO_LONG',
]);

interface Limit {
  key: string;
  windowSeconds: number;
  max: number;
}

/** The limits one request takes: per address and, when the request names one, per account. */
function limitsOf(path: string, rule: GuardedPath, who: Who, config: AbuseConfig): Limit[] {
  const limits: Limit[] = [];
  const add = (key: string | undefined, windowSeconds: number, max: number) => {
    if (key) limits.push({ key, windowSeconds, max });
  };
  switch (rule.group) {
    case 'check':
      // Per address and endpoint per minute (as better-auth's own limiter, but atomic); per account
      // over every way of checking a secret, so rotating methods gains nothing.
      add(`limit:check${path}:address:${who.address}`, 60, config.SIGN_IN_ATTEMPTS_PER_MINUTE);
      add(
        who.account && `limit:check:account:${who.account}`,
        15 * 60,
        config.SIGN_IN_ATTEMPTS_PER_ACCOUNT_PER_15_MINUTES,
      );
      break;
    case 'mail':
      add(`limit:mail:address:${who.address}`, 3600, config.AUTH_MAILS_PER_ADDRESS_PER_HOUR);
      add(who.account && `limit:mail:account:${who.account}`, 3600, config.AUTH_MAILS_PER_ACCOUNT_PER_HOUR);
      break;
    case 'sms':
      add(`limit:sms:address:${who.address}`, 3600, config.SMS_PER_ADDRESS_PER_HOUR);
      add(who.account && `limit:sms:account:${who.account}`, 3600, config.SMS_PER_NUMBER_PER_HOUR);
      break;
    case 'sign-up':
      add(`limit:sign-up:address:${who.address}`, 60, config.SIGN_UP_ATTEMPTS_PER_MINUTE);
      break;
  }
  return limits;
}

const failureKeys = (who: Who) => ({
  address: `failures:address:${who.address}`,
  account: who.account ? `failures:account:${who.account}` : undefined,
});

/** Who a request is: its client address (an IPv6 /64 as one) and the account it names, both as keys. */
interface Who {
  address: string;
  account?: string;
}

/**
 * The guard's hook pair; the lead wires it into createShopAuth as `hooks: abuseGuard(…)`.
 * @example betterAuth({ …, hooks: abuseGuard({ limiter, config, logger }) })
 */
export function abuseGuard(
  options: AbuseGuardOptions & {
    /** Checks of the caller's own that run after the guard lets a request through (one hooks pair per auth). */
    alsoBefore?: (request: { path: string; body: unknown }) => void | Promise<void>;
  },
) {
  const { limiter, config, logger } = options;
  const failureWindow = config.CAPTCHA_FAILURE_WINDOW_MINUTES * 60;

  const before = createAuthMiddleware(async (ctx) => {
    await guard();
    // The caller's own checks (the password policy) run once the request is let through.
    await options.alsoBefore?.({ path: ctx.path, body: ctx.body });

    async function guard() {
      const rule = GUARDED_AUTH_PATHS[ctx.path];
      // Only requests from outside (the HTTP handler, which the pages reach through callAuth); the
      // shop's own server-side `auth.api` calls are trusted, as better-auth's own limiter treats them.
      if (!rule || !ctx.request) return;
      const headers = ctx.headers ?? ctx.request?.headers;
      const who = whoOf(rule, ctx.body, headers);

      const decisions = await Promise.all(
        limitsOf(ctx.path, rule, who, config).map((limit) => limiter.take(limit.key, limit.windowSeconds, limit.max)),
      );
      const refused = decisions.flatMap((decision) => (decision.allowed ? [] : [decision.retryAfterSeconds]));
      if (refused.length > 0) {
        const retryAfter = Math.max(...refused);
        logger.info({ path: ctx.path, group: rule.group, retryAfter }, 'auth abuse guard: rate limited');
        throw new APIError(
          'TOO_MANY_REQUESTS',
          { code: 'TOO_MANY_REQUESTS', message: AUTH_ERROR_MESSAGES.TOO_MANY_REQUESTS! },
          { 'Retry-After': String(retryAfter) },
        );
      }

      if (!rule.captcha || !config.turnstile) return;
      if (!(await captchaNeededFor(limiter, config, who))) return;
      const token = headers?.get(CAPTCHA_HEADER);
      if (!token) {
        throw new APIError('BAD_REQUEST', {
          code: 'CAPTCHA_REQUIRED',
          message: AUTH_ERROR_MESSAGES.CAPTCHA_REQUIRED!,
        });
      }
      const verification = await verifyTurnstile(token, rawAddressOf(headers), {
        secretKey: config.turnstile.secretKey,
        verifyUrl: config.turnstile.verifyUrl,
        fetch: options.fetch,
        timeoutMs: TURNSTILE_TIMEOUT_MS,
      });
      if (!verification.success) {
        if (verification.errorCodes.includes('network-error'))
          logger.error({ errorCodes: verification.errorCodes }, 'auth abuse guard: Turnstile siteverify unreachable');
        throw new APIError('BAD_REQUEST', { code: 'CAPTCHA_INVALID', message: AUTH_ERROR_MESSAGES.CAPTCHA_INVALID! });
      }
    }
  });

  const after = createAuthMiddleware(async (ctx) => {
    const rule = GUARDED_AUTH_PATHS[ctx.path];
    if (!rule || rule.group !== 'check' || !ctx.request) return;
    const who = whoOf(rule, ctx.body, ctx.headers ?? ctx.request?.headers);
    const keys = failureKeys(who);
    const returned = ctx.context.returned;
    if (isAPIError(returned)) {
      const status = returned.statusCode;
      const code = (returned.body as { code?: string } | undefined)?.code;
      if (status < 400 || status >= 500 || status === 429 || (code && NOT_FAILURES.has(code))) return;
      await Promise.all([
        limiter.count(keys.address, failureWindow),
        keys.account ? limiter.count(keys.account, failureWindow) : undefined,
      ]);
      return;
    }
    if (keys.account) await limiter.reset(keys.account);
  });

  return { before, after };
}

/**
 * Whether the next password or code check for this account from this address needs a captcha now,
 * so a page can show the widget before the member types (false when Turnstile is off).
 * @example if (await captchaRequired({ limiter, config }, { email, address: request.headers.get(CLIENT_IP_HEADER) })) …
 */
export async function captchaRequired(
  options: { limiter: RateLimiter; config: AbuseConfig },
  input: { email?: string; phoneNumber?: string; address?: string | null },
): Promise<boolean> {
  if (!options.config.turnstile) return false;
  const account =
    input.email !== undefined
      ? accountKey('email', input.email)
      : input.phoneNumber !== undefined
        ? accountKey('phoneNumber', input.phoneNumber)
        : undefined;
  return captchaNeededFor(options.limiter, options.config, { address: addressKey(input.address), account });
}

async function captchaNeededFor(limiter: RateLimiter, config: AbuseConfig, who: Who): Promise<boolean> {
  const keys = failureKeys(who);
  const window = config.CAPTCHA_FAILURE_WINDOW_MINUTES * 60;
  const counts = await Promise.all([
    limiter.peek(keys.address, window),
    keys.account ? limiter.peek(keys.account, window) : { count: 0 },
  ]);
  return counts.some(({ count }) => count >= config.CAPTCHA_AFTER_FAILURES);
}

function whoOf(rule: GuardedPath, body: unknown, headers: Headers | undefined): Who {
  const address = addressKey(rawAddressOf(headers));
  if (!rule.account) return { address };
  if (rule.account === 'twoFactorCookie') {
    const cookie = twoFactorCookieOf(headers?.get('cookie'));
    return { address, account: cookie ? accountKey('twoFactorCookie', cookie) : undefined };
  }
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[rule.account] : undefined;
  return { address, account: typeof value === 'string' ? accountKey(rule.account, value) : undefined };
}

const rawAddressOf = (headers: Headers | undefined) => headers?.get(CLIENT_IP_HEADER) ?? undefined;

/**
 * An account as a key: the normalised email or phone number (E.164, Japanese numbers by default),
 * hashed so the store holds no address book.
 * @example accountKey('email', ' Taro@Example.JP ') === accountKey('email', 'taro@example.jp')
 */
export function accountKey(source: AccountSource, value: string): string {
  return createHash('sha256')
    .update(`${source}:${normaliseAccount(source, value)}`)
    .digest('hex')
    .slice(0, 32);
}

/** @example normaliseAccount('phoneNumber', '090-1234-5678') === '+819012345678' */
export function normaliseAccount(source: AccountSource, value: string): string {
  const trimmed = value.normalize('NFKC').trim();
  if (source === 'email') return trimmed.toLowerCase();
  if (source === 'phoneNumber') {
    const parsed = parsePhoneNumberFromString(trimmed, 'JP');
    return parsed?.isPossible() ? parsed.number : trimmed.replace(/[^\d+]/g, '');
  }
  return trimmed;
}

/**
 * The client address as a key: IPv4 as it is, IPv6 cut to its /64 (one subscriber's whole block),
 * anything else (no header: a direct auth.api call) as `unknown`.
 * @example addressKey('2001:db8:1:2:3:4:5:6') === '2001:db8:1:2::/64'
 */
export function addressKey(address: string | null | undefined): string {
  if (!address) return 'unknown';
  const version = isIP(address);
  if (version === 4) return address;
  if (version !== 6) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  return `${expandIpv6(address).slice(0, 4).join(':')}::/64`;
}

function expandIpv6(address: string): string[] {
  const [head = '', tail] = address.toLowerCase().split('::');
  const part = (s: string) => (s ? s.split(':') : []);
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  // An embedded IPv4 tail (::1.2.3.4) takes two groups; only the first four groups matter here.
  const missing = 8 - left.length - right.length - right.filter((g) => g.includes('.')).length;
  return [...left, ...Array<string>(Math.max(0, missing)).fill('0'), ...right].map((g) =>
    g.includes('.') ? g : String(parseInt(g, 16).toString(16)),
  );
}

/** The two-factor cookie's value (better-auth names it `<prefix>.two_factor`, `__Secure-` on https). */
function twoFactorCookieOf(cookieHeader: string | null | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const [name, ...rest] = pair.trim().split('=');
    if (name?.endsWith('.two_factor') && rest.length) return rest.join('=');
  }
  return undefined;
}
