// The topology a deployer runs (docs/deploy.md, decision 074), brought up as `npm run topology` brings it
// up, from deploy/'s own files: haproxy → three shop instances (the first runs the jobs) → pgbouncer in
// transaction pooling → haproxy's address of the primary → a pg_auto_failover primary with a synchronous
// standby, and Redis. Through haproxy a visitor signs up (the confirmation mail is sent by the jobs
// instance's pg-boss, nudged over the session pool's LISTEN), gets coins, draws, and every instance's live
// stream hears the new count; every invariant holds. The failures (a killed instance, pgbouncer restarted,
// a failover) have their own tests; the handle's controls are the ones they use.
// Skipped, saying why, only when a program the topology needs is missing (pg_autoctl, pgbouncer, haproxy,
// redis-server, PostgreSQL's server programs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaledTimeout, testSettings } from '#tests/settings';
import { topologyPorts } from '#tests/ports';
import { grantPaidCoinsByEmail, publishLoadPack } from '#tests/fixtures';
import { startSmtpCapture, type SmtpCapture } from '#modules/messaging/testing';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { checkInvariants } from '#modules/wallet';
import { missingPrograms, startTopology, type Topology } from '#scripts/topology/topology';

const missing = missingPrograms();
if (missing.length > 0)
  console.warn(`[topology] the topology test is skipped: it needs ${missing.join('; ')} (docs/deploy.md)`);

const PACK = 'topology-pack';
const LOTS = 200;
const PRICE = 100;
const MAIL_FROM = 'オリパ ステラ <no-reply@example.jp>';

let topology: Topology | undefined;
let smtp: SmtpCapture | undefined;
let owner: DatabaseHandle | undefined;
let dir = '';
/** The member the tests sign up, and their session (the API's Bearer). */
const member = { email: `topology-${Date.now().toString(36)}@example.jp`, bearer: '' };

/** A POST of a form through haproxy, as a browser on the shop's origin sends it. */
async function postForm(url: string, fields: Record<string, string>) {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: topology!.shopUrl },
    body: new URLSearchParams(fields).toString(),
  });
}

async function api(route: string, options: { method?: string; json?: unknown; key?: string } = {}) {
  const response = await fetch(`${topology!.shopUrl}/api/v1${route}`, {
    method: options.method ?? (options.json === undefined ? 'GET' : 'POST'),
    headers: {
      authorization: `Bearer ${member.bearer}`,
      ...(options.key ? { 'idempotency-key': options.key } : {}),
      ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

/** One instance's live stream of a pack: every `remaining` count it was told, until closed. */
function liveCounts(base: string, gachaId: string) {
  const counts: number[] = [];
  const stop = new AbortController();
  const reading = (async () => {
    const response = await fetch(`${base}/api/v1/gachas/${gachaId}/events`, { signal: stop.signal });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(event)?.[1];
        if (/^event: remaining$/m.test(event) && data)
          counts.push((JSON.parse(data) as { remaining: number }).remaining);
      }
    }
  })().catch(() => undefined);
  return {
    counts,
    close: async () => {
      stop.abort();
      await reading;
    },
  };
}

async function until(what: string, done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const story = () =>
  ['shop-1', 'shop-2', 'shop-3', 'pgbouncer']
    .map((part) => `--- ${part} ---\n${topology?.logTail(part, 15) ?? ''}`)
    .join('\n');

describe.skipIf(missing.length > 0)('the topology: haproxy, three instances, pgbouncer, a failover pair', () => {
  beforeAll(async () => {
    smtp = await startSmtpCapture({ user: 'shop', pass: 'topology-mail' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-topology-'));
    const started = Date.now();
    topology = await startTopology({
      dir,
      ports: await topologyPorts(),
      demoData: false,
      logLevel: 'warn',
      shopSettings: { SMTP_URL: smtp.url, MAIL_FROM },
      patience: testSettings.timeoutScale,
      stopOnExit: true,
    });
    console.log(`[topology] up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // As the owner through pgbouncer's transaction pool, as the instances' migrations ran.
    owner = await openDatabase({ databaseUrl: topology.databaseUrls.owner, dataDir: dir, poolSize: 2 });
    await publishLoadPack(owner.db, { id: PACK, lots: LOTS, price: PRICE, name: 'トポロジー' });
  });

  afterAll(async () => {
    await owner?.close();
    await topology?.stop();
    const left = (await topology?.status())?.filter((part) => part.running) ?? [];
    await smtp?.close();
    if (left.length === 0) fs.rmSync(dir, { recursive: true, force: true });
    expect(left.map((part) => `${part.name} (pid ${part.pid})`)).toEqual([]);
  });

  it('signs up through haproxy; the jobs instance mails the confirmation (pg-boss through the pool)', async () => {
    const signUp = await postForm(`${topology!.shopUrl}/auth/sign_up`, {
      name: 'トポロジー',
      email: member.email,
      password: 'topology-pass-1',
      agreeToTerms: 'on',
    });
    expect(signUp.status, story()).toBe(200);
    expect(await signUp.text()).toContain('確認メールを送信しました');
    // Only the first instance runs jobs: the mail is its messaging.deliver run, whichever instance took the form.
    const [mail] = await smtp!.waitFor(1, scaledTimeout(120_000));
    expect(mail!.to).toEqual([member.email]);
    const link = /https?:\/\/\S*mode=verifyEmail&[^\s"<>]+/.exec(mail!.text)?.[0];
    expect(link, mail!.text).toBeDefined();
    const confirmed = new URL(link!);
    expect(confirmed.origin).toBe(topology!.shopUrl);
    const button = await postForm(`${topology!.shopUrl}${confirmed.pathname}${confirmed.search}`, {});
    expect(button.status, story()).toBe(302);
    member.bearer = /session_token=([^;]+)/.exec(button.headers.getSetCookie().join('; '))?.[1] ?? '';
    expect(member.bearer).not.toBe('');
  });

  it('draws through haproxy, and every instance’s live stream hears the new count', async () => {
    await grantPaidCoinsByEmail(owner!.db, member.email, 1_000);
    const streams = topology!.instanceUrls.map((base) => liveCounts(base, PACK));
    try {
      await until(
        'every stream’s first count',
        () => streams.every((s) => s.counts[0] === LOTS),
        scaledTimeout(30_000),
      );
      const key = `topology-draw-${Date.now()}`;
      const draw = await api(`/gachas/${PACK}/draws`, { json: { count: 1 }, key });
      expect(draw.status, `${JSON.stringify(draw.body)}\n${story()}`).toBe(201);
      expect(draw.body).toMatchObject({ gachaId: PACK, count: 1, cost: PRICE, replay: false });
      // The same key again, through haproxy to whichever instance: the first answer.
      const again = await api(`/gachas/${PACK}/draws`, { json: { count: 1 }, key });
      expect(again.body).toMatchObject({ id: draw.body!.id, replay: true });
      // Two of the three streams are on instances that did not serve the draw: they hear it over LISTEN.
      await until(
        'every stream’s new count',
        () => streams.every((s) => s.counts.includes(LOTS - 1)),
        scaledTimeout(30_000),
      ).catch((error: Error) => {
        throw new Error(`${error.message}: ${JSON.stringify(streams.map((s) => s.counts))}\n${story()}`);
      });
      expect((await api('/me/wallet')).body).toMatchObject({ paid: 1_000 - PRICE, free: 0 });
    } finally {
      await Promise.all(streams.map((s) => s.close()));
    }
  });

  it('keeps every invariant', async () => {
    expect(await checkInvariants(owner!.db)).toEqual([]);
  });
});
