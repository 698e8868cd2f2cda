// The sandbox provider's descriptor: no real keys exist; in sandbox mode the shop hosts it at /sandbox
// (hosted.ts: API, 承認 / 拒否 / キャンセル page, signed webhooks) and sandbox.ts is its adapter.
import type { PaymentProviderDescriptor } from '../index';

export const sandboxProvider: PaymentProviderDescriptor<never> = {
  method: 'sandbox',
  keysFrom: () => null,
  createReal: () => Promise.reject(new Error('the sandbox has no real provider')),
  async createSandboxed({ settings, db, log }) {
    const [{ createSandboxApp }, { createSandboxProvider }] = await Promise.all([
      import('./hosted'),
      import('./sandbox'),
    ]);
    // Secrets of a local test provider, derived from the shop's own secret: nothing to configure.
    const secretKey = `sk_sandbox_${settings.AUTH_SECRET.slice(0, 16)}`;
    const webhookSecret = `whsec_sandbox_${settings.AUTH_SECRET.slice(16, 40)}`;
    const publicBase = `${settings.PUBLIC_ORIGIN}/sandbox`;
    const app = createSandboxApp({
      db,
      publicBase,
      secretKey,
      webhookSecret,
      onDeliveryError: (error, url) => log.warn({ err: error, url }, 'sandbox webhook delivery failed'),
    });
    const provider = createSandboxProvider({
      apiBase: `${publicBase}/api`,
      secretKey,
      webhookSecret,
      // In-process: the adapter still speaks HTTP requests and responses, without a socket.
      fetch: (url, init) => Promise.resolve(app.request(url.slice(publicBase.length), init)),
    });
    return { provider, sandboxApp: app, close: async () => undefined };
  },
};
