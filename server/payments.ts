// Payment wiring: builds the gateway from configuration (real provider keys, or the sandbox and the
// providers' local stand-ins on a development machine), mounts the sandbox and the webhook routes.
import { Hono } from 'hono';
import type { Database } from '../db/client';
import type { ShopConfig } from './config';
import type { Logger } from './logger';
import { apiError } from './api-error';
import { CLIENT_IP_HEADER } from '../modules/identity/auth.server';

/** Rejected webhook deliveries one client address may send in a minute before it is answered 429. */
export const WEBHOOK_REJECTIONS_PER_MINUTE = 1000;
import { ConfigError } from './config';
import type { PaymentPageSources } from './security';
import { DEFAULT_PAYMENT_RULES, processPaymentEvents, receiveWebhook, WebhookRejected, type PaymentGateway, type ShopPaymentRules } from '../modules/payments';
import { createSandboxProvider } from '../modules/payments/providers/sandbox';
import { createSandboxApp } from '../modules/payments/sandbox';
import { createStripeProvider } from '../modules/payments/providers/stripe';
import { startStripeStandin } from '../modules/payments/standins/stripe';
import { createPaidyProvider } from '../modules/payments/providers/paidy';
import { startPaidyStandin } from '../modules/payments/standins/paidy';
import { createMerpayProvider } from '../modules/payments/providers/merpay';
import { startMerpayStandin } from '../modules/payments/standins/merpay';
import { createPayPayProvider } from '../modules/payments/providers/paypay';
import { startPayPayStandin } from '../modules/payments/standins/paypay';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createAmazonpayProvider } from '../modules/payments/providers/amazonpay';
import { startAmazonpayStandin } from '../modules/payments/standins/amazonpay';
import { startLineStandin } from '../modules/identity/standins/line';
import type { LineOAuthOptions } from '../modules/identity/line.server';

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
export function paymentServicesFor(gateway: PaymentGateway, rules: ShopPaymentRules = DEFAULT_PAYMENT_RULES): PaymentServices {
  return { gateway, rules, pageSources: { formAction: [], script: [], frame: [], connect: [] }, close: async () => undefined };
}

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
    logger.warn({ origin: config.PUBLIC_ORIGIN }, 'PAYMENT_SANDBOX is on: the sandbox and the providers\' local stand-ins sell coins without payment (to browsers on this machine only). Never on a real shop.');
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

  // Each provider: real keys when configured (README, "Payments"); otherwise, on a development
  // machine, its local stand-in, started here on a free port, so every method can be walked through.
  const standins = config.paymentSandbox;
  // Real providers' hosted pages live on hosts they may change (and, for some, that only the
  // contract's documentation names), so with real providers the checkout form may lead to any
  // https page; scripts stay locked to our nonce (docs/decisions/008).
  let realHostedPages = false;
  let paidyOnOurPage = false;
  const secret = (prefix: string) => `${prefix}${randomBytes(18).toString('hex')}`;
  const webhookUrl = (name: string) => `${config.PUBLIC_ORIGIN}/api/webhooks/${name}`;
  const started = (name: string, url: string) => {
    checkoutOrigins.add(new URL(url).origin);
    logger.info({ provider: name, url }, `payment stand-in for ${name} listening`);
  };

  if (config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET) {
    gateway.providers.stripe = createStripeProvider({ secretKey: config.STRIPE_SECRET_KEY, webhookSecret: config.STRIPE_WEBHOOK_SECRET });
    realHostedPages = true;
  } else if (standins) {
    const secretKey = secret('sk_test_standin');
    const webhookSecret = secret('whsec_standin');
    const standin = await startStripeStandin({ host: '127.0.0.1', secretKey, webhookSecret, webhookUrl: webhookUrl('stripe'), businessName: config.SITE_NAME });
    closers.push(() => standin.close());
    started('stripe', standin.url);
    gateway.providers.stripe = createStripeProvider({ secretKey, webhookSecret, apiBaseUrl: standin.url, maxNetworkRetries: 0 });
  }

  if (config.PAYPAY_API_KEY && config.PAYPAY_API_SECRET && config.PAYPAY_MERCHANT_ID) {
    gateway.providers.paypay = createPayPayProvider({ apiKey: config.PAYPAY_API_KEY, apiSecret: config.PAYPAY_API_SECRET, merchantId: config.PAYPAY_MERCHANT_ID, production: config.PAYPAY_PRODUCTION });
    realHostedPages = true;
  } else if (standins) {
    const keys = { apiKey: secret('a_'), apiSecret: secret(''), merchantId: 'standin-merchant' };
    const standin = await startPayPayStandin({ host: '127.0.0.1', webhookUrl: webhookUrl('paypay'), ...keys });
    closers.push(() => standin.close());
    started('paypay', standin.cashierUrl);
    gateway.providers.paypay = createPayPayProvider({ ...keys, baseUrl: standin.url, trustedCaPem: standin.caPem });
  }

  if (config.PAIDY_SECRET_KEY) {
    if (!config.PAIDY_PUBLIC_KEY) throw new ConfigError('PAIDY_SECRET_KEY is set without PAIDY_PUBLIC_KEY: the checkout page needs the public key (pk_live_… or pk_test_…).');
    gateway.providers.paidy = createPaidyProvider({ secretKey: config.PAIDY_SECRET_KEY });
    paidyOnOurPage = true;
  } else if (standins) {
    const secretKey = secret('sk_test_standin');
    const standin = await startPaidyStandin({ host: '127.0.0.1', secretKey, webhookUrl: webhookUrl('paidy'), storeName: config.SITE_NAME });
    closers.push(() => standin.close());
    started('paidy', standin.url);
    gateway.providers.paidy = createPaidyProvider({ secretKey, apiBase: standin.url, widgetBase: standin.url });
  }

  if (config.MERPAY_API_HOST && config.MERPAY_AUTH_HOST && config.MERPAY_CLIENT_ID && config.MERPAY_CLIENT_SECRET) {
    gateway.providers.merpay = createMerpayProvider({ apiHost: config.MERPAY_API_HOST, authHost: config.MERPAY_AUTH_HOST, clientId: config.MERPAY_CLIENT_ID, clientSecret: config.MERPAY_CLIENT_SECRET });
    realHostedPages = true;
  } else if (standins) {
    // Merpay calls the confirm/completion URLs given per transaction (our webhook URL), so the stand-in needs none.
    const keys = { clientId: 'standin-client', clientSecret: secret('mp_cs_') };
    const standin = await startMerpayStandin({ host: '127.0.0.1', ...keys });
    closers.push(() => standin.close());
    started('merpay', standin.url);
    gateway.providers.merpay = createMerpayProvider({ apiBase: standin.url, authBase: standin.url, ...keys });
  }

  const amazonKey = config.AMAZONPAY_PRIVATE_KEY ?? (config.AMAZONPAY_PRIVATE_KEY_FILE ? fs.readFileSync(config.AMAZONPAY_PRIVATE_KEY_FILE, 'utf8') : undefined);
  if (config.AMAZONPAY_PUBLIC_KEY_ID && amazonKey && config.AMAZONPAY_STORE_ID) {
    gateway.providers.amazonpay = createAmazonpayProvider({
      publicKeyId: config.AMAZONPAY_PUBLIC_KEY_ID, privateKey: amazonKey, storeId: config.AMAZONPAY_STORE_ID,
      merchantStoreName: config.SITE_NAME.slice(0, 50),
      snsTopicArns: config.AMAZONPAY_SNS_TOPIC_ARNS?.split(',').map((arn) => arn.trim()).filter(Boolean),
      onSubscriptionMessage: (info) => logger.warn(info, 'Amazon Pay SNS subscription message'),
    });
    if (!config.AMAZONPAY_SNS_TOPIC_ARNS) {
      logger.warn('AMAZONPAY_SNS_TOPIC_ARNS is not set: IPNs from any SNS topic are accepted (each is still re-read with our key). Set it to the TopicArn of your first IPN.');
    }
    realHostedPages = true;
  } else if (standins) {
    // The merchant's key pair, made for this run: the stand-in checks every request's signature with it.
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
    const keys = { publicKeyId: `SANDBOX-${randomBytes(12).toString('hex').toUpperCase()}`, storeId: 'amzn1.application-oa2-client.standin' };
    const standin = await startAmazonpayStandin({ host: '127.0.0.1', webhookUrl: webhookUrl('amazonpay'), publicKey, ...keys });
    closers.push(() => standin.close());
    started('amazonpay', standin.url);
    gateway.providers.amazonpay = createAmazonpayProvider({ ...keys, privateKey, merchantStoreName: config.SITE_NAME.slice(0, 50), apiBase: standin.url, trustedSnsOrigins: [standin.snsOrigin] });
  }

  return {
    gateway,
    rules: paymentRulesOf(config),
    sandboxApp,
    pageSources: {
      formAction: [...checkoutOrigins, ...(realHostedPages ? ['https:'] : [])],
      // Paidy's checkout is its script and frames on our /shop/checkout/paidy/widget page.
      script: paidyOnOurPage ? ['https://apps.paidy.com'] : [],
      frame: paidyOnOurPage ? ['https://apps.paidy.com'] : [],
      connect: paidyOnOurPage ? ['https://api.paidy.com', 'https://apps.paidy.com'] : [],
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
export function createWebhookRoutes(options: { db: Database; payments: PaymentServices; logger: Logger; rejectionsPerMinute?: number }) {
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
      return apiError(c, 429, 'WEBHOOK_RATE_LIMITED', '確認できないWebhookが続いたため、しばらく受け付けを停止しています。', undefined);
    }
    const rawBody = await c.req.text();
    try {
      const { stored, duplicates, reply } = await receiveWebhook(db, payments.gateway, provider, { headers: c.req.raw.headers, rawBody });
      if (stored.length > 0) {
        void processPaymentEvents(db, payments.gateway, { ids: stored, rules: payments.rules })
          .catch((error) => logger.warn({ err: error, provider }, 'payment event processing failed; the sweep job retries'));
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
export async function lineLinking(config: ShopConfig, logger: Logger): Promise<{ options?: LineOAuthOptions; close(): Promise<void> }> {
  if (config.LINE_CHANNEL_ID && config.LINE_CHANNEL_SECRET) {
    return { options: { channelId: config.LINE_CHANNEL_ID, channelSecret: config.LINE_CHANNEL_SECRET }, close: async () => undefined };
  }
  if (!config.paymentSandbox) return { close: async () => undefined };
  const channel = { channelId: '1650000000', channelSecret: randomBytes(16).toString('hex') };
  const standin = await startLineStandin({ host: '127.0.0.1', ...channel, callbackUrls: [`${config.PUBLIC_ORIGIN}/api/auth/callback/line`] });
  logger.info({ url: standin.url }, 'LINE Login stand-in listening');
  return { options: { ...channel, baseUrls: standin.baseUrls }, close: () => standin.close() };
}
