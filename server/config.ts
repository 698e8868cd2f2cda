// Settings: read from the environment once at start, validated by zod; a bad value stops the start.
// Each module (and each server concern in server/settings/) declares its own settings with their words;
// this file is the one place that composes them and validates once (decision 065). The reference
// (docs/settings.md, `npm run docs:settings`) is written from the same declarations.
import { z } from 'zod';
import path from 'node:path';
import type { SettingDoc, SettingsContext, SettingsDeclaration } from '#modules/kernel';
import { shopSettings } from '#modules/shop';
import { identitySettings, turnstileSettingsOf, type TurnstileSettings } from '#modules/identity';
import { contentSettings } from '#modules/content';
import { walletSettings } from '#modules/wallet';
import { messagingSettings } from '#modules/messaging';
import { gachaSettings } from '#modules/gacha';
import { progressionSettings } from '#modules/progression';
import { drawSettings } from '#modules/draw';
import { paymentsSettings, paymentSandboxOf } from '#modules/payments';
import { mailboxSettings } from '#modules/mailbox';
import { adminSettings } from '#modules/admin';
import { shippingSettings } from '#modules/shipping';
import { supportSettings } from '#modules/support';
import { riskSettings } from '#modules/risk';
import { bonusSettings } from '#modules/bonus';
import { invitationSettings } from '#modules/invitation';
import { friendsSettings } from '#modules/friends';
import { farmSettings } from '#modules/farm';
import { processSettings } from './settings/process';
import { siteSettings } from './settings/site';
import { observabilitySettings } from './settings/observability';
import { mediaSettings } from './settings/media';
import { beaconSettings, readOrCreateLocalReceiptKey } from './settings/beacon';
import {
  secretSettings,
  readOrCreateLocalAddressKey,
  readOrCreateLocalSecret,
  type AddressKeySetting,
} from './settings/secrets';
import { invalidSettings } from './settings/error';

export { ConfigError } from './settings/error';
export { isRouteRedirectTarget } from './settings/site';
export type { AddressKeySetting } from './settings/secrets';
export { TURNSTILE_SCRIPT_URL, TURNSTILE_SITEVERIFY_URL, type TurnstileSettings } from '#modules/identity';

/**
 * Every declaration, in the order of the reference and of the checks between settings: the server's own
 * concerns first, then the modules in the order they may depend on each other.
 */
export const SETTINGS = [
  processSettings,
  siteSettings,
  secretSettings,
  observabilitySettings,
  mediaSettings,
  beaconSettings,
  shopSettings,
  messagingSettings,
  identitySettings,
  contentSettings,
  walletSettings,
  mailboxSettings,
  gachaSettings,
  progressionSettings,
  drawSettings,
  paymentsSettings,
  adminSettings,
  shippingSettings,
  supportSettings,
  riskSettings,
  bonusSettings,
  invitationSettings,
  friendsSettings,
  farmSettings,
] as const;

type ShapeOf<D> = D extends SettingsDeclaration<infer Shape> ? Shape : never;
type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** Every declaration's schema in one object: each setting is declared once, by its concern. */
const environmentSchema = z.object(
  Object.assign({}, ...SETTINGS.map((declaration) => declaration.shape)) as Intersection<
    ShapeOf<(typeof SETTINGS)[number]>
  >,
);

type EnvironmentValues = z.infer<typeof environmentSchema>;

export type ShopConfig = Omit<
  EnvironmentValues,
  'PUBLIC_ORIGIN' | 'AUTH_SECRET' | 'ADDRESS_ENCRYPTION_KEYS' | 'BEACON_RECEIPT_KEY'
> & {
  PUBLIC_ORIGIN: string;
  AUTH_SECRET: string;
  /** ADDRESS_ENCRYPTION_KEYS read, or the generated local key: the first seals, every one opens. */
  addressKeyring: readonly AddressKeySetting[];
  /** Absolute path of DATA_DIR. */
  dataDir: string;
  /**
   * The Ed25519 secret key (hex) that signs beacon receipts: BEACON_RECEIPT_KEY, or the generated local one
   * off https; absent on an https shop without one (beacon packs cannot be published there: decision 081).
   */
  beaconReceiptKey?: string;
  /** True when the embedded PGlite database is used (no DATABASE_URL). */
  embeddedDatabase: boolean;
  /** True when the public origin is https: cookies, HSTS. */
  httpsOrigin: boolean;
  /** PAYMENT_SANDBOX resolved: on by default only for http://localhost-style origins. */
  paymentSandbox: boolean;
  /** Cloudflare Turnstile (or its local stand-in in the sandbox) when both keys are set. */
  turnstile?: TurnstileSettings;
  /** Developer pages such as /dev/outbox: on exactly when the sandbox is (never on a real shop). */
  devToolsEnabled: boolean;
  /**
   * Sandbox only: a social provider's real host → its local stand-in (server/social-standins.ts), for the
   * providers that have no keys. The browser is sent to the stand-in's address instead of the real host.
   */
  socialStandinHosts?: Readonly<Record<string, string>>;
};

/** Settings whose value never appears in a configuration error (their docs say `secret`). */
const SECRET_SETTINGS = new Set(
  SETTINGS.flatMap((declaration) =>
    Object.entries(declaration.docs as Record<string, SettingDoc>)
      .filter(([, doc]) => doc.secret)
      .map(([name]) => name),
  ),
);

/**
 * Reads and validates the environment. The auth secret and the address key, when not given, are
 * generated once into DATA_DIR (settings/secrets.ts); production deployments set them.
 * @example const config = loadConfig(process.env)
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ShopConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = environmentSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? '?');
      // Key material never reaches a log: the message says what is wrong without the value.
      const shown = SECRET_SETTINGS.has(name) ? '(hidden)' : JSON.stringify(env[name] ?? '');
      return `${name}=${shown}: ${issue.message}`;
    });
    throw invalidSettings(lines);
  }
  const values = parsed.data;
  const publicOrigin = (values.PUBLIC_ORIGIN ?? `http://localhost:${values.PORT}`).replace(/\/$/, '');
  const context: SettingsContext = {
    publicOrigin,
    httpsOrigin: publicOrigin.startsWith('https://'),
    paymentSandbox: paymentSandboxOf(values.PAYMENT_SANDBOX, publicOrigin),
  };
  // The rules between settings, concern by concern: the first concern with a problem stops the start.
  for (const declaration of SETTINGS) {
    const problems = declaration.problems?.(values, context);
    if (problems && problems.length > 0) throw invalidSettings(problems);
  }
  const dataDir = path.resolve(values.DATA_DIR);
  return {
    ...values,
    PUBLIC_ORIGIN: publicOrigin,
    AUTH_SECRET: values.AUTH_SECRET ?? readOrCreateLocalSecret(dataDir),
    addressKeyring: values.ADDRESS_ENCRYPTION_KEYS ?? readOrCreateLocalAddressKey(dataDir),
    dataDir,
    beaconReceiptKey:
      values.BEACON_RECEIPT_KEY ?? (context.httpsOrigin ? undefined : readOrCreateLocalReceiptKey(dataDir)),
    embeddedDatabase: !values.DATABASE_URL,
    httpsOrigin: context.httpsOrigin,
    paymentSandbox: context.paymentSandbox,
    devToolsEnabled: context.paymentSandbox,
    turnstile: turnstileSettingsOf(values),
  };
}
