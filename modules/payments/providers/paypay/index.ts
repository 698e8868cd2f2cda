// PayPay's descriptor: PAYPAY_API_KEY + PAYPAY_API_SECRET + PAYPAY_MERCHANT_ID (PAYPAY_PRODUCTION for
// the production API), or in sandbox mode the local stand-in (devtools/standins/paypay). Notes: paypay.md.
import { randomBytes } from 'node:crypto';
import type { PaymentProviderDescriptor } from '../index';

export const paypayProvider: PaymentProviderDescriptor<{
  apiKey: string;
  apiSecret: string;
  merchantId: string;
  production: boolean;
}> = {
  method: 'paypay',
  keysFrom: (settings) =>
    settings.PAYPAY_API_KEY && settings.PAYPAY_API_SECRET && settings.PAYPAY_MERCHANT_ID
      ? {
          apiKey: settings.PAYPAY_API_KEY,
          apiSecret: settings.PAYPAY_API_SECRET,
          merchantId: settings.PAYPAY_MERCHANT_ID,
          production: settings.PAYPAY_PRODUCTION,
        }
      : null,
  async createReal(keys) {
    const { createPayPayProvider } = await import('./paypay');
    return { provider: createPayPayProvider(keys), pageSources: { formAction: ['https:'] } };
  },
  async createSandboxed({ webhookUrl }) {
    const [{ createPayPayProvider }, { startPayPayStandin }] = await Promise.all([
      import('./paypay'),
      import('#devtools/standins/paypay'),
    ]);
    const keys = {
      apiKey: `a_${randomBytes(18).toString('hex')}`,
      apiSecret: randomBytes(18).toString('hex'),
      merchantId: 'standin-merchant',
    };
    const standin = await startPayPayStandin({ host: '127.0.0.1', webhookUrl, ...keys });
    return {
      provider: createPayPayProvider({ ...keys, baseUrl: standin.url, trustedCaPem: standin.caPem }),
      // The member pays on the stand-in's cashier page (plain http), beside its https API.
      standinUrl: standin.cashierUrl,
      close: () => standin.close(),
    };
  },
};
