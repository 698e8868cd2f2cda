// First impressions: compressed and immutable assets, compressed pages, event streams left alone,
// AVIF/WebP by Accept, a meta description on every page, and headings that never skip a level.
import { grantPaidCoinsByEmail } from '#tests/fixtures';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import http from 'node:http';
import zlib from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { getGachaDetail } from '#modules/gacha';
import { composeDescription } from '../../app/lib/page-meta';
import { get, postForm, cookieFrom, uniqueEmail, shopUrl, signUpByForm } from '#tests/http';
import { testShop } from '#tests/test-shop';

const PACK_PATH = '/gacha/pokemon/stellar-pokemon-001';

/** A GET whose body is kept as sent (fetch would decode it): for checking the encoded bytes. */
function rawGet(
  urlPath: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const url = new URL(shopUrl() + urlPath);
  return new Promise((resolve, reject) => {
    http
      .get(
        { host: '127.0.0.1', port: url.port, path: url.pathname + url.search, headers: { host: url.host, ...headers } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
          );
          response.on('error', reject);
        },
      )
      .on('error', reject);
  });
}

const metaDescriptionOf = (html: string) => html.match(/<meta name="description" content="([^"]*)"/)?.[1] ?? null;
const decodeEntities = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** Heading levels of a page's body in document order. */
const headingLevels = (html: string) =>
  [...html.slice(html.indexOf('<body')).matchAll(/<h([1-6])\b/g)].map((m) => Number(m[1]));

describe('built assets', () => {
  let script = '';
  beforeAll(() => {
    // The largest script: small files are sent as they are, large ones have precompressed twins.
    const dir = path.join('build', 'client', 'assets');
    const largest = fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.js'))
      .sort((a, b) => fs.statSync(path.join(dir, b)).size - fs.statSync(path.join(dir, a)).size)[0];
    expect(largest).toBeTruthy();
    script = `/assets/${largest}`;
  });

  it('answers an /assets/*.js request with brotli when accepted, immutable, decoding to the same bytes', async () => {
    const plain = await rawGet(script);
    const br = await rawGet(script, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.body.byteLength).toBeLessThan(plain.body.byteLength);
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    // The identity bytes are the file on disk.
    expect(plain.body.equals(fs.readFileSync(path.join('build', 'client', script)))).toBe(true);
  });

  it('falls back to gzip, and sends identity (still cacheable, with Vary) when nothing is accepted', async () => {
    const plain = await rawGet(script);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await rawGet(script, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true);
    const refused = await rawGet(script, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.equals(plain.body)).toBe(true);
  });

  it('keeps validators and ranges sane: 304 per encoding, byte ranges on identity', async () => {
    const br = await rawGet(script, { 'accept-encoding': 'br' });
    const plain = await rawGet(script);
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    const again = await rawGet(script, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(again.status).toBe(304);
    const range = await rawGet(script, { range: 'bytes=0-9' });
    expect(range.status).toBe(206);
    expect(range.body.equals(plain.body.subarray(0, 10))).toBe(true);
  });

  it('gives non-hashed files a short cache', async () => {
    const icon = await rawGet('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
  });
});

describe('dynamic responses', () => {
  it('compresses pages and JSON by Accept-Encoding', async () => {
    const page = await rawGet('/', { 'accept-encoding': 'br' });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(page.body).toString()).toContain('<html lang="ja"');
    const gz = await rawGet('/api/v1/gachas?genre=pokemon', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(() => JSON.parse(zlib.gunzipSync(gz.body).toString())).not.toThrow();
    const plain = await rawGet('/');
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses the live-count event stream', async () => {
    const controller = new AbortController();
    const response = await fetch(`${shopUrl()}/api/v1/gachas/stellar-pokemon-001/events`, {
      headers: { 'accept-encoding': 'br, gzip' },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('content-encoding')).toBeNull();
    controller.abort();
    await response.body?.cancel().catch(() => undefined);
  });
});

describe('images by Accept', () => {
  const src = '/_img?src=%2Fdemo%2Fpacks%2Fpack-01.svg&w=640&q=75';
  it('answers AVIF, then WebP, then the original format, with Vary: Accept', async () => {
    const avif = await rawGet(src, { accept: 'image/avif,image/webp,image/apng,*/*;q=0.8' });
    expect(avif.status).toBe(200);
    expect(avif.headers['content-type']).toBe('image/avif');
    expect(avif.body.subarray(4, 12).toString('latin1')).toBe('ftypavif');
    expect(avif.headers.vary).toMatch(/\baccept\b/i);
    const webp = await rawGet(src, { accept: 'image/webp,*/*' });
    expect(webp.headers['content-type']).toBe('image/webp');
    expect(webp.body.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(webp.headers.vary).toMatch(/\baccept\b/i);
    const png = await rawGet(src, { accept: '*/*' });
    expect(png.headers['content-type']).toBe('image/png');
    // Each format is its own cached variant with its own validator.
    expect(new Set([avif.headers.etag, webp.headers.etag, png.headers.etag]).size).toBe(3);
    const cached = await rawGet(src, { accept: 'image/avif', 'if-none-match': String(avif.headers.etag) });
    expect(cached.status).toBe(304);
  });
});

describe('meta descriptions and headings', () => {
  const databaseUrl = testShop().databaseUrl;
  let cookie = '';
  let handle: DatabaseHandle | undefined;
  const email = uniqueEmail('headings');
  beforeAll(async () => {
    const page = await signUpByForm({
      name: '見出し確認',
      email,
      password: 'headings-pass-1',
      agreeToTerms: 'on',
    });
    cookie = cookieFrom(page.headers);
    expect(cookie).toContain('session_token');
    if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
  });
  afterAll(async () => {
    await handle?.close();
  });

  const guestPages = [
    '/',
    '/gacha/pokemon',
    PACK_PATH,
    '/auth/sign_in',
    '/auth/sign_up',
    '/auth/passwd',
    '/guide',
    '/tokushoho',
    '/no-such-page',
  ];
  const memberPages = [
    '/mypage',
    '/mypage?tab=prizes',
    '/mypage?tab=coins',
    '/mypage?tab=purchases',
    '/shop',
    '/shop/checkout/paypay?pack=coin-1000',
    '/shop/backfrompurchase',
    '/mylevel',
    '/myrank',
    '/ranking/daily/goodluck',
    '/myinbox/alls',
    '/myinbox/bonus/logs',
  ];

  it.each([...guestPages.map((p) => [p, false] as const), ...memberPages.map((p) => [p, true] as const)])(
    '%s has a meta description and one h1, with no skipped heading level',
    async (pagePath, member) => {
      const page = await get(pagePath, member ? { cookie } : {});
      expect(page.status, pagePath).toBeLessThan(500);
      expect(page.body).toContain('<html');
      expect((metaDescriptionOf(page.body) ?? '').length).toBeGreaterThan(10);
      const levels = headingLevels(page.body);
      expect(levels.filter((level) => level === 1)).toHaveLength(1);
      levels.reduce((previous, level) => {
        expect(level, `${pagePath}: h${previous} is followed by h${level}`).toBeLessThanOrEqual(previous + 1);
        return level;
      }, 0);
    },
  );

  it("uses the pack's own description on its page, and the content page's on content pages", async () => {
    const pack = await get(PACK_PATH);
    const guide = await get('/guide');
    const home = await get('/');
    expect(metaDescriptionOf(pack.body)).not.toBe(metaDescriptionOf(home.body));
    expect(metaDescriptionOf(guide.body)).not.toBe(metaDescriptionOf(home.body));
    expect(decodeEntities(metaDescriptionOf(guide.body)!)).toBe('はじめての方へ：コインの購入からカードのお届けまで');
    if (handle) {
      const detail = await getGachaDetail(handle.db, 'stellar-pokemon-001');
      expect(detail!.description.length).toBeGreaterThan(0);
      expect(decodeEntities(metaDescriptionOf(pack.body)!)).toBe(composeDescription(detail!.description, ''));
    }
  });

  it.skipIf(!databaseUrl)('keeps the heading order on a draw result page', async () => {
    await grantPaidCoinsByEmail(handle!.db, email, 1_000);
    const confirm = await get('/gacha/pokemon/stellar-pokemon-003?confirm=10', { cookie });
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(confirm.body)?.[1];
    expect(key).toBeTruthy();
    const drawn = await postForm(
      '/gacha/pokemon/stellar-pokemon-003',
      { count: '10', idempotencyKey: key! },
      { cookie },
    );
    expect(drawn.status).toBe(302);
    // The page as it stays after the reveal (the reveal overlay itself is a modal dialog over it).
    const page = await get(drawn.location!.replace(/\?reveal=1$/, ''), { cookie });
    const html = page.body;
    expect(page.status).toBe(200);
    expect((metaDescriptionOf(html) ?? '').length).toBeGreaterThan(10);
    const levels = headingLevels(html);
    expect(levels.filter((level) => level === 1)).toHaveLength(1);
    levels.reduce((previous, level) => {
      expect(level, `result: h${previous} is followed by h${level}`).toBeLessThanOrEqual(previous + 1);
      return level;
    }, 0);
  });
});
