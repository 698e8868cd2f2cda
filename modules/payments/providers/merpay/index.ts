// メルペイ's descriptor: MERPAY_API_HOST + MERPAY_AUTH_HOST + MERPAY_CLIENT_ID + MERPAY_CLIENT_SECRET, or in
// sandbox mode the local stand-in (devtools/standins/merpay). Notes: merpay.md.
import { randomBytes } from 'node:crypto';
import type { PaymentProviderDescriptor } from '../index';

export const merpayProvider: PaymentProviderDescriptor<{
  apiHost: string;
  authHost: string;
  clientId: string;
  clientSecret: string;
}> = {
  method: 'merpay',
  keysFrom: (settings) =>
    settings.MERPAY_API_HOST && settings.MERPAY_AUTH_HOST && settings.MERPAY_CLIENT_ID && settings.MERPAY_CLIENT_SECRET
      ? {
          apiHost: settings.MERPAY_API_HOST,
          authHost: settings.MERPAY_AUTH_HOST,
          clientId: settings.MERPAY_CLIENT_ID,
          clientSecret: settings.MERPAY_CLIENT_SECRET,
        }
      : null,
  async createReal(keys) {
    const { createMerpayProvider } = await import('./merpay');
    return { provider: createMerpayProvider(keys), pageSources: { formAction: ['https:'] } };
  },
  async createSandboxed() {
    const [{ createMerpayProvider }, { startMerpayStandin }] = await Promise.all([
      import('./merpay'),
      import('#devtools/standins/merpay'),
    ]);
    // Merpay calls the confirm/completion URLs given per transaction (our webhook URL), so the stand-in needs none.
    const keys = { clientId: 'standin-client', clientSecret: `mp_cs_${randomBytes(18).toString('hex')}` };
    const standin = await startMerpayStandin({ host: '127.0.0.1', ...keys });
    return {
      provider: createMerpayProvider({ apiBase: standin.url, authBase: standin.url, ...keys }),
      standinUrl: standin.url,
      close: () => standin.close(),
    };
  },
};
