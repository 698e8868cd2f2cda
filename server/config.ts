// Settings: read from the environment once at start, validated by zod; a bad value stops the start.
import { z } from 'zod';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

// A DNS host name with an optional port, as Merpay's SDK takes its hosts (it adds https:// itself).
const merpayHost =
  /^(?=.{1,253}(?::\d{1,5})?$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(?::\d{1,5})?$/;

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /** PostgreSQL: migrate as this URL's role (the owner), serve as DATABASE_URL's (`npm run db:roles`, docs/decisions/010). */
  DATABASE_MIGRATION_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  PUBLIC_ORIGIN: z
    .string()
    .url()
    .refine(
      (v) => /^https?:\/\/[^/]+$/.test(v.replace(/\/$/, '')),
      'must be an origin such as https://example.jp (no path)',
    )
    .optional(),
  SITE_NAME: z.string().min(1).max(60).default('オリパ ステラ'),
  SITE_TAGLINE: z.string().min(1).max(120).default('オリパ ステラ｜公平・透明なオンラインオリパ'),
  /** The meta description of pages that have none of their own (search results show it under the title). */
  SITE_DESCRIPTION: z
    .string()
    .min(1)
    .max(300)
    .default(
      'オリパ ステラは、ポケモンカードやワンピースカードのオンラインオリパ。排出率と残り口数をいつでも公開し、抽選結果を後から検証できる、公平で透明なオリパをお届けします。',
    ),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEMO_DATA: booleanFlag.default(true),
  TRUST_PROXY: booleanFlag.default(false),
  PASSWORD_MIN_LENGTH: z.coerce.number().int().min(6).max(128).default(8),
  SIGN_IN_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(10),
  SIGN_UP_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(10),
  /** One-time tokens for the app's web view, per member and per client address (each writes a row). */
  APP_HANDOFF_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(10),
  BUILD_POLL_SECONDS: z.coerce.number().int().min(10).max(86400).default(300),
  JOBS_ENABLED: booleanFlag.default(true),
  /** Encode the home page's images into the cache after start (off in test shops: it competes for the cores). */
  IMAGE_WARM_UP: booleanFlag.default(true),
  IMAGE_CACHE_MAX_MB: z.coerce.number().int().min(1).max(1_048_576).default(1024),
  /** Days a prize waits for the member's choice before it is converted to coins. */
  PRIZE_DECISION_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  /** A prize worth at least this many coins is named in a conversion's confirmation (with S賞 and above). */
  PRIZE_HIGHLIGHT_COINS: z.coerce.number().int().min(1).max(100_000_000).default(10_000),
  /** Lifetime of paid coins (資金決済法: keep within 180 days for the exemption). */
  PAID_COIN_EXPIRY_DAYS: z.coerce.number().int().min(1).max(180).default(180),
  /** Lifetime of free coins unless a grant says otherwise. */
  FREE_COIN_EXPIRY_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** Monthly purchase cap per member in JPY (Japan time calendar month). */
  PURCHASE_MONTHLY_CAP_JPY: z.coerce.number().int().min(1).max(100_000_000).default(500_000),
  /** Monthly purchase cap for members who declared they are under 18. */
  MINOR_PURCHASE_MONTHLY_CAP_JPY: z.coerce.number().int().min(0).max(100_000_000).default(10_000),
  /** Minutes a started checkout may take before it is expired (its amount counts against the cap meanwhile). */
  CHECKOUT_EXPIRY_MINUTES: z.coerce.number().int().min(5).max(1440).default(60),
  /**
   * The sandbox payment method and the local stand-ins of every provider (development, demo, tests).
   * Default: on for http://localhost (or 127.0.0.1) origins, a developer's machine; off otherwise.
   */
  PAYMENT_SANDBOX: booleanFlag.optional(),
  /** The seller named on the confirmation screen and receipts (特定商取引法). */
  SELLER_NAME: z.string().min(1).max(120).default('株式会社ステラトレーディング（デモ）'),
  /** The native app's return address after an app checkout, e.g. oripastella://checkout/complete. */
  APP_RETURN_URL: z
    .string()
    .regex(/^[a-z][a-z0-9+.-]*:\/\/\S+$/, 'must be an app URL such as oripastella://checkout/complete')
    .default('oripastella://checkout/complete'),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_live_… or sk_test_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, 'must be a Stripe webhook signing secret (whsec_…)')
    .optional(),
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
  GOOGLE_CLIENT_ID: z.string().min(1).max(300).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).max(300).optional(),
  FACEBOOK_CLIENT_ID: z
    .string()
    .regex(/^\d{5,25}$/, 'must be the Facebook App ID (digits)')
    .optional(),
  FACEBOOK_CLIENT_SECRET: z.string().min(1).max(300).optional(),
  GITHUB_CLIENT_ID: z.string().min(1).max(300).optional(),
  GITHUB_CLIENT_SECRET: z.string().min(1).max(300).optional(),
  /** X (Twitter) OAuth 2.0 client of the app (not the OAuth 1.0a API key). */
  TWITTER_CLIENT_ID: z.string().min(1).max(300).optional(),
  TWITTER_CLIENT_SECRET: z.string().min(1).max(300).optional(),
  /** Unlinking a sign-in method needs a session younger than this; otherwise the member signs in again first. */
  REAUTH_MAX_AGE_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
  PAYPAY_API_KEY: z.string().min(8).optional(),
  PAYPAY_API_SECRET: z.string().min(8).optional(),
  PAYPAY_MERCHANT_ID: z.string().min(1).max(100).optional(),
  /** true: PayPay's production API; otherwise its sandbox. */
  PAYPAY_PRODUCTION: booleanFlag.default(false),
  AMAZONPAY_PUBLIC_KEY_ID: z
    .string()
    .regex(/^(SANDBOX-|LIVE-)?[A-Z0-9]{10,40}$/, 'must be the Amazon Pay public key id (e.g. LIVE-AEXAMPLE…)')
    .optional(),
  /** The PEM private key itself, or use AMAZONPAY_PRIVATE_KEY_FILE. */
  AMAZONPAY_PRIVATE_KEY: z.string().includes('PRIVATE KEY', { message: 'must be a PEM private key' }).optional(),
  AMAZONPAY_PRIVATE_KEY_FILE: z
    .string()
    .min(1)
    .refine((file) => fs.existsSync(file), 'file not found')
    .optional(),
  AMAZONPAY_STORE_ID: z
    .string()
    .startsWith('amzn1.application-oa2-client.', 'must be the Amazon Pay store id (amzn1.application-oa2-client.…)')
    .optional(),
  /** Comma-separated SNS topic ARNs whose IPNs are accepted (recommended). */
  AMAZONPAY_SNS_TOPIC_ARNS: z.string().optional(),
  PAIDY_SECRET_KEY: z
    .string()
    .regex(/^sk_(live|test)_\w+$/, 'must be a Paidy secret key (sk_live_… or sk_test_…)')
    .optional(),
  PAIDY_PUBLIC_KEY: z
    .string()
    .regex(/^pk_(live|test)_\w+$/, 'must be a Paidy public key (pk_live_… or pk_test_…)')
    .optional(),
  /** Merpay's API host name from the contract (no scheme or path); the adapter calls https://<host>/v1/…. */
  MERPAY_API_HOST: z
    .string()
    .regex(merpayHost, 'must be a host name without scheme or path (e.g. api.example.jp)')
    .optional(),
  /** Merpay's authentication host name; tokens come from https://<host>/jp/v1/token. */
  MERPAY_AUTH_HOST: z
    .string()
    .regex(merpayHost, 'must be a host name without scheme or path (e.g. auth.example.jp)')
    .optional(),
  /** OAuth2 client credentials Merpay issues for the Online payments API. */
  MERPAY_CLIENT_ID: z.string().min(1).max(200).optional(),
  MERPAY_CLIENT_SECRET: z.string().min(8).max(500).optional(),
});

export type ShopConfig = Omit<z.infer<typeof environmentSchema>, 'PUBLIC_ORIGIN' | 'AUTH_SECRET'> & {
  PUBLIC_ORIGIN: string;
  AUTH_SECRET: string;
  /** Absolute path of DATA_DIR. */
  dataDir: string;
  /** True when the embedded PGlite database is used (no DATABASE_URL). */
  embeddedDatabase: boolean;
  /** True when the public origin is https: cookies, HSTS. */
  httpsOrigin: boolean;
  /** PAYMENT_SANDBOX resolved: on by default only for http://localhost-style origins. */
  paymentSandbox: boolean;
};

/** Sign-in provider keys that only work together (README "Social sign-in"). */
const SIGN_IN_KEY_PAIRS = [
  ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
  ['FACEBOOK_CLIENT_ID', 'FACEBOOK_CLIENT_SECRET'],
  ['GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET'],
  ['TWITTER_CLIENT_ID', 'TWITTER_CLIENT_SECRET'],
  ['LINE_CHANNEL_ID', 'LINE_CHANNEL_SECRET'],
] as const;

/** A configuration error that names the offending variables; main prints it and exits 1. */
export class ConfigError extends Error {}

/**
 * Reads and validates the environment. The auth secret, when not given, is generated once and kept
 * in DATA_DIR/auth-secret (mode 600) so `npm start` works on a fresh machine without a secret in
 * the repository; production deployments should set AUTH_SECRET.
 * @example const config = loadConfig(process.env)
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ShopConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = environmentSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? '?');
      return `  ${name}=${JSON.stringify(env[name] ?? '')}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid settings in the environment:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  if (values.DATABASE_MIGRATION_URL && !values.DATABASE_URL) {
    throw new ConfigError(
      'Invalid settings in the environment:\n  DATABASE_MIGRATION_URL: needs DATABASE_URL (the embedded database has no roles)',
    );
  }
  // A provider's keys come in pairs: one without the other is a mistake, not "off".
  const halfPairs = SIGN_IN_KEY_PAIRS.filter(([id, secret]) => Boolean(values[id]) !== Boolean(values[secret]));
  if (halfPairs.length > 0) {
    const lines = halfPairs.map(
      ([id, secret]) => `  ${values[id] ? secret : id}: needs to be set with ${values[id] ? id : secret}`,
    );
    throw new ConfigError(`Invalid settings in the environment:\n${lines.join('\n')}`);
  }
  const dataDir = path.resolve(values.DATA_DIR);
  const publicOrigin = (values.PUBLIC_ORIGIN ?? `http://localhost:${values.PORT}`).replace(/\/$/, '');
  return {
    ...values,
    PUBLIC_ORIGIN: publicOrigin,
    AUTH_SECRET: values.AUTH_SECRET ?? readOrCreateLocalSecret(dataDir),
    dataDir,
    embeddedDatabase: !values.DATABASE_URL,
    httpsOrigin: publicOrigin.startsWith('https://'),
    // Only a developer's own machine gets it by default: an http origin on a loopback host.
    paymentSandbox: values.PAYMENT_SANDBOX ?? /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(publicOrigin),
  };
}

function readOrCreateLocalSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first start: fall through and create it
  }
  const secret = crypto.randomBytes(32).toString('base64url');
  fs.writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}
