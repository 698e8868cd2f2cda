// Test support for the coin shop (imported by tests only): a sandbox provider on a test database,
// with its webhooks captured instead of sent, and helpers that pay as a member would.
import type { Hono } from 'hono';
import type { Database } from '#db/client';
import { createSandboxApp } from './providers/sandbox/hosted';
import { createSandboxProvider } from './providers/sandbox/sandbox';
import { DEFAULT_PAYMENT_RULES, declareAge, ensureDefaultCoinPacks, startCheckout, type PaymentGateway } from './index';

export const TEST_ORIGIN = 'http://shop.test';
export const SANDBOX_SECRET = 'sk_sandbox_test_secret';
export const SANDBOX_WEBHOOK_SECRET = 'whsec_sandbox_test_secret';

export interface CapturedWebhook {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface SandboxHarness {
  gateway: PaymentGateway;
  app: Hono;
  /** Webhooks the sandbox sent, in order. */
  webhooks: CapturedWebhook[];
  /** Resolves when `count` webhooks have been captured. */
  waitForWebhooks(count: number): Promise<CapturedWebhook[]>;
  /** Resolves with the webhook of one event type for one order (deliveries are asynchronous, like a provider's). */
  waitForEvent(type: string, orderId: string): Promise<CapturedWebhook>;
  /** Presses a button on the hosted page as the member would; answers the redirect's URL. */
  decide(checkoutUrl: string, decision: 'approve' | 'decline' | 'cancel'): Promise<URL>;
  /** Calls the sandbox API (refunds, disputes) as the adapter does. */
  api(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response>;
}

/** @example const sandbox = sandboxHarness(db); const { redirectUrl } = await startCheckout(db, sandbox.gateway, …) */
export function sandboxHarness(db: Database, options: { webhookDelayMs?: number } = {}): SandboxHarness {
  const webhooks: CapturedWebhook[] = [];
  const waiters: (() => void)[] = [];
  const publicBase = `${TEST_ORIGIN}/sandbox`;
  const app = createSandboxApp({
    db,
    publicBase,
    secretKey: SANDBOX_SECRET,
    webhookSecret: SANDBOX_WEBHOOK_SECRET,
    webhookDelayMs: options.webhookDelayMs,
    deliver: async (url, body, headers) => {
      webhooks.push({ url, body, headers });
      waiters.splice(0).forEach((wake) => wake());
      return 200;
    },
  }) as unknown as Hono;
  const request = (path: string, init?: RequestInit) => Promise.resolve(app.request(path, init));
  const gateway: PaymentGateway = {
    providers: {
      sandbox: createSandboxProvider({
        apiBase: `${publicBase}/api`,
        secretKey: SANDBOX_SECRET,
        webhookSecret: SANDBOX_WEBHOOK_SECRET,
        fetch: (url, init) => request(url.slice(publicBase.length), init),
      }),
    },
  };
  return {
    gateway,
    app,
    webhooks,
    async waitForWebhooks(count) {
      const deadline = Date.now() + 10_000;
      while (webhooks.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} webhooks, got ${webhooks.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return webhooks.slice(0, count);
    },
    async waitForEvent(type, orderId) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = webhooks.find((w) => {
          const event = JSON.parse(w.body) as { type: string; data: { payment: { reference: string } } };
          return event.type === type && event.data.payment.reference === orderId;
        });
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no ${type} webhook for ${orderId}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    async decide(checkoutUrl, decision) {
      const path = new URL(checkoutUrl).pathname.replace(/^\/sandbox/, '');
      const response = await request(path, { method: 'POST', body: new URLSearchParams({ decision }) });
      if (response.status !== 303) throw new Error(`hosted page answered ${response.status}`);
      return new URL(response.headers.get('location')!);
    },
    api: (method, path, body) =>
      request(`/api${path}`, {
        method,
        headers: { authorization: `Bearer ${SANDBOX_SECRET}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
  };
}

/** A member who declared their age and started a sandbox checkout of `packId`. */
export async function checkoutAsMember(
  db: Database,
  gateway: PaymentGateway,
  memberId: string,
  packId = 'coin-1000',
  options: { minor?: boolean; orderKey?: string } = {},
) {
  await ensureDefaultCoinPacks(db);
  await declareAge(db, memberId, options.minor ?? false);
  return startCheckout(
    db,
    gateway,
    {
      memberId,
      packId,
      method: 'sandbox',
      origin: TEST_ORIGIN,
      orderKey: options.orderKey,
    },
    DEFAULT_PAYMENT_RULES,
  );
}
