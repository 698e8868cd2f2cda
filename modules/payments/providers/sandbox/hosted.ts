// The sandbox payment provider, hosted inside the shop for development, demos and tests: an API like
// a card processor's (bearer secret, idempotent create), a hosted page with 承認 / 拒否 / キャンセル,
// and HMAC-signed webhooks with retries. Its payments live in the shop's database (sandbox_payments),
// so several instances agree. Never on a real deployment: config turns it off for https origins.
//
// Its parts: hosted-payments.ts (the payments and their webhooks), hosted-api.ts (the adapter's side)
// and hosted-page.ts (the member's side).
import { Hono } from 'hono';
import type { Database } from '#db/client';
import { mountSandboxApi } from './hosted-api';
import { mountHostedPage } from './hosted-page';
import type { SandboxHost } from './hosted-payments';

export interface SandboxAppOptions {
  db: Database;
  /** The public URL the sandbox is mounted at, e.g. http://localhost:3000/sandbox. */
  publicBase: string;
  secretKey: string;
  webhookSecret: string;
  /** Delivers a webhook; default: fetch. Returns the HTTP status. */
  deliver?: (url: string, body: string, headers: Record<string, string>) => Promise<number>;
  /** Milliseconds between approving and sending the webhook (tests use it to race the return page). */
  webhookDelayMs?: number;
  onDeliveryError?: (error: unknown, url: string) => void;
}
/** Sandbox API + hosted page as a Hono app; mount it at /sandbox. */
export function createSandboxApp(options: SandboxAppOptions) {
  const host: SandboxHost = {
    options,
    db: options.db,
    deliver:
      options.deliver ?? (async (url, body, headers) => (await fetch(url, { method: 'POST', body, headers })).status),
  };
  const app = new Hono();
  // ---- API (the adapter's side)
  mountSandboxApi(app, host);
  // ---- the hosted page (the member's side)
  mountHostedPage(app, host);
  return app;
}
