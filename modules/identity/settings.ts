// Identity's settings (decision 065): the password and nickname rules, recent sign-in, the abuse limits
// and their captcha, the shared rate limiter's Redis, and the sign-in providers' keys (LINE included).
import { z } from 'zod';
import { booleanFlag, declareSettings, wordList } from '#modules/kernel';

/** Where the captcha widget comes from and where its tokens are checked. */
export interface TurnstileSettings {
  siteKey: string;
  secretKey: string;
  /** Cloudflare's siteverify, or the stand-in's (TURNSTILE_VERIFY_URL, sandbox only). */
  verifyUrl: string;
  /** The widget's script (Cloudflare's, or the stand-in's beside its siteverify). */
  scriptUrl: string;
}

export const TURNSTILE_SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js';
export const TURNSTILE_SITEVERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

/** Sign-in provider keys that only work together (docs/features.md "Social sign-in"). */
const SIGN_IN_KEY_PAIRS = [
  ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
  ['FACEBOOK_CLIENT_ID', 'FACEBOOK_CLIENT_SECRET'],
  ['GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET'],
  ['TWITTER_CLIENT_ID', 'TWITTER_CLIENT_SECRET'],
  ['LINE_CHANNEL_ID', 'LINE_CHANNEL_SECRET'],
] as const;

const perMinute = z.coerce.number().int().min(1).max(1000);
const perHour = (max: number) => z.coerce.number().int().min(1).max(max);
const providerKey = z.string().min(1).max(300).optional();

export const identitySettings = declareSettings({
  title: 'Members, sign-in and abuse limits',
  shape: {
    PASSWORD_MIN_LENGTH: z.coerce.number().int().min(6).max(128).default(8),
    /** The shop's own password rules: off (library limits only), warn (told, accepted) or enforce (refused). */
    PASSWORD_POLICY_MODE: z.enum(['off', 'warn', 'enforce']).default('enforce'),
    /** Optional maximum password length (at most 128, better-auth's limit). */
    PASSWORD_MAX_LENGTH: z.coerce.number().int().min(6).max(128).optional(),
    PASSWORD_REQUIRE_LOWERCASE: booleanFlag.default(false),
    PASSWORD_REQUIRE_UPPERCASE: booleanFlag.default(false),
    PASSWORD_REQUIRE_NUMERIC: booleanFlag.default(false),
    PASSWORD_REQUIRE_NON_ALPHANUMERIC: booleanFlag.default(false),
    /** The LINE campaign /mypage/backfromlinecampaign rewards (its id, e.g. line-friends-2026); unset: no campaign. */
    LINE_CAMPAIGN_ID: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a short id (letters, digits, - and _)')
      .optional(),
    /** Free coins a member gets once for linking LINE through the campaign page (0: none). */
    LINE_CAMPAIGN_REWARD_COINS: z.coerce.number().int().min(0).max(100_000).default(0),
    /** The longest nickname (shown on rankings and the winners feed). */
    NICKNAME_MAX_LENGTH: z.coerce.number().int().min(4).max(40).default(20),
    /** Words a nickname may not contain, comma-separated (compared after NFKC and lower-casing). */
    NICKNAME_FORBIDDEN_WORDS: wordList('運営,公式,管理者,admin,staff,support', 20_000),
    /** Minutes a sign-in counts as recent for sensitive changes (email, unlinking, 退会); older asks for the password again. */
    REAUTH_MAX_AGE_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
    SIGN_IN_ATTEMPTS_PER_MINUTE: perMinute.default(10),
    SIGN_UP_ATTEMPTS_PER_MINUTE: perMinute.default(10),
    /** Countries whose mobile numbers may take the shop's SMS codes (ISO 3166, comma-separated; the first is the default for numbers typed without +). */
    PHONE_COUNTRIES: z
      .string()
      .default('JP')
      .transform((v) => v.split(',').map((c) => c.trim().toUpperCase()))
      .pipe(z.array(z.string().regex(/^[A-Z]{2}$/, 'must be ISO 3166 country codes such as JP,US')).min(1)),
    /** One-time tokens for the app's web view, per member and per client address (each writes a row). */
    APP_HANDOFF_PER_MINUTE: perMinute.default(10),
    /** Rate-limit counts shared by every instance in Redis (redis://…); the database counts them when unset. */
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\/\S+$/, 'must be a Redis URL such as redis://127.0.0.1:6379')
      .optional(),
    /** Password and code checks per account (email or phone number) per 15 minutes, all sign-in methods together. */
    SIGN_IN_ATTEMPTS_PER_ACCOUNT_PER_15_MINUTES: perMinute.default(20),
    /** Sign-in mails (password reset, email link, email code) per account per hour. */
    AUTH_MAILS_PER_ACCOUNT_PER_HOUR: perHour(1000).default(5),
    /** Sign-in mails per client address per hour. */
    AUTH_MAILS_PER_ADDRESS_PER_HOUR: perHour(10_000).default(20),
    /** Text messages (codes) per phone number per hour. */
    SMS_PER_NUMBER_PER_HOUR: perHour(1000).default(5),
    /** Text messages per client address per hour. */
    SMS_PER_ADDRESS_PER_HOUR: perHour(10_000).default(10),
    /** Failed password or code checks (per account, or per address) after which a captcha is required. */
    CAPTCHA_AFTER_FAILURES: perMinute.default(3),
    /** The window in which those failures are counted. */
    CAPTCHA_FAILURE_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
    /** Cloudflare Turnstile; the captcha is off when unset (then only the limits apply). Both or neither. */
    TURNSTILE_SITE_KEY: z
      .string()
      .regex(/^[\w-]{1,200}$/, 'must be the Turnstile site key')
      .optional(),
    TURNSTILE_SECRET_KEY: z
      .string()
      .regex(/^[\w.-]{1,200}$/, 'must be the Turnstile secret key')
      .optional(),
    /** A local Turnstile stand-in's siteverify URL (devtools/standins/turnstile); only with PAYMENT_SANDBOX. */
    TURNSTILE_VERIFY_URL: z.string().url().optional(),
    /** LINE Login channel for linking LINE accounts (/app/checkout/linelink). */
    LINE_CHANNEL_ID: z
      .string()
      .regex(/^\d{6,20}$/, 'must be the LINE Login channel ID (digits)')
      .optional(),
    LINE_CHANNEL_SECRET: z
      .string()
      .regex(/^[0-9a-f]{32}$/i, 'must be the 32-character LINE channel secret')
      .optional(),
    /** Social sign-in (modules/identity/social.server.ts): a provider is offered only when both its keys are set. */
    GOOGLE_CLIENT_ID: providerKey,
    GOOGLE_CLIENT_SECRET: providerKey,
    FACEBOOK_CLIENT_ID: z
      .string()
      .regex(/^\d{5,25}$/, 'must be the Facebook App ID (digits)')
      .optional(),
    FACEBOOK_CLIENT_SECRET: providerKey,
    GITHUB_CLIENT_ID: providerKey,
    GITHUB_CLIENT_SECRET: providerKey,
    /** X (Twitter) OAuth 2.0 client of the app (not the OAuth 1.0a API key). */
    TWITTER_CLIENT_ID: providerKey,
    TWITTER_CLIENT_SECRET: providerKey,
  },
  docs: identityDocs(),
  problems: (values, { paymentSandbox }) => [
    ...(values.PASSWORD_MAX_LENGTH !== undefined && values.PASSWORD_MAX_LENGTH < values.PASSWORD_MIN_LENGTH
      ? [`PASSWORD_MAX_LENGTH=${values.PASSWORD_MAX_LENGTH}: below PASSWORD_MIN_LENGTH (${values.PASSWORD_MIN_LENGTH})`]
      : []),
    // A provider's keys come in pairs: one without the other is a mistake, not "off".
    ...SIGN_IN_KEY_PAIRS.filter(([id, secret]) => Boolean(values[id]) !== Boolean(values[secret])).map(
      ([id, secret]) => `${values[id] ? secret : id}: needs to be set with ${values[id] ? id : secret}`,
    ),
    ...turnstileProblems(values, paymentSandbox),
  ],
});

type TurnstileValues = {
  TURNSTILE_SITE_KEY?: string | undefined;
  TURNSTILE_SECRET_KEY?: string | undefined;
  TURNSTILE_VERIFY_URL?: string | undefined;
};

function turnstileProblems(values: TurnstileValues, paymentSandbox: boolean): string[] {
  if (Boolean(values.TURNSTILE_SITE_KEY) !== Boolean(values.TURNSTILE_SECRET_KEY))
    return ['TURNSTILE_SITE_KEY, TURNSTILE_SECRET_KEY: set both (the captcha) or neither (no captcha)'];
  if (values.TURNSTILE_VERIFY_URL && !paymentSandbox)
    return ['TURNSTILE_VERIFY_URL: a local stand-in, only honoured with PAYMENT_SANDBOX on'];
  return [];
}

/**
 * Cloudflare Turnstile (or its local stand-in in the sandbox) when both keys are set; the settings were
 * checked by identitySettings.problems.
 */
export function turnstileSettingsOf(values: TurnstileValues): TurnstileSettings | undefined {
  const { TURNSTILE_SITE_KEY: siteKey, TURNSTILE_SECRET_KEY: secretKey, TURNSTILE_VERIFY_URL: standin } = values;
  if (!siteKey || !secretKey) return undefined;
  if (!standin) return { siteKey, secretKey, verifyUrl: TURNSTILE_SITEVERIFY_URL, scriptUrl: TURNSTILE_SCRIPT_URL };
  return { siteKey, secretKey, verifyUrl: standin, scriptUrl: new URL('/turnstile/v0/api.js', standin).toString() };
}

/** The reference's words for identity's settings (docs/settings.md). */
function identityDocs() {
  const passwordClass = (kind: string) => ({
    meaning: `a new password must contain ${kind} (sign-up, reset, change, every raw endpoint alike)`,
  });
  const pair = (provider: string) => ({
    meaning: `${provider}; both keys or neither — one alone stops the start (docs/features.md "Social sign-in")`,
  });
  return {
    PASSWORD_MIN_LENGTH: { meaning: 'password policy minimum (library floor 6)' },
    PASSWORD_POLICY_MODE: {
      meaning:
        '`enforce`: a new password must meet the policy; `warn`: the forms show what is missing and accept it; ' +
        "`off`: the library's length limits only. Published at `GET /api/v1/password-policy` (schema version 1)",
    },
    PASSWORD_MAX_LENGTH: {
      default: "(unset: 128, the library's)",
      meaning: 'password policy maximum (not below the minimum)',
    },
    PASSWORD_REQUIRE_LOWERCASE: passwordClass('a lower-case letter'),
    PASSWORD_REQUIRE_UPPERCASE: passwordClass('an upper-case letter'),
    PASSWORD_REQUIRE_NUMERIC: passwordClass('a digit'),
    PASSWORD_REQUIRE_NON_ALPHANUMERIC: passwordClass('a character that is neither a letter nor a digit'),
    LINE_CAMPAIGN_ID: {
      meaning:
        'the LINE campaign of `/mypage/backfromlinecampaign` (its id, e.g. `line-friends-2026`); unset: no campaign',
    },
    LINE_CAMPAIGN_REWARD_COINS: {
      meaning: 'free coins for linking LINE through the campaign, once per member and once per LINE account',
    },
    NICKNAME_MAX_LENGTH: { meaning: 'longest nickname (shown on rankings and the winners feed)' },
    NICKNAME_FORBIDDEN_WORDS: {
      allowed: 'comma-separated words',
      meaning: 'words a nickname may not contain (compared after NFKC and lower-casing, so ＡＤＭＩＮ is admin)',
    },
    REAUTH_MAX_AGE_MINUTES: {
      meaning:
        'sensitive changes need a sign-in at most this many minutes old: unlinking a sign-in method, changing the email ' +
        'address, and 退会 by a member without a password (members with a password type it again instead)',
    },
    SIGN_IN_ATTEMPTS_PER_MINUTE: { meaning: 'sign-in attempts allowed per client address per minute (429 beyond)' },
    SIGN_UP_ATTEMPTS_PER_MINUTE: {
      meaning:
        "sign-ups allowed per client address per minute; the confirmation link's button allows as many, and at least 100",
    },
    PHONE_COUNTRIES: {
      allowed: 'ISO 3166 country codes, comma-separated (e.g. `JP,US`)',
      meaning:
        'countries whose mobile numbers may take the SMS codes of phone verification and phone sign-in; the first is ' +
        'the country of numbers typed without `+`. Landlines and IP phones are never accepted (docs/decisions/017)',
    },
    APP_HANDOFF_PER_MINUTE: {
      meaning:
        "one-time tokens for the app's web view (`POST /api/v1/me/app-handoffs`) per member and per client address per " +
        'minute (429 `RATE_LIMITED` beyond, counted in the database)',
    },
    REDIS_URL: {
      default: '(unset: counted in the database)',
      meaning:
        'rate-limit counts shared by every instance in Redis (atomic Lua script); if Redis stops answering, the counts ' +
        'go to the database meanwhile',
    },
    SIGN_IN_ATTEMPTS_PER_ACCOUNT_PER_15_MINUTES: {
      meaning:
        'password and code checks per account (email or phone number) per 15 minutes, all sign-in methods together ' +
        '(429 beyond; a known and an unknown account are answered alike). `SIGN_IN_ATTEMPTS_PER_MINUTE` also limits ' +
        'each check endpoint per address (docs/decisions/014)',
    },
    AUTH_MAILS_PER_ACCOUNT_PER_HOUR: {
      meaning: 'sign-in mails (password reset, email link, email code) per account per hour',
    },
    AUTH_MAILS_PER_ADDRESS_PER_HOUR: { meaning: 'sign-in mails per client address per hour' },
    SMS_PER_NUMBER_PER_HOUR: { meaning: 'text messages (codes) per phone number per hour' },
    SMS_PER_ADDRESS_PER_HOUR: { meaning: 'text messages per client address per hour' },
    CAPTCHA_AFTER_FAILURES: {
      meaning:
        'failed password or code checks (per account, or per address) after which those checks need a captcha (when ' +
        "Turnstile is configured); a success clears the account's count",
    },
    CAPTCHA_FAILURE_WINDOW_MINUTES: { meaning: 'the window in which those failures are counted' },
    TURNSTILE_SITE_KEY: {
      default: '(unset: no captcha, only the limits)',
      meaning: "Cloudflare Turnstile's site key (with `TURNSTILE_SECRET_KEY`: both or neither)",
    },
    TURNSTILE_SECRET_KEY: {
      default: '(unset: no captcha, only the limits)',
      meaning: "Cloudflare Turnstile's secret key (both or neither); it stays out of the repository",
    },
    TURNSTILE_VERIFY_URL: {
      default: "(unset: Cloudflare's siteverify)",
      meaning:
        "a local Turnstile stand-in's siteverify (`devtools/standins/turnstile`; its widget script is served beside " +
        'it); refused unless `PAYMENT_SANDBOX` is on',
    },
    LINE_CHANNEL_ID: {
      meaning:
        'LINE Login channel: LINE sign-in and linking (`modules/identity/line.md`); both keys or neither. Unset on a ' +
        'sandbox shop: a local stand-in',
    },
    LINE_CHANNEL_SECRET: { meaning: "the LINE Login channel's secret (with `LINE_CHANNEL_ID`)" },
    GOOGLE_CLIENT_ID: pair('Google sign-in: the OAuth client (type "Web application") ID'),
    GOOGLE_CLIENT_SECRET: pair("Google sign-in: the OAuth client's secret"),
    FACEBOOK_CLIENT_ID: pair('Facebook Login: the App ID'),
    FACEBOOK_CLIENT_SECRET: pair('Facebook Login: the App secret'),
    GITHUB_CLIENT_ID: pair("GitHub sign-in: the OAuth app's client ID"),
    GITHUB_CLIENT_SECRET: pair("GitHub sign-in: the OAuth app's client secret"),
    TWITTER_CLIENT_ID: pair("X (Twitter) sign-in: the app's **OAuth 2.0** client ID (not the 1.0a API key)"),
    TWITTER_CLIENT_SECRET: pair("X (Twitter) sign-in: the app's OAuth 2.0 client secret"),
  };
}

/** Identity's own settings, as read (defaults applied). */
export type IdentitySettings = z.output<z.ZodObject<typeof identitySettings.shape>>;

/**
 * What identity reads of the shop's configuration: its own settings, and the shop's name, address and
 * secret. The server's ShopConfig has them all and is passed in; identity never imports the server (decision 066).
 */
export type IdentityConfig = IdentitySettings & {
  readonly SITE_NAME: string;
  readonly PUBLIC_ORIGIN: string;
  readonly AUTH_SECRET: string;
  /** The captcha's keys, when the shop has them (turnstileSettingsOf). */
  readonly turnstile?: TurnstileSettings;
};
