// Paidy's descriptor: PAIDY_SECRET_KEY (with PAIDY_PUBLIC_KEY for the page's script), or in sandbox mode
// the local stand-in (devtools/standins/paidy), which also serves the widget. Notes: paidy.md.
import { randomBytes } from 'node:crypto';
import { ProviderSettingsError, type PaymentProviderDescriptor } from '../index';

export const paidyProvider: PaymentProviderDescriptor<{ secretKey: string }> = {
  method: 'paidy',
  keysFrom(settings) {
    if (!settings.PAIDY_SECRET_KEY) return null;
    if (!settings.PAIDY_PUBLIC_KEY)
      throw new ProviderSettingsError(
        'PAIDY_SECRET_KEY is set without PAIDY_PUBLIC_KEY: the checkout page needs the public key (pk_live_… or pk_test_…).',
      );
    return { secretKey: settings.PAIDY_SECRET_KEY };
  },
  async createReal(keys) {
    const { createPaidyProvider } = await import('./paidy');
    // Paidy's checkout is its script and frames on our /shop/checkout/paidy/widget page.
    return {
      provider: createPaidyProvider(keys),
      pageSources: {
        script: ['https://apps.paidy.com'],
        frame: ['https://apps.paidy.com'],
        connect: ['https://api.paidy.com', 'https://apps.paidy.com'],
      },
    };
  },
  async createSandboxed({ settings, webhookUrl }) {
    const [{ createPaidyProvider }, { startPaidyStandin }] = await Promise.all([
      import('./paidy'),
      import('#devtools/standins/paidy'),
    ]);
    const secretKey = `sk_test_standin${randomBytes(18).toString('hex')}`;
    const standin = await startPaidyStandin({
      host: '127.0.0.1',
      secretKey,
      webhookUrl,
      storeName: settings.SITE_NAME,
    });
    return {
      provider: createPaidyProvider({ secretKey, apiBase: standin.url, widgetBase: standin.url }),
      standinUrl: standin.url,
      close: () => standin.close(),
    };
  },
};
