// Security middleware in isolation: HSTS only behind https, the cross-site check, the client address.
import { describe, it, expect } from 'vitest';
import { Hono } from 'hono';
import { securityHeaders, crossSiteRequestGuard, clientAddress, isSafeMethod } from './security';
import { loadConfig } from './config';
import { CLIENT_IP_HEADER } from '#modules/identity/server';

const config = (env: Record<string, string>) =>
  loadConfig({
    AUTH_SECRET: 'x'.repeat(40),
    DATA_DIR: '/tmp/oripa-security-test',
    // An https shop must name its address key (docs/decisions/019).
    ADDRESS_ENCRYPTION_KEYS: 'test:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    ...env,
  });

function appWith(env: Record<string, string>) {
  const shopConfig = config(env);
  const app = new Hono();
  app.use(securityHeaders(shopConfig));
  app.use(clientAddress(shopConfig));
  app.use(crossSiteRequestGuard(shopConfig));
  app.all('*', (c) => c.json({ ip: c.req.header(CLIENT_IP_HEADER) ?? null }));
  return app;
}

describe('security headers', () => {
  it('sends HSTS only when the public origin is https', async () => {
    const https = await appWith({ PUBLIC_ORIGIN: 'https://oripa.example.jp' }).request('/');
    expect(https.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const http = await appWith({ PUBLIC_ORIGIN: 'http://localhost:3000' }).request('/');
    expect(http.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('opener policy (popup sign-in)', () => {
  it('keeps our popups tied to their opener, and drops the policy only on the way back from a provider', async () => {
    const app = appWith({ PUBLIC_ORIGIN: 'https://oripa.example.jp' });
    for (const path of ['/', '/auth/sign_in', '/mypage', '/api/auth/get-session'])
      expect((await app.request(path)).headers.get('cross-origin-opener-policy'), path).toBe(
        'same-origin-allow-popups',
      );
    for (const path of ['/auth/popup', '/auth/popup?redirect=%2Fmypage', '/api/auth/callback/github?code=x'])
      expect((await app.request(path)).headers.get('cross-origin-opener-policy'), path).toBeNull();
  });
});

describe('framing', () => {
  it('lets only our own origin frame /preview, and nobody frame anything else', async () => {
    const app = appWith({ PUBLIC_ORIGIN: 'https://oripa.example.jp' });
    const preview = await app.request('/preview?document=x&version=1');
    expect(preview.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(preview.headers.get('content-security-policy')).not.toContain("frame-ancestors 'none'");
    expect(preview.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    for (const path of ['/', '/admin/content/x', '/preview-x', '/tokushoho']) {
      const other = await app.request(path);
      expect(other.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(other.headers.get('x-frame-options'), path).toBe('DENY');
    }
  });
});

describe('frames and the captcha in the CSP', () => {
  const csp = async (env: Record<string, string>) =>
    (await appWith({ PUBLIC_ORIGIN: 'https://oripa.example.jp', ...env }).request('/')).headers.get(
      'content-security-policy',
    ) ?? '';
  const directive = (policy: string, name: string) =>
    policy
      .split(';')
      .map((part) => part.trim())
      .find((part) => part.startsWith(`${name} `)) ?? '';
  it("allows Prismic's image CDN only when pages come from Prismic", async () => {
    expect(directive(await csp({}), 'img-src')).not.toContain('images.prismic.io');
    const prismic = directive(await csp({ CONTENT_SOURCE: 'prismic', PRISMIC_REPOSITORY: 'stella-shop' }), 'img-src');
    expect(prismic).toContain('https://images.prismic.io');
  });
  it('allows Cloudflare Turnstile for scripts and frames only when it is configured', async () => {
    const without = await csp({});
    expect(without).not.toContain('challenges.cloudflare.com');
    const configured = await csp({ TURNSTILE_SITE_KEY: '0x4AAAAAAAexample', TURNSTILE_SECRET_KEY: '0x4AAAAAAAsecret' });
    expect(directive(configured, 'script-src')).toContain('https://challenges.cloudflare.com');
    expect(directive(configured, 'frame-src')).toContain('https://challenges.cloudflare.com');
    expect(directive(configured, 'connect-src')).not.toContain('challenges.cloudflare.com');
  });
  it('allows our own pages (the editor frames /preview) and exactly the two embed players as frames besides the captcha (issue 15)', async () => {
    const frames = (policy: string) => directive(policy, 'frame-src').split(/\s+/).slice(1).sort();
    expect(frames(await csp({}))).toEqual([
      "'self'",
      'https://platform.twitter.com',
      'https://www.youtube-nocookie.com',
    ]);
    const configured = await csp({ TURNSTILE_SITE_KEY: '0x4AAAAAAAexample', TURNSTILE_SECRET_KEY: '0x4AAAAAAAsecret' });
    expect(frames(configured)).toEqual([
      "'self'",
      'https://challenges.cloudflare.com',
      'https://platform.twitter.com',
      'https://www.youtube-nocookie.com',
    ]);
    // The players are frames only: they may not run scripts on our page or be fetched from it.
    expect(directive(configured, 'script-src')).not.toMatch(/youtube|twitter/);
    expect(directive(configured, 'connect-src')).not.toMatch(/youtube|twitter/);
  });
  it("allows the local stand-in's origin instead in the sandbox", async () => {
    const policy = await csp({
      PUBLIC_ORIGIN: 'http://localhost:3000',
      TURNSTILE_SITE_KEY: 'standin-site-key',
      TURNSTILE_SECRET_KEY: 'standin-secret-key',
      TURNSTILE_VERIFY_URL: 'http://127.0.0.1:4567/turnstile/v0/siteverify',
    });
    expect(directive(policy, 'script-src')).toContain('http://127.0.0.1:4567');
    expect(policy).not.toContain('challenges.cloudflare.com');
  });
});

describe('cross-site request guard', () => {
  const app = appWith({ PUBLIC_ORIGIN: 'https://oripa.example.jp' });
  const post = (headers: Record<string, string>, path = '/auth/sign_in') =>
    app.request(path, { method: 'POST', headers });
  it('lets same-origin posts and clients without browser headers through', async () => {
    expect((await post({ origin: 'https://oripa.example.jp', 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await post({})).status).toBe(200);
  });
  it('refuses another origin, a sibling site and a cross-site fetch', async () => {
    expect((await post({ origin: 'https://evil.example' })).status).toBe(403);
    expect((await post({ origin: 'https://oripa.example.jp', 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await post({ 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    const body = await (await post({ origin: 'null' })).json();
    expect(body.error.code).toBe('CROSS_SITE_REQUEST');
  });
  it('never blocks safe methods or provider webhooks', async () => {
    expect((await app.request('/', { headers: { origin: 'https://evil.example' } })).status).toBe(200);
    expect((await post({ origin: 'https://provider.example' }, '/api/webhooks/stripe')).status).toBe(200);
    expect(isSafeMethod('HEAD')).toBe(true);
    expect(isSafeMethod('DELETE')).toBe(false);
  });
});

describe('client address', () => {
  it('ignores a forged address header and X-Forwarded-For unless the proxy is trusted', async () => {
    const untrusted = appWith({});
    const body = await (
      await untrusted.request('/', { headers: { [CLIENT_IP_HEADER]: '6.6.6.6', 'x-forwarded-for': '7.7.7.7' } })
    ).json();
    expect(body.ip).not.toBe('6.6.6.6');
    expect(body.ip).not.toBe('7.7.7.7');
    const trusted = appWith({ TRUST_PROXY: 'true' });
    const viaProxy = await (await trusted.request('/', { headers: { 'x-forwarded-for': '7.7.7.7, 10.0.0.2' } })).json();
    expect(viaProxy.ip).toBe('10.0.0.2');
  });
});
