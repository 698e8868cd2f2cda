// The page cache's rules without a server: which requests share a copy, which answers are kept, the
// CSP hashes of a page's inline scripts, one render for concurrent visitors, and a clear during a render.
import crypto from 'node:crypto';
import { describe, it, expect } from 'vitest';
import { cacheKeyOf, createPageCache, inlineScriptHashes, isStorable } from './page-cache';

const page = (body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8', ...headers } });

describe('cacheKeyOf', () => {
  it('shares visitors’ public pages and nothing else', () => {
    expect(cacheKeyOf(new Request('http://shop/'))).toBe('/');
    expect(cacheKeyOf(new Request('http://shop/gacha/pokemon?sort=new'))).toBe('/gacha/pokemon?sort=new');
    expect(cacheKeyOf(new Request('http://shop/gacha/pokemon/p-1'))).toBe('/gacha/pokemon/p-1');
    expect(cacheKeyOf(new Request('http://shop/notices/n1'))).toBe('/notices/n1');
    expect(cacheKeyOf(new Request('http://shop/gacha/pokemon/p-1/result/r1'))).toBeNull();
    expect(cacheKeyOf(new Request('http://shop/mypage'))).toBeNull();
    expect(cacheKeyOf(new Request('http://shop/admin'))).toBeNull();
    expect(cacheKeyOf(new Request('http://shop/', { method: 'POST' }))).toBeNull();
    expect(cacheKeyOf(new Request('http://shop/', { headers: { cookie: 'better-auth.session_token=x' } }))).toBeNull();
    expect(
      cacheKeyOf(new Request('http://shop/', { headers: { cookie: 'a=1; __Secure-oripa.session_token=x' } })),
    ).toBeNull();
    expect(cacheKeyOf(new Request('http://shop/', { headers: { cookie: 'oripa_notice=signed-out' } }))).toBeNull();
    expect(cacheKeyOf(new Request('http://shop/', { headers: { authorization: 'Bearer x' } }))).toBeNull();
    expect(cacheKeyOf(new Request('http://shop/', { headers: { cookie: '_ga=1' } }))).toBe('/');
    expect(cacheKeyOf(new Request(`http://shop/?q=${'x'.repeat(300)}`))).toBeNull();
  });
});

describe('isStorable', () => {
  it('keeps a plain 200 page only', () => {
    expect(isStorable(page('<html></html>'))).toBe(true);
    expect(isStorable(page('<html></html>', { 'Set-Cookie': 'a=1' }))).toBe(false);
    expect(isStorable(page('<html></html>', { 'Cache-Control': 'private, no-store' }))).toBe(false);
    expect(isStorable(page('<html></html>', { Vary: 'Cookie' }))).toBe(false);
    expect(isStorable(new Response('{}', { headers: { 'Content-Type': 'application/json' } }))).toBe(false);
    expect(isStorable(new Response('<html>', { status: 404, headers: { 'Content-Type': 'text/html' } }))).toBe(false);
  });
});

describe('inlineScriptHashes', () => {
  it('hashes each inline script as a browser does (UTF-8 text between the tags), not scripts with src', () => {
    const body = 'window.__ctx = {"名前":"ポケモン"};';
    const html = `<script nonce="n">${body}</script><script src="/a.js" nonce="n"></script><script type="module">import "/b.js";</script>`;
    const expected = (text: string) =>
      `'sha256-${crypto.createHash('sha256').update(Buffer.from(text, 'utf8')).digest('base64')}'`;
    expect(inlineScriptHashes(html)).toEqual([expected(body), expected('import "/b.js";')]);
  });
});

describe('createPageCache', () => {
  it('renders once for concurrent visitors and serves the copy until it expires', async () => {
    let clock = 0;
    const cache = await createPageCache({ ttlMs: 1000, maxEntries: 10, now: () => clock });
    let renders = 0;
    const render = async () => {
      renders += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return page(`<p>${renders}</p>`);
    };
    const answers = await Promise.all(Array.from({ length: 5 }, () => cache.load('/', render)));
    expect(renders).toBe(1);
    for (const answer of answers) expect('page' in answer && answer.page.body.toString()).toBe('<p>1</p>');
    expect(cache.get('/')).not.toBeNull();
    clock = 999;
    expect(cache.get('/')).not.toBeNull();
    clock = 1000;
    expect(cache.get('/')).toBeNull();
  });

  it('answers but never keeps a page rendered across a clear, nor an answer that is not storable', async () => {
    const cache = await createPageCache({ ttlMs: 60_000, maxEntries: 10 });
    const loading = cache.load('/', async () => {
      cache.clear();
      return page('<p>before the change</p>');
    });
    const answer = await loading;
    expect('page' in answer && answer.page.body.toString()).toBe('<p>before the change</p>');
    expect(cache.get('/')).toBeNull();
    const redirect = await cache.load(
      '/gacha/x',
      async () => new Response(null, { status: 302, headers: { Location: '/' } }),
    );
    expect('response' in redirect && redirect.response.status).toBe(302);
    expect(cache.get('/gacha/x')).toBeNull();
  });

  it('keeps at most maxEntries pages, dropping the oldest', async () => {
    const cache = await createPageCache({ ttlMs: 60_000, maxEntries: 2 });
    for (const key of ['/a', '/b', '/c']) await cache.load(key, async () => page(key));
    expect(cache.get('/a')).toBeNull();
    expect(cache.get('/b')).not.toBeNull();
    expect(cache.get('/c')).not.toBeNull();
  });
});
