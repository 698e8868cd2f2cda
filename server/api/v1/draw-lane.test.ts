// Which requests the draw lane takes (decision 079): only an app's or a script's plain draw; a browser's
// post, a cookie, a query, another body, a missing or malformed key, traces on or a draining server go the
// long way, where the middleware answers them. tests/http/draw-lane.test.ts compares the two ways' answers.
import { describe, it, expect } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { loadConfig } from '../../config';
import type { ShopServices } from '../../services';
import { createDrawLane } from './draw-lane';

const config = loadConfig({ AUTH_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/oripa-draw-lane-test' });

const laneFor = (extra: Partial<ShopServices> = {}) =>
  createDrawLane({ config, logger: console, ...extra } as unknown as ShopServices);

const plain = {
  authorization: 'Bearer abc.def',
  'content-type': 'application/json',
  'content-length': '11',
  'idempotency-key': '6f1c2a3e-0d4b-4c8e-9a7f-1b2c3d4e5f60',
  host: 'shop.example',
};

const request = (headers: Record<string, string | undefined>, url = '/api/v1/gachas/pack-1/draws', method = 'POST') =>
  ({
    method,
    url,
    headers: Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)),
  }) as IncomingMessage;

describe('the draw lane takes', () => {
  it("an app's plain draw, with any JSON media type and a key the API accepts", async () => {
    const lane = await laneFor();
    expect(lane.takes(request(plain))).toBe(true);
    expect(lane.takes(request({ ...plain, 'content-type': 'application/json; charset=utf-8' }))).toBe(true);
    expect(lane.takes(request({ ...plain, 'accept-encoding': 'gzip, br' }))).toBe(true);
    expect(lane.takes(request({ ...plain, authorization: 'bearer raw-token' }))).toBe(true);
  });

  it('nothing else: other addresses, methods, a browser, a cookie, another body or key', async () => {
    const lane = await laneFor();
    const refused: [string, IncomingMessage][] = [
      ['GET', request(plain, undefined, 'GET')],
      ['a query', request(plain, '/api/v1/gachas/pack-1/draws?x=1')],
      ['another path', request(plain, '/api/v1/gachas/pack-1/draws/x')],
      ['an encoded id', request(plain, '/api/v1/gachas/pack%2D1/draws')],
      ['a page', request(plain, '/gacha/pokemon/pack-1')],
      ['Origin', request({ ...plain, origin: 'https://shop.example' })],
      ['Sec-Fetch-Site', request({ ...plain, 'sec-fetch-site': 'same-origin' })],
      ['a cookie', request({ ...plain, cookie: 'a=b' })],
      ['no bearer', request({ ...plain, authorization: undefined })],
      ['basic credentials', request({ ...plain, authorization: 'Basic YTpi' })],
      ['chunked', request({ ...plain, 'transfer-encoding': 'chunked' })],
      ['no length', request({ ...plain, 'content-length': undefined })],
      ['a large body', request({ ...plain, 'content-length': '4097' })],
      ['a text body', request({ ...plain, 'content-type': 'text/plain' })],
      ['no media type', request({ ...plain, 'content-type': undefined })],
      ['no key', request({ ...plain, 'idempotency-key': undefined })],
      ['an empty key', request({ ...plain, 'idempotency-key': '' })],
      ['a key too long', request({ ...plain, 'idempotency-key': 'k'.repeat(256) })],
      ['a key with a tab', request({ ...plain, 'idempotency-key': 'a\tb' })],
    ];
    for (const [name, req] of refused) expect(lane.takes(req), name).toBe(false);
  });

  it('nothing while traces are on or the server drains', async () => {
    expect((await laneFor({ tracing: {} as ShopServices['tracing'] })).takes(request(plain))).toBe(false);
    for (const phase of ['draining', 'closing'] as const)
      expect((await laneFor({ serving: { phase } as ShopServices['serving'] })).takes(request(plain))).toBe(false);
    expect((await laneFor({ serving: { phase: 'serving' } as ShopServices['serving'] })).takes(request(plain))).toBe(
      true,
    );
  });
});
