// Stripe's descriptor: STRIPE_SECRET_KEY + STRIPE_WEBHOOK_SECRET, or in sandbox mode the local
// stand-in (devtools/standins/stripe) on a free port. Notes: stripe.md.
import { randomBytes } from 'node:crypto';
import type { PaymentProviderDescriptor } from '../index';

export const stripeProvider: PaymentProviderDescriptor<{ secretKey: string; webhookSecret: string }> = {
  method: 'stripe',
  keysFrom: (settings) =>
    settings.STRIPE_SECRET_KEY && settings.STRIPE_WEBHOOK_SECRET
      ? { secretKey: settings.STRIPE_SECRET_KEY, webhookSecret: settings.STRIPE_WEBHOOK_SECRET }
      : null,
  async createReal(keys) {
    const { createStripeProvider } = await import('./stripe');
    // Stripe's hosted pages live on hosts it may change: the checkout form may lead to any https page.
    return { provider: createStripeProvider(keys), pageSources: { formAction: ['https:'] } };
  },
  async createSandboxed({ settings, webhookUrl }) {
    const [{ createStripeProvider }, { startStripeStandin }] = await Promise.all([
      import('./stripe'),
      import('#devtools/standins/stripe'),
    ]);
    const secretKey = `sk_test_standin${randomBytes(18).toString('hex')}`;
    const webhookSecret = `whsec_standin${randomBytes(18).toString('hex')}`;
    const standin = await startStripeStandin({
      host: '127.0.0.1',
      secretKey,
      webhookSecret,
      webhookUrl,
      businessName: settings.SITE_NAME,
    });
    return {
      provider: createStripeProvider({ secretKey, webhookSecret, apiBaseUrl: standin.url, maxNetworkRetries: 0 }),
      standinUrl: standin.url,
      close: () => standin.close(),
    };
  },
};
