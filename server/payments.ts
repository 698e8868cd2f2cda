// Payment wiring: builds the gateway from configuration (real provider keys, or the sandbox and the
// providers' local stand-ins on a development machine), mounts the sandbox and the webhook routes.
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import type { Database } from '#db/client';
import { ConfigError, type ShopConfig } from '#server/config';
import type { Logger } from '#server/logger';
import { apiError } from '#server/api-error';
import type { PaymentPageSources } from '#server/security';
import { CLIENT_IP_HEADER } from '#modules/identity';
import type { LineOAuthOptions } from '#modules/identity/server';
import {
  PAYMENT_PROVIDERS,
  processPaymentEvents,
  ProviderSettingsError,
  receiveWebhook,
  WebhookRejected,
  type PaymentGateway,
  type ProviderPageSources,
  type ShopPaymentRules,
} from '#modules/payments';

/** Rejected webhook deliveries one client address may send in a minute before it is answered 429. */
export const WEBHOOK_REJECTIONS_PER_MINUTE = 1000;

export interface PaymentServices {
  gateway: PaymentGateway;
  rules: ShopPaymentRules;
  /** The sandbox's Hono app (mounted at /sandbox), when the sandbox is on. */
  sandboxApp?: Hono;
  /** What the pages' CSP must allow: the providers' hosted pages (form-action) and Paidy's script. */
  pageSources: PaymentPageSources;
  /** Stops the local stand-ins. */
  close(): Promise<void>;
}

/** The shop's money rules from configuration. */
export const paymentRulesOf = (config: ShopConfig): ShopPaymentRules => ({
  monthlyCapJpy: config.PURCHASE_MONTHLY_CAP_JPY,
  minorMonthlyCapJpy: config.MINOR_PURCHASE_MONTHLY_CAP_JPY,
  checkoutExpiryMinutes: config.CHECKOUT_EXPIRY_MINUTES,
  paidCoinDays: config.PAID_COIN_EXPIRY_DAYS,
  freeCoinDays: config.FREE_COIN_EXPIRY_DAYS,
});

/**
 * Payment services around a given gateway, with no stand-ins to close (tests).
 * @example const payments = paymentServicesFor(sandbox.gateway)
 */
export function paymentServicesFor(gateway: PaymentGateway, rules: ShopPaymentRules): PaymentServices {
  return {
    gateway,
    rules,
    pageSources: { formAction: [], script: [], frame: [], connect: [] },
    close: async () => undefined,
  };
}

/**
 * Each provider of the registry (modules/payments/providers/<name>/index.ts): real keys when configured
 * (docs/operators.md, "Keys for each real provider"); otherwise, on a development machine (PAYMENT_SANDBOX), its local
 * stand-in, started on a free port, so every method can be walked through. With the sandbox off, no
 * stand-in module is even imported.
 * @example const payments = await createPaymentServices({ config, db, logger })
 */
export async function createPaymentServices(options: {
  config: ShopConfig;
  db: Database;
  logger: Logger;
  /** Told what became of each order (the metrics, decision 072). */
  onOutcome?: ShopPaymentRules['onOutcome'];
}): Promise<PaymentServices> {
  const { config, db, logger } = options;
  const gateway: PaymentGateway = { providers: {} };
  const closers: (() => Promise<void>)[] = [];
  const pages: ProviderPageSources[] = [];
  let sandboxApp: Hono | undefined;

  if (config.paymentSandbox) {
    logger.warn(
      { origin: config.PUBLIC_ORIGIN },
      "PAYMENT_SANDBOX is on: the sandbox and the providers' local stand-ins sell coins without payment (to browsers on this machine only). Never on a real shop.",
    );
  }
  try {
    for (const descriptor of PAYMENT_PROVIDERS) {
      const setup = {
        settings: config,
        db,
        log: logger,
        webhookUrl: `${config.PUBLIC_ORIGIN}/api/webhooks/${descriptor.method}`,
      };
      const keys = descriptor.keysFrom(config);
      if (keys) {
        const real = await descriptor.createReal(keys, setup);
        gateway.providers[descriptor.method] = real.provider;
        if (real.pageSources) pages.push(real.pageSources);
      } else if (config.paymentSandbox) {
        const sandboxed = await descriptor.createSandboxed(setup);
        closers.push(() => sandboxed.close());
        gateway.providers[descriptor.method] = sandboxed.provider;
        if (sandboxed.sandboxApp) sandboxApp = sandboxed.sandboxApp as Hono;
        if (sandboxed.standinUrl) {
          pages.push({ formAction: [new URL(sandboxed.standinUrl).origin] });
          logger.info(
            { provider: descriptor.method, url: sandboxed.standinUrl },
            `payment stand-in for ${descriptor.method} listening`,
          );
        }
      }
    }
  } catch (error) {
    await Promise.allSettled(closers.map((close) => close()));
    if (error instanceof ProviderSettingsError) throw new ConfigError(error.message);
    throw error;
  }

  const all = (kind: keyof ProviderPageSources) => [...new Set(pages.flatMap((page) => page[kind] ?? []))];
  return {
    gateway,
    rules: { ...paymentRulesOf(config), ...(options.onOutcome ? { onOutcome: options.onOutcome } : {}) },
    sandboxApp,
    pageSources: {
      // Stand-ins' origins first, then 'https:' when a real provider's hosted pages are in use: those
      // live on hosts the provider may change, so with real providers the checkout form may lead to any
      // https page; scripts stay locked to our nonce (docs/decisions/008).
      formAction: all('formAction').sort((x, y) => Number(x === 'https:') - Number(y === 'https:')),
      script: all('script'),
      frame: all('frame'),
      connect: all('connect'),
    },
    async close() {
      await Promise.allSettled(closers.map((close) => close()));
    },
  };
}

/**
 * POST /api/webhooks/{provider}: verify the signature, store each event once, answer 200, then
 * process in the background (a job also sweeps anything left). A forged delivery gets a 4xx and
 * leaves nothing behind.
 */
export function createWebhookRoutes(options: {
  db: Database;
  payments: PaymentServices;
  logger: Logger;
  rejectionsPerMinute?: number;
}) {
  const { db, payments, logger } = options;
  const limit = options.rejectionsPerMinute ?? WEBHOOK_REJECTIONS_PER_MINUTE;
  // Rejected deliveries per client address and minute (this instance): a sender that keeps failing
  // verification is answered 429 without verifying, so forgeries cannot make us call providers'
  // APIs (unsigned providers are verified that way) without end. Genuine deliveries never count.
  const rejections = new Map<string, { minute: number; count: number }>();
  const minuteNow = () => Math.floor(Date.now() / 60_000);
  const app = new Hono();
  app.post('/:provider', async (c) => {
    const provider = c.req.param('provider');
    const client = c.req.header(CLIENT_IP_HEADER) ?? '';
    const seen = rejections.get(client);
    if (seen && seen.minute === minuteNow() && seen.count >= limit) {
      return apiError(
        c,
        429,
        'WEBHOOK_RATE_LIMITED',
        '確認できないWebhookが続いたため、しばらく受け付けを停止しています。',
        undefined,
      );
    }
    const rawBody = await c.req.text();
    try {
      const { stored, duplicates, reply } = await receiveWebhook(db, payments.gateway, provider, {
        url: c.req.url,
        headers: c.req.raw.headers,
        rawBody,
      });
      if (stored.length > 0) {
        void processPaymentEvents(db, payments.gateway, { ids: stored, rules: payments.rules }).catch((error) =>
          logger.warn({ err: error, provider }, 'payment event processing failed; the sweep job retries'),
        );
      }
      // A provider that waits on a particular answer (Merpay's confirm callback) gets that answer.
      if (reply) return c.json(reply.json as object, reply.status as 200);
      return c.json({ received: stored.length, duplicates });
    } catch (error) {
      if (error instanceof WebhookRejected) {
        logger.warn({ provider, reason: error.message }, 'webhook rejected');
        const minute = minuteNow();
        const entry = rejections.get(client);
        if (entry && entry.minute === minute) entry.count += 1;
        else {
          if (rejections.size > 10_000) rejections.clear();
          rejections.set(client, { minute, count: 1 });
        }
        return apiError(c, error.status, 'WEBHOOK_REJECTED', 'Webhookの署名を確認できませんでした。');
      }
      throw error;
    }
  });
  return app;
}

/**
 * LINE account linking (/app/checkout/linelink): the configured LINE Login channel, or on a development
 * machine a local stand-in of LINE Login; none otherwise (the page then says it is unavailable).
 */
export async function lineLinking(
  config: ShopConfig,
  logger: Logger,
): Promise<{ options?: LineOAuthOptions; close(): Promise<void> }> {
  if (config.LINE_CHANNEL_ID && config.LINE_CHANNEL_SECRET) {
    return {
      options: { channelId: config.LINE_CHANNEL_ID, channelSecret: config.LINE_CHANNEL_SECRET },
      close: async () => undefined,
    };
  }
  if (!config.paymentSandbox) return { close: async () => undefined };
  // A development tool: imported on this path only, never on a shop with the sandbox off.
  const { startLineStandin } = await import('#devtools/standins/line');
  const channel = { channelId: '1650000000', channelSecret: randomBytes(16).toString('hex') };
  const standin = await startLineStandin({
    host: '127.0.0.1',
    ...channel,
    callbackUrls: [`${config.PUBLIC_ORIGIN}/api/auth/callback/line`],
  });
  logger.info({ url: standin.url }, 'LINE Login stand-in listening');
  return { options: { ...channel, baseUrls: standin.baseUrls }, close: () => standin.close() };
}
