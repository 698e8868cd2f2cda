// Server basics: health, request ids, security headers, cross-site protection, images and build files.
import { describe, it, expect } from 'vitest';
import { get, postForm, shopUrl } from '#tests/http';

describe('health', () => {
  it('answers JSON with the build id and the database state', async () => {
    const page = await get('/api/health');
    expect(page.status).toBe(200);
    const body = JSON.parse(page.body);
    expect(body).toMatchObject({ status: 'ok', database: { up: true } });
    expect(body.buildId).toMatch(/^[0-9a-f]{16}$/);
    expect(['postgres', 'pglite']).toContain(body.database.engine);
    // The built-in content store is never stale (Prismic's staleness is tested with its stand-in).
    expect(body.content).toMatchObject({ source: 'builtin', stale: false });
  });
});

describe('headers', () => {
  it('sends a request id and the security headers on pages', async () => {
    const page = await get('/');
    expect(page.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    // http origin in tests: no HSTS
    expect(page.headers.get('strict-transport-security')).toBeNull();
  });
  it('never takes a request id from the client', async () => {
    const page = await get('/api/health', { headers: { 'x-request-id': 'forged-id' } });
    expect(page.headers.get('x-request-id')).not.toBe('forged-id');
    expect(page.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
  it('puts the same nonce on every inline script', async () => {
    const page = await get('/');
    const nonce = page.headers.get('content-security-policy')?.match(/'nonce-([^']+)'/)?.[1];
    const scripts = [...page.body.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attributes of scripts) expect(attributes).toContain(`nonce="${nonce}"`);
  });
});

describe('cross-site requests', () => {
  it('refuses a form posted from another site with 403 and a Japanese message', async () => {
    const page = await postForm(
      '/auth/sign_in',
      { email: 'a@example.jp', password: 'x' },
      { origin: 'https://evil.example' },
    );
    expect(page.status).toBe(403);
    expect(JSON.parse(page.body)).toMatchObject({ error: { code: 'CROSS_SITE_REQUEST' } });
  });
  it('refuses Sec-Fetch-Site: cross-site even without Origin', async () => {
    const response = await fetch(shopUrl() + '/auth/sign_out', {
      method: 'POST',
      redirect: 'manual',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(response.status).toBe(403);
  });
  it('refuses a cross-site call to the auth API', async () => {
    const response = await fetch(shopUrl() + '/api/auth/sign-up/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ name: 'x', email: 'csrf@example.jp', password: 'password123' }),
    });
    expect(response.status).toBe(403);
  });
});

describe('images and builds', () => {
  it('resizes demo art to WebP for browsers that accept it', async () => {
    const response = await fetch(shopUrl() + '/_img?src=%2Fdemo%2Fpacks%2Fpack-01.svg&w=640&q=75', {
      headers: { accept: 'image/webp,*/*' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
  });
  it('refuses a width outside the list with a Japanese 400', async () => {
    const page = await get('/_img?src=%2Fdemo%2Fpacks%2Fpack-01.svg&w=641');
    expect(page.status).toBe(400);
    expect(JSON.parse(page.body).error.message).toBe('画像の幅が正しくありません。');
  });
  it('serves builds/latest.json uncached, and the meta file of the build', async () => {
    const latest = await get(`/builds/latest.json?${Date.now()}`);
    expect(latest.status).toBe(200);
    expect(latest.headers.get('cache-control')).toBe('no-cache');
    const { id } = JSON.parse(latest.body);
    expect(JSON.parse((await get('/api/health')).body).buildId).toBe(id);
    const meta = await get(`/builds/meta/${id}.json`);
    expect(JSON.parse(meta.body)).toMatchObject({ id });
  });
});

describe('bad input never reaches a 500', () => {
  it.each(['/gacha/pokemon/%00', '/%00', '/gacha/%01x'])(
    'refuses control characters in %s with a 400',
    async (path) => {
      const page = await get(path);
      expect(page.status).toBe(400);
      expect(JSON.parse(page.body).error.message).toBe('アドレスが正しくありません。');
    },
  );
  it.each(['/%E0%A4%A', '/gacha/%ff', '/%', `/${'a'.repeat(3000)}`])(
    'answers %s with the not-found page',
    async (path) => {
      expect((await get(path)).status).toBe(404);
    },
  );
  it('refuses a huge body with 413 before reading it', async () => {
    const response = await fetch(shopUrl() + '/auth/sign_in', {
      method: 'POST',
      headers: { origin: shopUrl(), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=' + 'a'.repeat(1024 * 1024),
    });
    expect(response.status).toBe(413);
    expect((await response.json()).error.message).toBe('送信内容が大きすぎます。');
  });
  it('answers a POST to a page without an action with 405, not 500', async () => {
    const page = await postForm('/gacha/pokemon', { x: '1' });
    expect(page.status).toBe(405);
  });
});
