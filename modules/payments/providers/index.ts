// The provider registry: one descriptor per provider folder, saying how its keys are read from the
// settings, how its real adapter is built, and how its stand-in-backed adapter is built in sandbox mode.
// server/payments.ts loops over PAYMENT_PROVIDERS; nothing here starts anything by being imported.
// Adapters are imported when a provider is configured, and stand-ins (devtools/standins/) only on
// the sandbox path, so a real shop never loads a stand-in (server/payments.test.ts proves it).
import type { Database } from '#db/client';
import type { PaymentMethod, PaymentProvider } from './types';
import { sandboxProvider } from './sandbox';
import { stripeProvider } from './stripe';
import { paypayProvider } from './paypay';
import { paidyProvider } from './paidy';
import { merpayProvider } from './merpay';
import { amazonpayProvider } from './amazonpay';

/** The settings the providers read (a structural subset of the shop's validated settings, server/config.ts). */
export interface PaymentSettings {
  PUBLIC_ORIGIN: string;
  SITE_NAME: string;
  AUTH_SECRET: string;
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  PAYPAY_API_KEY?: string;
  PAYPAY_API_SECRET?: string;
  PAYPAY_MERCHANT_ID?: string;
  PAYPAY_PRODUCTION: boolean;
  PAIDY_SECRET_KEY?: string;
  PAIDY_PUBLIC_KEY?: string;
  MERPAY_API_HOST?: string;
  MERPAY_AUTH_HOST?: string;
  MERPAY_CLIENT_ID?: string;
  MERPAY_CLIENT_SECRET?: string;
  AMAZONPAY_PUBLIC_KEY_ID?: string;
  AMAZONPAY_PRIVATE_KEY?: string;
  AMAZONPAY_PRIVATE_KEY_FILE?: string;
  AMAZONPAY_STORE_ID?: string;
  AMAZONPAY_SNS_TOPIC_ARNS?: string;
}

/** Where a provider's warnings and notices go (the shop's pino logger fits). */
export interface ProviderLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** What building a provider may use. */
export interface ProviderSetup {
  settings: PaymentSettings;
  db: Database;
  log: ProviderLog;
  /** Our webhook endpoint for this provider: `${PUBLIC_ORIGIN}/api/webhooks/<method>`. */
  webhookUrl: string;
}

/** What the pages' Content-Security-Policy must allow for a provider (server/security.ts). */
export interface ProviderPageSources {
  /** Where the checkout form may lead: a real provider's hosted pages ('https:'), or a stand-in's origin. */
  formAction?: string[];
  /** A provider's script on our page (Paidy's checkout), with its frames and calls. */
  script?: string[];
  frame?: string[];
  connect?: string[];
}

export interface BuiltProvider {
  provider: PaymentProvider;
  pageSources?: ProviderPageSources;
}

export interface SandboxedProvider extends BuiltProvider {
  /** The stand-in's page the member's browser is sent to (logged; its origin joins form-action). */
  standinUrl?: string;
  /** The shop-hosted sandbox's Hono app, mounted at /sandbox (the sandbox provider only). */
  sandboxApp?: { fetch(request: Request): Response | Promise<Response> };
  /** Stops the stand-in. */
  close(): Promise<void>;
}

/** A provider's settings are half there (the start stops with this message). */
export class ProviderSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderSettingsError';
  }
}

/**
 * One provider, as the shop wires it.
 * @example const keys = stripeProvider.keysFrom(settings); if (keys) gateway.providers.stripe = (await stripeProvider.createReal(keys, setup)).provider
 */
export interface PaymentProviderDescriptor<Keys = unknown> {
  method: PaymentMethod;
  /** The real provider's keys, or null when they are not (all) set; throws ProviderSettingsError when half set. */
  keysFrom(settings: PaymentSettings): Keys | null;
  /** The adapter for the real provider. */
  createReal(keys: Keys, setup: ProviderSetup): Promise<BuiltProvider>;
  /** Sandbox mode only: starts the local stand-in (imported here, never before) and the adapter that talks to it. */
  createSandboxed(setup: ProviderSetup): Promise<SandboxedProvider>;
}

/** Every provider, in the order the shop offers them. The sandbox has no real keys: it exists in sandbox mode only. */
export const PAYMENT_PROVIDERS: readonly PaymentProviderDescriptor[] = [
  sandboxProvider,
  stripeProvider,
  paypayProvider,
  paidyProvider,
  merpayProvider,
  amazonpayProvider,
];
