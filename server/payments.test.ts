// Payment wiring from the settings: a shop with the sandbox off never loads a stand-in (they are
// development tools in devtools/standins/), real keys build real adapters, the sandbox builds all six.
import { describe, it, expect, afterEach, vi } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '#db/client';
import { ConfigError, loadConfig } from '#server/config';
import { createLogger } from '#server/logger';
import { createPaymentServices, lineLinking, type PaymentServices } from '#server/payments';

// Every development-tool module, wrapped so that loading it is recorded: the factories run when a module
// is first imported in this file, by a static import anywhere under server/payments.ts as much as by the
// dynamic imports on the sandbox path.
const loaded = vi.hoisted(() => new Set<string>());
vi.mock('#devtools/standins/shared', async (original) => {
  loaded.add('shared');
  return original();
});
vi.mock('#devtools/standins/stripe', async (original) => {
  loaded.add('stripe');
  return original();
});
vi.mock('#devtools/standins/paypay', async (original) => {
  loaded.add('paypay');
  return original();
});
vi.mock('#devtools/standins/paidy', async (original) => {
  loaded.add('paidy');
  return original();
});
vi.mock('#devtools/standins/merpay', async (original) => {
  loaded.add('merpay');
  return original();
});
vi.mock('#devtools/standins/amazonpay', async (original) => {
  loaded.add('amazonpay');
  return original();
});
vi.mock('#devtools/standins/line', async (original) => {
  loaded.add('line');
  return original();
});

const logger = createLogger('silent');
// Building the services touches no table (the sandbox's hosted app reads its table per request only).
const db = {} as Database;
const settings = (env: Record<string, string>) =>
  loadConfig({
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-payments-')),
    // An https shop must name its address key (docs/decisions/019).
    ADDRESS_ENCRYPTION_KEYS: 'test:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    ...env,
  });

let services: PaymentServices | undefined;
afterEach(async () => {
  await services?.close();
  services = undefined;
});

describe('createPaymentServices', () => {
  it('with PAYMENT_SANDBOX=false loads no stand-in and offers no method without keys', async () => {
    const config = settings({ PUBLIC_ORIGIN: 'https://oripa.example.jp', PAYMENT_SANDBOX: 'false' });
    services = await createPaymentServices({ config, db, logger });
    const line = await lineLinking(config, logger);
    await line.close();
    expect(Object.keys(services.gateway.providers)).toEqual([]);
    expect(services.sandboxApp).toBeUndefined();
    expect(line.options).toBeUndefined();
    expect([...loaded]).toEqual([]);
  });

  it('builds the real adapter of each provider with keys, still without loading a stand-in', async () => {
    const config = settings({
      PUBLIC_ORIGIN: 'https://oripa.example.jp',
      PAYMENT_SANDBOX: 'false',
      STRIPE_SECRET_KEY: 'sk_test_abcdefghijklmnop',
      STRIPE_WEBHOOK_SECRET: 'whsec_abcdefghijklmnop',
      PAIDY_SECRET_KEY: 'sk_test_abcdefghijklmnop',
      PAIDY_PUBLIC_KEY: 'pk_test_abcdefghijklmnop',
    });
    services = await createPaymentServices({ config, db, logger });
    expect(Object.keys(services.gateway.providers).sort()).toEqual(['paidy', 'stripe']);
    expect(services.pageSources).toEqual({
      formAction: ['https:'],
      script: ['https://apps.paidy.com'],
      frame: ['https://apps.paidy.com'],
      connect: ['https://api.paidy.com', 'https://apps.paidy.com'],
    });
    expect([...loaded]).toEqual([]);
  });

  it("stops the start when a provider's keys are half set", async () => {
    const config = settings({
      PUBLIC_ORIGIN: 'https://oripa.example.jp',
      PAYMENT_SANDBOX: 'false',
      PAIDY_SECRET_KEY: 'sk_test_abcdefghijklmnop',
    });
    await expect(createPaymentServices({ config, db, logger })).rejects.toThrow(ConfigError);
  });

  it("with the sandbox on starts every stand-in and LINE's (the control: loading is recorded)", async () => {
    const config = settings({ PUBLIC_ORIGIN: 'http://localhost:3999', PAYMENT_SANDBOX: 'true' });
    services = await createPaymentServices({ config, db, logger });
    expect(Object.keys(services.gateway.providers)).toEqual([
      'sandbox',
      'stripe',
      'paypay',
      'paidy',
      'merpay',
      'amazonpay',
    ]);
    expect(services.sandboxApp).toBeDefined();
    // Each stand-in's page origin (five loopback ports) may be a checkout form's target; no real host is.
    expect(services.pageSources.formAction).toHaveLength(5);
    for (const origin of services.pageSources.formAction) expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The stand-ins themselves; their shared helpers may already sit in the worker's module cache (the
    // unit project shares it between files), so whether 'shared' is recorded here depends on file order.
    expect([...loaded].filter((name) => name !== 'shared').sort()).toEqual([
      'amazonpay',
      'merpay',
      'paidy',
      'paypay',
      'stripe',
    ]);
    const line = await lineLinking(config, logger);
    await line.close();
    expect(line.options?.baseUrls).toBeDefined();
    expect(loaded.has('line')).toBe(true);
  });
});
