// /metrics, liveness and readiness on shops of their own (decision 072): a scrape with the operators'
// token after a draw finds the draw counted for its pack and the draw route in the HTTP histogram; a
// scrape without it (or with another) gets the answer of an unknown page; an allow-listed address is let
// in only when it connects itself, never through a proxy; the answer is never cached. And what a shop
// answers once it has stopped accepting: a request still arriving is refused whole, in the shop's shape.
import { randomUUID } from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startOwnShop, OWN_SHOP_AUTH_SECRET as AUTH_SECRET, type OwnShop } from '#tests/own-shop';
import { createSessionMembers } from '#tests/members';

const TOKEN = 'metrics-token-for-the-http-test-0123456789';
const PACK = 'stellar-pokemon-003'; // 100 coins a draw

let own: OwnShop;
let allowListed: OwnShop;

beforeAll(async () => {
  own = await startOwnShop('metrics', { METRICS_TOKEN: TOKEN });
  allowListed = await startOwnShop('metrics_allow', { METRICS_ALLOW: '127.0.0.1,::1' });
});
afterAll(async () => {
  await own?.stop();
  await allowListed?.stop();
});

const scrape = (base: string, headers: Record<string, string> = {}) => fetch(`${base}/metrics`, { headers });

/** The value of one sample line, e.g. sample(text, 'shop_draws_total{pack="p"}'); undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const draw = (bearer: string, count: number) =>
  fetch(`${own.base}/api/v1/gachas/${PACK}/draws`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
    body: JSON.stringify({ count }),
  });

describe('/metrics', () => {
  it('counts a draw for its pack, the draw route in the HTTP histogram and the draws the lane answered', async () => {
    const db = own.shop.services.db;
    const [rich] = await createSessionMembers(db, { count: 1, secret: AUTH_SECRET, paid: 2000, prefix: 'rich' });
    const [poor] = await createSessionMembers(db, { count: 1, secret: AUTH_SECRET, paid: 0, prefix: 'poor' });
    const before = await (await scrape(own.base, { authorization: `Bearer ${TOKEN}` })).text();
    expect((await draw(rich!.bearer, 10)).status).toBe(201);
    const refused = await draw(poor!.bearer, 1);
    expect(refused.status).toBe(422);
    const refusedCode = ((await refused.json()) as { error: { code: string } }).error.code;
    expect(refusedCode).toBe('INSUFFICIENT_COINS');
    // A browser's draw (Origin) takes the middleware chain; an app's (above) the draw lane (decision 079).
    const browserDraw = await fetch(`${own.base}/api/v1/gachas/${PACK}/draws`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${rich!.bearer}`,
        'idempotency-key': randomUUID(),
        'content-type': 'application/json',
        origin: own.base,
      },
      body: JSON.stringify({ count: 1 }),
    });
    expect(browserDraw.status).toBe(201);
    expect((await fetch(`${own.base}/gacha/pokemon/${PACK}`)).status).toBe(200);
    expect((await fetch(`${own.base}/auth/sign_in`)).status).toBe(200);

    const response = await scrape(own.base, { authorization: `Bearer ${TOKEN}` });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-page-cache')).toBeNull();
    const text = await response.text();
    const grew = (series: string) => (sample(text, series) ?? 0) - (sample(before, series) ?? 0);
    expect(grew(`shop_draws_total{pack="${PACK}"}`)).toBe(2);
    expect(grew(`shop_draw_lots_total{pack="${PACK}"}`)).toBe(11);
    expect(grew(`shop_draw_refusals_total{code="${refusedCode}"}`)).toBe(1);
    const drawRoute = 'route="/api/v1/gachas/:gachaId/draws"';
    // Both ways are one route in the histogram; the lane's own counter tells them apart.
    expect(grew(`shop_http_request_duration_seconds_count{method="POST",${drawRoute},status="201"}`)).toBe(2);
    expect(grew('shop_draw_lane_answers_total{status="201"}')).toBe(1);
    expect(grew('shop_draw_lane_answers_total{status="422"}')).toBe(1);
    expect(grew(`shop_http_request_duration_seconds_count{method="POST",${drawRoute},status="422"}`)).toBe(1);
    expect(text).toMatch(
      new RegExp(`^shop_http_request_duration_seconds_bucket\\{le="0\\.5",method="POST",${drawRoute}`, 'm'),
    );
    // A page is counted under its route's pattern, never its path.
    expect(
      grew('shop_http_request_duration_seconds_count{method="GET",route="/gacha/:genreId/:gachaId",status="200"}'),
    ).toBe(1);
    expect(text).not.toContain(`/gacha/pokemon/${PACK}"`);
    // A page the cache never keeps: its pattern as React Router matched it.
    expect(grew('shop_http_request_duration_seconds_count{method="GET",route="/auth/sign_in",status="200"}')).toBe(1);
    // The process's own metrics, the connections and the outbox come with every scrape.
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(text).toMatch(/^shop_db_pool_max_connections /m);
    expect(text).toMatch(/^shop_outbox_messages\{status="queued"\} \d+/m);
    expect(sample(text, 'shop_draining')).toBe(0);
  });

  it('answers a scrape without the token, or with another, as it answers an unknown page', async () => {
    const unknown = await fetch(`${own.base}/no-such-page-${randomUUID()}`);
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}-not` }, { authorization: TOKEN }] as Record<
      string,
      string
    >[]) {
      const refused = await scrape(own.base, headers);
      expect(refused.status).toBe(404);
      expect(refused.headers.get('content-type')).toBe(unknown.headers.get('content-type'));
      expect(await refused.text()).not.toMatch(/shop_|# HELP/);
    }
  });

  it('lets an allow-listed address in when it connects itself, and never through a proxy', async () => {
    const direct = await scrape(allowListed.base);
    expect(direct.status).toBe(200);
    expect(await direct.text()).toMatch(/^shop_draws_total|^# HELP shop_draws_total/m);
    for (const forwarded of [{ 'x-forwarded-for': '127.0.0.1' }, { forwarded: 'for=127.0.0.1' }] as Record<
      string,
      string
    >[])
      expect((await scrape(allowListed.base, forwarded)).status).toBe(404);
    // This shop has no token: a bearer token opens nothing here.
    expect((await scrape(allowListed.base, { authorization: `Bearer ${TOKEN}`, 'x-real-ip': '10.0.0.1' })).status).toBe(
      404,
    );
  });
});

describe('liveness and readiness', () => {
  it('answers live and ready while the shop serves, and /api/health keeps its shape with the replica', async () => {
    const live = await fetch(`${own.base}/api/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'live' });
    const ready = await fetch(`${own.base}/api/health/ready`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({ status: 'ready' });
    const health = (await (await fetch(`${own.base}/api/health`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ status: 'ok', database: { up: true }, replica: null });
  });
});

describe('once the instance has stopped accepting', () => {
  // Last in this file for this shop: it stays closed until afterAll stops it.
  it("refuses a request still arriving on an open connection whole: 503, Retry-After, the shop's JSON or busy page", async () => {
    allowListed.shop.services.serving!.close();
    const api = await fetch(`${allowListed.base}/api/v1/gachas`);
    expect(api.status).toBe(503);
    expect(Number(api.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(api.headers.get('connection')).toBe('close');
    expect(await api.json()).toMatchObject({ error: { code: 'SERVICE_BUSY' } });
    const page = await fetch(`${allowListed.base}/gacha/pokemon`);
    expect(page.status).toBe(503);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('ただいま混み合っています');
    expect((await fetch(`${allowListed.base}/api/health/ready`)).status).toBe(503);
  });
});
