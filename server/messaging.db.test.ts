// The outbox's wiring in the shop: /dev/outbox and its JSON form (404 unless the developer tools are
// on and the browser is on this machine), the nudge that runs the deliver job when a message is
// committed (and not when it is rolled back), the jobs in the shop's list, and Twilio's status
// route without Twilio configured.
import { afterAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { RouterContextProvider } from 'react-router';
import { useTestDatabase } from '#tests/use-test-database';
import { scaledTimeout } from '#tests/settings';
import { loadConfig, type ShopConfig } from '#server/config';
import { createLogger } from '#server/logger';
import type { ShopServices } from '#server/services';
import { shopJobs } from '#server/jobs/index';
import { queueMail, queueSms, type SiteIdentity } from '#modules/messaging';
import { shopRequestContext } from '#server/context';
import { loader as outboxPageLoader } from '~/routes/dev/outbox';
import { createOutboxJsonRoute, createTwilioStatusRoutes, startOutboxNudge } from './messaging';

const handle = useTestDatabase('messaging-wiring');
const site: SiteIdentity = { name: 'オリパ ステラ', origin: 'http://localhost:3000' };
const logger = createLogger('silent');
const LOCAL = { host: 'localhost:3000', 'x-shop-client-ip': '127.0.0.1' };

function configWith(env: Record<string, string>): ShopConfig {
  // ADDRESS_ENCRYPTION_KEYS: an https shop must name its address key (docs/decisions/019).
  return loadConfig({
    DATA_DIR: handle.dataDir,
    AUTH_SECRET: 'x'.repeat(40),
    ADDRESS_ENCRYPTION_KEYS: 'test:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    ...env,
  });
}
const sandboxOn = () => configWith({ PUBLIC_ORIGIN: 'http://localhost:3000' });
const sandboxOff = () => configWith({ PUBLIC_ORIGIN: 'https://oripa.example.jp' });

function jsonApp(config: ShopConfig) {
  const app = new Hono();
  app.route('/dev/outbox.json', createOutboxJsonRoute({ db: handle.db, config }));
  return app;
}

async function pageLoad(config: ShopConfig, url: string, headers: Record<string, string> = LOCAL) {
  const context = new RouterContextProvider();
  context.set(shopRequestContext, {
    requestId: 'test',
    nonce: '',
    member: null,
    services: { config, db: handle.db } as unknown as ShopServices,
  });
  try {
    return { data: await outboxPageLoader({ request: new Request(url, { headers }), context, params: {} } as never) };
  } catch (thrown) {
    return { thrown: thrown as { init?: { status?: number }; data?: { message?: string } } };
  }
}

describe('/dev/outbox.json', () => {
  it('answers 404 with the sandbox off, or from another machine, or through a proxy', async () => {
    await queueMail(handle.db, site, { to: 'json@example.jp', template: 'account-deleted', vars: {} });
    expect(
      (await jsonApp(sandboxOff()).request('/dev/outbox.json?to=json@example.jp', { headers: LOCAL })).status,
    ).toBe(404);
    const on = jsonApp(sandboxOn());
    for (const headers of [
      { ...LOCAL, 'x-shop-client-ip': '203.0.113.9' },
      { ...LOCAL, host: 'oripa.example.jp' },
      { ...LOCAL, 'x-forwarded-for': '203.0.113.9' },
    ])
      expect((await on.request('/dev/outbox.json?to=json@example.jp', { headers })).status).toBe(404);
  });

  it('with the sandbox on, answers the newest messages for a recipient, with their links and codes', async () => {
    const reset = 'http://localhost:3000/auth/action?mode=resetPassword&oobCode=J1';
    await queueMail(handle.db, site, { to: 'json2@example.jp', template: 'password-reset', vars: { url: reset } });
    await queueSms(handle.db, site, {
      to: '+819012340000',
      template: 'phone-code',
      vars: { code: '777888', minutes: '10' },
    });
    const app = jsonApp(sandboxOn());
    const response = await app.request('/dev/outbox.json?to=json2@example.jp', { headers: LOCAL });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const { messages } = (await response.json()) as { messages: Record<string, unknown>[] };
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      channel: 'mail',
      to: 'json2@example.jp',
      template: 'password-reset',
      subject: '【オリパ ステラ】パスワードの再設定',
      status: 'queued',
      links: [reset, 'http://localhost:3000'],
      code: null,
    });
    const sms = (await (await app.request('/dev/outbox.json?to=%2B819012340000', { headers: LOCAL })).json()) as {
      messages: Record<string, unknown>[];
    };
    expect(sms.messages[0]).toMatchObject({ channel: 'sms', code: '777888' });
    expect((await app.request('/dev/outbox.json?limit=abc', { headers: LOCAL })).status).toBe(400);
    expect((await app.request('/dev/outbox.json?limit=2', { headers: LOCAL })).status).toBe(200);
  });
});

describe('/dev/outbox (the page)', () => {
  it('throws the shop’s not-found answer with the sandbox off, or from another machine', async () => {
    const off = await pageLoad(sandboxOff(), 'http://localhost:3000/dev/outbox');
    expect(off.thrown?.init?.status).toBe(404);
    expect(off.thrown?.data?.message).toBeTruthy();
    const remote = await pageLoad(sandboxOn(), 'http://localhost:3000/dev/outbox', {
      ...LOCAL,
      'x-shop-client-ip': '198.51.100.7',
    });
    expect(remote.thrown?.init?.status).toBe(404);
  });

  it('lists the newest messages with the sandbox on, filtered by recipient', async () => {
    await queueMail(handle.db, site, {
      to: 'page@example.jp',
      template: 'magic-link',
      vars: { url: 'http://localhost:3000/auth/magic?token=P1' },
    });
    const all = await pageLoad(sandboxOn(), 'http://localhost:3000/dev/outbox');
    expect(all.thrown).toBeUndefined();
    const listed = all.data as { messages: { to: string; text: string | null }[]; to: string | null };
    expect(listed.messages[0]).toMatchObject({ to: 'page@example.jp' });
    expect(listed.messages.length).toBeGreaterThan(1);
    const filtered = (await pageLoad(sandboxOn(), 'http://localhost:3000/dev/outbox?to=page@example.jp')).data as {
      messages: { to: string; text: string | null }[];
    };
    expect(filtered.messages.map((message) => message.to)).toEqual(['page@example.jp']);
    expect(filtered.messages[0]!.text).toContain('token=P1');
  });
});

describe('the nudge and the jobs', () => {
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const stop of stops) await stop();
  });

  it('runs the deliver job when a message is committed, not when it is rolled back', async () => {
    let runs = 0;
    stops.push(
      await startOutboxNudge(
        handle,
        async () => {
          runs++;
        },
        logger,
      ),
    );
    await handle.db
      .transaction(async (tx) => {
        await queueMail(tx, site, { to: 'nudge@example.jp', template: 'account-deleted', vars: {} });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(runs).toBe(0);
    await handle.db.transaction((tx) =>
      queueMail(tx, site, { to: 'nudge@example.jp', template: 'account-deleted', vars: {} }),
    );
    const deadline = Date.now() + scaledTimeout(10_000);
    while (runs === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(runs).toBeGreaterThanOrEqual(1);
  });

  it('the shop lists the deliver and clean-up jobs; without transports the deliver job holds', async () => {
    const config = sandboxOn();
    const jobs = shopJobs({ config });
    const deliver = jobs.find((job) => job.name === 'messaging.deliver');
    expect(deliver?.cron).toBe('* * * * *');
    expect(jobs.find((job) => job.name === 'messaging.clear-old-bodies')).toBeDefined();
    const { id } = await queueMail(handle.db, site, { to: 'job@example.jp', template: 'account-deleted', vars: {} });
    const result = await deliver!.handler({ db: handle.db, logger, now: new Date() });
    expect(result?.processed).toBeGreaterThanOrEqual(1);
    const app = jsonApp(config);
    const { messages } = (await (
      await app.request('/dev/outbox.json?to=job@example.jp', { headers: LOCAL })
    ).json()) as {
      messages: { id: string; status: string }[];
    };
    expect(messages).toEqual([expect.objectContaining({ id, status: 'held' })]);
  });

  it('the Twilio status route answers 404 when Twilio is not configured', async () => {
    const app = new Hono();
    app.route('/api/webhooks/twilio', createTwilioStatusRoutes({ db: handle.db, messaging: undefined, logger }));
    const response = await app.request('/api/webhooks/twilio/status', { method: 'POST', body: 'MessageSid=SM1' });
    expect(response.status).toBe(404);
  });
});
