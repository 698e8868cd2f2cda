// Payment wiring: builds the gateway from configuration (real provider keys, or the sandbox and the
// providers' local stand-ins on a development machine), mounts the sandbox and the webhook routes.
import { Hono } from 'hono';
import type { Database } from '../db/client';
import type { ShopConfig } from './config';
import type { Logger } from './logger';
import { apiError } from './api-error';
import { processPaymentEvents, receiveWebhook, WebhookRejected, type PaymentGateway, type ShopPaymentRules } from '../modules/payments';
import { createSandboxProvider } from '../modules/payments/providers/sandbox';
import { createSandboxApp } from '../modules/payments/sandbox';

export interface PaymentServices {
  gateway: PaymentGateway;
  rules: ShopPaymentRules;
  /** The sandbox's Hono app (mounted at /sandbox), when the sandbox is on. */
  sandboxApp?: Hono;
  /** Origins of the providers' hosted pages: the checkout form's redirect must be allowed to go there (CSP form-action). */
  checkoutOrigins: string[];
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
 * @example const payments = await createPaymentServices({ config, db, logger })
 */
export async function createPaymentServices(options: { config: ShopConfig; db: Database; logger: Logger }): Promise<PaymentServices> {
  const { config, db, logger } = options;
  const gateway: PaymentGateway = { providers: {} };
  const checkoutOrigins = new Set<string>();
  const closers: (() => Promise<void>)[] = [];
  let sandboxApp: Hono | undefined;

  if (config.paymentSandbox) {
    if (config.httpsOrigin) logger.warn('PAYMENT_SANDBOX is on for an https origin: members can get coins without paying. Turn it off on a real shop.');
    // Secrets of a local test provider, derived from the shop's own secret: nothing to configure.
    const secretKey = `sk_sandbox_${config.AUTH_SECRET.slice(0, 16)}`;
    const webhookSecret = `whsec_sandbox_${config.AUTH_SECRET.slice(16, 40)}`;
    const publicBase = `${config.PUBLIC_ORIGIN}/sandbox`;
    sandboxApp = createSandboxApp({
      db, publicBase, secretKey, webhookSecret,
      onDeliveryError: (error, url) => logger.warn({ err: error, url }, 'sandbox webhook delivery failed'),
    }) as unknown as Hono;
    const app = sandboxApp;
    gateway.providers.sandbox = createSandboxProvider({
      apiBase: `${publicBase}/api`, secretKey, webhookSecret,
      // In-process: the adapter still speaks HTTP requests and responses, without a socket.
      fetch: (url, init) => Promise.resolve(app.request(url.slice(publicBase.length), init)),
    });
  }

  // Real providers are added here when their keys are configured (see the README, "Payments").
  return {
    gateway,
    rules: paymentRulesOf(config),
    sandboxApp,
    checkoutOrigins: [...checkoutOrigins],
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
export function createWebhookRoutes(options: { db: Database; payments: PaymentServices; logger: Logger }) {
  const { db, payments, logger } = options;
  const app = new Hono();
  app.post('/:provider', async (c) => {
    const provider = c.req.param('provider');
    const rawBody = await c.req.text();
    try {
      const { stored, duplicates } = await receiveWebhook(db, payments.gateway, provider, { headers: c.req.raw.headers, rawBody });
      if (stored.length > 0) {
        void processPaymentEvents(db, payments.gateway, { ids: stored, rules: payments.rules })
          .catch((error) => logger.warn({ err: error, provider }, 'payment event processing failed; the sweep job retries'));
      }
      return c.json({ received: stored.length, duplicates });
    } catch (error) {
      if (error instanceof WebhookRejected) {
        logger.warn({ provider, reason: error.message }, 'webhook rejected');
        return apiError(c, error.status, 'WEBHOOK_REJECTED', 'Webhookの署名を確認できませんでした。');
      }
      throw error;
    }
  });
  return app;
}
