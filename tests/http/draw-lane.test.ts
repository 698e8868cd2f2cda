// The draw lane (decision 079) answers exactly as the long way: every case of an app's draw is sent twice
// to the built shop, once as the lane takes it and once with a cookie that sends it the long way (Hono's
// middleware and the operation registry), and the two answers are compared — status, every header (the
// request id, the CSP nonce and the framing aside) and the body (ids, times and the balance aside, which
// differ between two draws). Which request the lane takes is pinned by server/api/v1/draw-lane.test.ts.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';
import { TEST_RULES } from '#tests/fixtures';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { runAdminCommand } from '../../scripts/shop-admin';
import { checkInvariants, getBalance } from '#modules/wallet';
import { testShop } from '#tests/test-shop';

const base = testShop().url;
const databaseUrl = testShop().databaseUrl;
const PACK = 'stellar-pokemon-003'; // 100 coins a draw
let handle: DatabaseHandle | undefined;
let rich: { id: string; token: string };
let broke: { id: string; token: string };

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> & { error?: Record<string, unknown> };
}

/** A raw HTTP request (Node's http: no header added behind the test's back), the body decompressed. */
function send(path: string, headers: Record<string, string>, body: string, method = 'POST'): Promise<Answer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          let raw = Buffer.concat(chunks);
          const encoding = response.headers['content-encoding'];
          if (encoding === 'gzip') raw = zlib.gunzipSync(raw);
          if (encoding === 'br') raw = zlib.brotliDecompressSync(raw);
          const text = raw.toString('utf8');
          resolve({ status: response.statusCode!, headers: response.headers, body: text ? JSON.parse(text) : {} });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

type Case = { token?: string; body?: string; key?: string; path?: string; contentType?: string; encoding?: string };

/** The same draw request the lane's way and the long way (an unrelated cookie is all that differs). */
function draw(c: Case, way: 'lane' | 'long') {
  const body = c.body ?? '{"count":1}';
  const headers: Record<string, string> = {
    'content-type': c.contentType ?? 'application/json',
    'content-length': String(Buffer.byteLength(body)),
  };
  if (c.token !== undefined) headers.authorization = `Bearer ${c.token}`;
  if (c.key !== '') headers['idempotency-key'] = c.key ?? randomUUID();
  if (c.encoding) headers['accept-encoding'] = c.encoding;
  if (way === 'long') headers.cookie = 'lane=long';
  return send(c.path ?? `/api/v1/gachas/${PACK}/draws`, headers, body);
}

/** Headers that legitimately differ between two answers: per-answer values and the body's framing. */
const PER_ANSWER = new Set(['date', 'x-request-id', 'content-length', 'transfer-encoding', 'keep-alive', 'connection']);
function comparableHeaders(headers: http.IncomingHttpHeaders) {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (PER_ANSWER.has(name)) continue;
    kept[name] = name === 'content-security-policy' ? String(value).replace(/'nonce-[^']+'/, "'nonce-…'") : value;
  }
  return kept;
}

/** The body with what differs between two draws replaced by its kind. */
function comparableBody(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(comparableBody);
  if (body && typeof body === 'object') {
    const kept: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(body)) {
      if (
        ['id', 'requestId', 'createdAt', 'decideBy', 'position', 'tierId', 'tierLabel', 'tierRank', 'effect'].includes(
          name,
        )
      )
        kept[name] = typeof value;
      else if (['cardName', 'imagePath', 'rarity', 'cardGrade', 'conversionValue'].includes(name))
        // The prize drawn differs between the two draws, and some cards have no grade or image: a nullable
        // text is one kind, whichever card came.
        kept[name] = value === null || typeof value === 'string' ? 'string or null' : typeof value;
      else if (name === 'balance') kept[name] = Object.keys(value as object).sort();
      else kept[name] = comparableBody(value);
    }
    return kept;
  }
  return body;
}

async function expectSameAnswers(c: Case, expectedStatus: number) {
  const lane = await draw(c, 'lane');
  const long = await draw(c, 'long');
  expect(lane.status).toBe(expectedStatus);
  expect(long.status).toBe(expectedStatus);
  expect(comparableHeaders(lane.headers)).toEqual(comparableHeaders(long.headers));
  expect(comparableBody(lane.body)).toEqual(comparableBody(long.body));
  expect(lane.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(lane.headers['x-request-id']).not.toBe(long.headers['x-request-id']);
  if (lane.body.error) expect(lane.body.error.requestId).toBe(lane.headers['x-request-id']);
  // A fresh nonce per answer, as the long way makes.
  const nonce = (a: Answer) => /'nonce-([^']+)'/.exec(String(a.headers['content-security-policy']))?.[1];
  expect(nonce(lane)).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(nonce(lane)).not.toBe(nonce(long));
  return { lane, long };
}

beforeAll(async () => {
  if (!databaseUrl) return;
  handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
  const created = async (coins: number, prefix: string) => {
    const lines: string[] = [];
    await runAdminCommand(
      handle!.db,
      ['members:create', '--count', '1', '--coins', String(coins), '--prefix', prefix],
      (line) => lines.push(line),
      { lifetimes: TEST_RULES.coinLifetimes },
    );
    return (JSON.parse(lines[0]!) as { members: { id: string; token: string }[] }).members[0]!;
  };
  rich = await created(50_000, 'lanerich');
  broke = await created(0, 'lanebroke');
});
afterAll(async () => {
  if (handle) expect(await checkInvariants(handle.db)).toEqual([]);
  await handle?.close();
});

describe.skipIf(!databaseUrl)(
  `draw lane${databaseUrl ? '' : ' (skipped: needs PostgreSQL for the operator command line beside the shop)'}`,
  () => {
    it('draws as the long way does: 201 with the same headers and body, plain, gzip and brotli', async () => {
      const before = await getBalance(handle!.db, rich.id);
      for (const encoding of [undefined, 'gzip', 'br', 'gzip;q=0, br;q=0']) {
        const { lane, long } = await expectSameAnswers({ token: rich.token, encoding }, 201);
        expect(lane.body).toMatchObject({ gachaId: PACK, count: 1, cost: 100, replay: false });
        expect(lane.headers['content-encoding']).toBe(
          encoding === 'gzip' ? 'gzip' : encoding === 'br' ? 'br' : undefined,
        );
        expect(lane.headers['cache-control']).toBe('private, no-store');
        expect(lane.headers.vary).toBe('Accept-Encoding');
        // Two draws, 100 coins apart: the long way's balance is the lane's less one draw.
        expect((long.body.balance as { paid: number }).paid).toBe((lane.body.balance as { paid: number }).paid - 100);
      }
      expect((await getBalance(handle!.db, rich.id)).paid).toBe(before.paid - 8 * 100);
    });

    it('replays a key the lane drew with, whichever way the retry comes, and refuses its reuse', async () => {
      const key = randomUUID();
      const first = await draw({ token: rich.token, key, body: '{"count":10}' }, 'lane');
      expect(first.status).toBe(201);
      const viaLane = await draw({ token: rich.token, key, body: '{"count":10}' }, 'lane');
      const viaLong = await draw({ token: rich.token, key, body: '{"count":10}' }, 'long');
      for (const again of [viaLane, viaLong]) {
        expect(again.status).toBe(200);
        expect(again.body).toMatchObject({ id: first.body.id, replay: true });
        expect(again.body.balance).toEqual(first.body.balance);
      }
      expect(comparableHeaders(viaLane.headers)).toEqual(comparableHeaders(viaLong.headers));
      const reusedLane = await draw({ token: rich.token, key, body: '{"count":1}' }, 'lane');
      const reusedLong = await draw({ token: rich.token, key, body: '{"count":1}' }, 'long');
      expect(reusedLane.status).toBe(409);
      expect(reusedLane.body.error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
      expect(comparableBody(reusedLane.body)).toEqual(comparableBody(reusedLong.body));
      expect(comparableHeaders(reusedLane.headers)).toEqual(comparableHeaders(reusedLong.headers));
    });

    it('refuses as the long way does: input, credentials, the pack and the wallet', async () => {
      const cases: [string, Case, number, string][] = [
        ['count out of range', { token: rich.token, body: '{"count":0}' }, 400, 'VALIDATION_FAILED'],
        ['count not a number', { token: rich.token, body: '{"count":"ten"}' }, 400, 'VALIDATION_FAILED'],
        ['no count', { token: rich.token, body: '{}' }, 400, 'VALIDATION_FAILED'],
        ['an empty body', { token: rich.token, body: '' }, 400, 'VALIDATION_FAILED'],
        ['a count the pack does not sell', { token: rich.token, body: '{"count":7}' }, 400, 'DRAW_COUNT_INVALID'],
        ['broken JSON', { token: rich.token, body: '{"count":' }, 400, 'INVALID_JSON'],
        ['a forged signature', { token: `${rich.token.split('.')[0]}.AAAA` }, 401, 'UNAUTHENTICATED'],
        ['an unknown raw token', { token: 'no-such-session-token' }, 401, 'UNAUTHENTICATED'],
        [
          'a pack that does not exist',
          { token: rich.token, path: '/api/v1/gachas/no-such-pack/draws' },
          404,
          'GACHA_NOT_FOUND',
        ],
        ['no coins', { token: broke.token }, 422, 'INSUFFICIENT_COINS'],
      ];
      for (const [name, c, status, code] of cases) {
        const { lane } = await expectSameAnswers(c, status).catch((error: Error) => {
          throw new Error(`${name}: ${error.message}`);
        });
        expect(lane.body.error, name).toMatchObject({ code });
        expect(String(lane.body.error!.message), name).toMatch(/[ぁ-んァ-ン一-龥]/);
      }
      expect(await getBalance(handle!.db, broke.id)).toMatchObject({ paid: 0, free: 0 });
    });

    it('does nothing for a client that goes away before its body arrives', async () => {
      const before = await getBalance(handle!.db, rich.id);
      const url = new URL(`/api/v1/gachas/${PACK}/draws`, base);
      await new Promise<void>((resolve) => {
        const request = http.request({
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            authorization: `Bearer ${rich.token}`,
            'content-type': 'application/json',
            'content-length': '11',
            'idempotency-key': randomUUID(),
          },
        });
        request.on('error', () => resolve());
        request.on('close', () => resolve());
        // Half the body, then the connection closes.
        request.write('{"cou', () => request.destroy());
      });
      // The shop answers the next draw, and only that one is paid for.
      expect((await draw({ token: rich.token }, 'lane')).status).toBe(201);
      expect((await getBalance(handle!.db, rich.id)).paid).toBe(before.paid - 100);
    });

    it('leaves to the long way what it does not take, and the long way answers it', async () => {
      // No key, a malformed key, another media type, a browser's cross-site post, a query, a GET.
      expect((await draw({ token: rich.token, key: '' }, 'lane')).body.error).toMatchObject({
        code: 'IDEMPOTENCY_KEY_REQUIRED',
      });
      expect((await draw({ token: rich.token, key: 'k'.repeat(256) }, 'lane')).body.error).toMatchObject({
        code: 'IDEMPOTENCY_KEY_INVALID',
      });
      expect((await draw({ token: rich.token, contentType: 'text/plain' }, 'lane')).status).toBe(415);
      const crossSite = await send(
        `/api/v1/gachas/${PACK}/draws`,
        {
          authorization: `Bearer ${rich.token}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
          origin: 'https://evil.example',
        },
        '{"count":1}',
      );
      expect(crossSite.status).toBe(403);
      expect(crossSite.body.error).toMatchObject({ code: 'CROSS_SITE_REQUEST' });
      expect((await draw({ token: rich.token, path: `/api/v1/gachas/${PACK}/draws?x=1` }, 'lane')).status).toBe(201);
      const get = await send(`/api/v1/gachas/${PACK}/draws`, { authorization: `Bearer ${rich.token}` }, '', 'GET');
      expect(get.status).toBe(405);
    });
  },
);
