// The coin shop over HTTP against the built shop (its sandbox and stand-ins run beside it, as on a
// developer's machine): the purchase API with its idempotency and ownership, the webhook endpoint's
// refusals, the native app's one-time-token hand-off into /app/checkout, the app's return, and
// linking a LINE account through the LINE Login stand-in. Works on either database engine.
import { describe, it, expect, beforeAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { get, postForm, cookieFrom, uniqueEmail, shopUrl, signUpByForm } from '#tests/http';

interface Member {
  cookie: string;
  bearer: string;
}

/** The native app's web view marks its user agent (modules/kernel/navigation.ts). */
const APP = { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) OripaStellaApp/1.0' };

async function signUp(label: string): Promise<Member> {
  const page = await signUpByForm({
    name: label,
    email: uniqueEmail(label),
    password: 'purchase-api-1',
    agreeToTerms: 'on',
  });
  const cookie = cookieFrom(page.headers);
  const bearer = /session_token=([^;]+)/.exec(cookie)?.[1];
  if (!bearer) throw new Error('no session cookie');
  return { cookie, bearer };
}

async function api(path: string, options: { member?: Member; method?: string; body?: unknown; key?: string } = {}) {
  const headers: Record<string, string> = {};
  if (options.member) headers.authorization = `Bearer ${options.member.bearer}`;
  if (options.key) headers['idempotency-key'] = options.key;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${shopUrl()}/api/v1${path}`, {
    method: options.method ?? (options.body !== undefined ? 'POST' : 'GET'),
    headers,
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    redirect: 'manual',
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

let alice: Member;
let bob: Member;
beforeAll(async () => {
  alice = await signUp('purchase-alice');
  bob = await signUp('purchase-bob');
});

describe('the purchase API', () => {
  it('lists packs and methods, asks for the age, then opens one checkout per key', async () => {
    const shop = await api('/coin-shop', { member: alice });
    expect(shop.status).toBe(200);
    expect(shop.body.packs.map((p: { priceJpy: number }) => p.priceJpy)).toEqual(
      expect.arrayContaining([500, 100_000]),
    );
    expect(shop.body.methods.map((m: { method: string }) => m.method)).toEqual([
      'stripe',
      'paypay',
      'paidy',
      'merpay',
      'amazonpay',
      'sandbox',
    ]);
    expect(shop.body.standing).toMatchObject({ declared: false, capJpy: 500_000 });

    const key = randomUUID();
    const early = await api('/me/purchases', { member: alice, body: { packId: 'coin-1000', method: 'sandbox' }, key });
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({ code: 'AGE_DECLARATION_REQUIRED' });
    expect(early.body.error.message).toContain('年齢');

    expect((await api('/me/age-declaration', { member: alice, method: 'PUT', body: { minor: false } })).body).toEqual({
      declaredMinor: false,
    });
    const first = await api('/me/purchases', { member: alice, body: { packId: 'coin-1000', method: 'sandbox' }, key });
    expect(first.status).toBe(201);
    expect(first.body.purchase).toMatchObject({
      status: 'pending',
      amountJpy: 1000,
      paidCoins: 1000,
      bonusCoins: 10,
      channel: 'app',
    });
    expect(first.body.redirectUrl).toMatch(/\/sandbox\/pay\/sbp_/);
    const again = await api('/me/purchases', { member: alice, body: { packId: 'coin-1000', method: 'sandbox' }, key });
    expect(again.body.purchase.id).toBe(first.body.purchase.id);
    expect(again.body.redirectUrl).toBe(first.body.redirectUrl);

    // Bob cannot see Alice's purchase, nor guess it into his list.
    expect((await api(`/purchases/${first.body.purchase.id}`, { member: bob })).status).toBe(404);
    expect((await api('/me/purchases', { member: bob })).body.items).toEqual([]);
    expect((await api(`/purchases/${first.body.purchase.id}`)).status).toBe(401);

    // The member pays on the sandbox page; the status answer asks the provider and credits.
    const pay = await postForm(
      new URL(first.body.redirectUrl).pathname,
      { decision: 'approve' },
      { cookie: alice.cookie },
    );
    expect(pay.status).toBe(303);
    expect(pay.location).toContain(`/app/return?order=${first.body.purchase.id}`);
    const status = await api(`/purchases/${first.body.purchase.id}`, { member: alice });
    expect(status.body.purchase).toMatchObject({ status: 'paid', analyticsLabel: 'paid coin + 10 bonus coin' });
    expect((await api('/me/wallet', { member: alice })).body).toMatchObject({ paid: 1000, free: 10 });
    const history = await api('/me/purchases', { member: alice });
    expect(history.body.items.map((p: { id: string }) => p.id)).toEqual([first.body.purchase.id]);
  });

  it('refuses bad input with Japanese messages and 4xx, never 500', async () => {
    expect((await api('/me/purchases', { member: bob, body: { packId: 'coin-1000', method: 'sandbox' } })).status).toBe(
      400,
    );
    const bad = await api('/me/purchases', {
      member: bob,
      body: { packId: 'coin-1000', method: 'bitcoin' },
      key: randomUUID(),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    await api('/me/age-declaration', { member: bob, method: 'PUT', body: { minor: true } });
    const capped = await api('/me/purchases', {
      member: bob,
      body: { packId: 'coin-30000', method: 'sandbox' },
      key: randomUUID(),
    });
    expect(capped.status).toBe(422);
    expect(capped.body.error).toMatchObject({ code: 'MINOR_CAP_EXCEEDED', details: { capJpy: 10_000 } });
    expect((await api('/purchases/not-a-uuid', { member: bob })).status).toBe(400);
  });
});

describe('webhooks', () => {
  it('refuses deliveries it cannot verify, with 4xx and the Japanese error body', async () => {
    const post = (provider: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${shopUrl()}/api/webhooks/${provider}`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', ...headers },
      });
    const unsigned = await post(
      'sandbox',
      JSON.stringify({ id: 'evt_x', type: 'payment.succeeded', data: { payment: { id: 'sbp_x' } } }),
    );
    expect(unsigned.status).toBe(400);
    expect((await unsigned.json()).error).toMatchObject({
      code: 'WEBHOOK_REJECTED',
      message: 'Webhookの署名を確認できませんでした。',
    });
    const forged = await post('stripe', '{"id":"evt_1","type":"checkout.session.completed"}', {
      'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
    });
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect(forged.status).toBeLessThan(500);
    expect((await post('bitcoin', '{}')).status).toBe(404);
    // A body PostgreSQL cannot store (U+0000) is still a 4xx, not a 500.
    expect((await post('paidy', '{"payment_id":"pay_\\u0000x","status":"authorize_success"}')).status).toBeLessThan(
      500,
    );
    // Cross-site checks do not apply to providers (they send no Origin), only signatures do.
    expect((await post('sandbox', '{}', { origin: 'https://evil.example' })).status).toBe(400);
  });
});

describe('the sandbox', () => {
  it('is only for a browser on the machine itself: another Host gets 404', async () => {
    const member = await signUp('purchase-sandbox');
    await api('/me/age-declaration', { member, method: 'PUT', body: { minor: false } });
    const { redirectUrl } = (
      await api('/me/purchases', {
        member,
        body: { packId: 'coin-500', method: 'sandbox', channel: 'web' },
        key: randomUUID(),
      })
    ).body;
    const path = new URL(redirectUrl).pathname;
    const here = await get(path);
    expect(here.status).toBe(200);
    expect(here.body).toContain('お支払いを承認');
    const elsewhere = await new Promise<number>((resolve, reject) => {
      const url = new URL(shopUrl() + path);
      http
        .get({ host: '127.0.0.1', port: url.port, path, headers: { host: 'shop.example.jp' } }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        })
        .on('error', reject);
    });
    expect(elsewhere).toBe(404);
    // Through a proxy on the same machine every client looks local: forwarded requests are refused too.
    expect((await get(path, { headers: { 'x-forwarded-for': '203.0.113.7' } })).status).toBe(404);
  });
});

describe('the native app', () => {
  it('signs its member in on any page with the custom token (/auth/action?mode=customToken), in the app only, once', async () => {
    const member = await signUp('custom-token');
    const token = ((await api('/me/app-handoffs', { member, method: 'POST' })).body as { token: string }).token;
    const link = `/auth/action?mode=customToken&oobCode=${token}&continueUrl=${encodeURIComponent('/mypage?tab=coins')}`;

    const browser = await get(link);
    expect(browser.status).toBe(410);
    expect(browser.body).toContain('アプリの中でだけ使えます');
    expect(cookieFrom(browser.headers)).not.toContain('session_token');

    const opened = await get(link, { headers: APP });
    expect([opened.status, opened.location]).toEqual([302, '/mypage?tab=coins']);
    const cookie = cookieFrom(opened.headers);
    expect(cookie).toContain('session_token');
    expect((await get('/mypage?tab=coins', { cookie })).body).toContain('コイン履歴');

    const replay = await get(link, { headers: APP });
    expect(replay.status).toBe(410);
    expect(cookieFrom(replay.headers)).not.toContain('session_token');
    // A continue address off the site lands on the home page.
    const other = ((await api('/me/app-handoffs', { member, method: 'POST' })).body as { token: string }).token;
    const away = await get(`/auth/action?mode=customToken&oobCode=${other}&continueUrl=https%3A%2F%2Fevil.example%2F`, {
      headers: APP,
    });
    expect([away.status, away.location]).toEqual([302, '/']);
  });

  it('opens /app/checkout signed in by a one-time token, once, and comes back to the app', async () => {
    const member = await signUp('purchase-app');
    await api('/me/age-declaration', { member, method: 'PUT', body: { minor: false } });
    const handoff = await api('/me/app-handoffs', { member, method: 'POST' });
    expect(handoff.status).toBe(201);
    const { token } = handoff.body as { token: string };

    // An ordinary browser cannot use it (someone else's link must not sign a victim in as them).
    const browser = await get(`/app/checkout/stripe?pack=coin-500&ott=${token}`);
    expect(browser.status).toBe(403);
    expect(browser.body).toContain('このリンクはアプリ専用です');
    expect(cookieFrom(browser.headers)).not.toContain('session_token');

    const opened = await get(`/app/checkout/stripe?pack=coin-500&ott=${token}`, { headers: APP });
    expect(opened.status).toBe(302);
    expect(opened.location).toBe('/app/checkout/stripe?pack=coin-500');
    const cookie = cookieFrom(opened.headers);
    expect(cookie).toContain('session_token');
    const confirm = await get('/app/checkout/stripe?pack=coin-500', { cookie });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain('購入を確定する');
    expect(confirm.body).toContain('アプリに戻る');

    // The token is spent: a second use is refused, and the page sends the member back to the app.
    const replay = await get(`/app/checkout/stripe?pack=coin-500&ott=${token}`, { headers: APP });
    expect(replay.status).toBe(401);
    expect(replay.body).toContain('アプリから開き直してください');

    // Confirming leads to the provider's page (here Stripe's stand-in); the return is /app/return.
    const orderKey = /name="orderKey" value="([0-9a-f-]{36})"/.exec(confirm.body)?.[1];
    expect(orderKey).toBeTruthy();
    expect(confirm.body).toContain('name="price" value="500"');
    const started = await postForm(
      '/app/checkout/stripe',
      { pack: 'coin-500', orderKey: orderKey!, price: '500', coins: '500' },
      { cookie },
    );
    expect(started.status).toBe(303);
    expect(started.location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/c\/pay\/cs_test_/);
    const back = await get(`/app/return?order=${orderKey}`, { cookie, headers: APP });
    expect(back.status).toBe(200);
    expect(back.body).toContain('oripastella://checkout/complete?order=');
    expect(back.body).toContain('status=pending');
  });

  it('links a LINE account through LINE Login and returns to the app', async () => {
    const member = await signUp('purchase-line');
    const start = await get('/app/checkout/linelink', { cookie: member.cookie });
    expect(start.status).toBe(302);
    const authorize = new URL(start.location!);
    expect(authorize.pathname).toBe('/oauth2/v2.1/authorize');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${shopUrl()}/api/auth/callback/line`);
    const stateCookie = cookieFrom(start.headers);

    // The consent page of the LINE Login stand-in: 許可する.
    const consent = await fetch(authorize, { redirect: 'manual' });
    const requestId = /name="request_id" value="([^"]+)"/.exec(await consent.text())?.[1];
    const allowed = await fetch(new URL('/oauth2/v2.1/authorize', authorize), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ request_id: requestId!, decision: 'allow' }),
    });
    const callback = new URL(allowed.headers.get('location')!);
    expect(callback.pathname).toBe('/api/auth/callback/line');
    const linked = await get(callback.pathname + callback.search, { cookie: `${member.cookie}; ${stateCookie}` });
    expect(linked.status).toBe(302);
    expect(linked.location).toContain('/app/checkout/linelink?done=1');
    const done = await get('/app/checkout/linelink?done=1', { cookie: member.cookie });
    expect(done.body).toContain('LINEアカウントを連携しました');
    expect(done.body).toContain('oripastella://checkout/complete?status=linked&amp;provider=line');
    // Linking again says it is done, and does not start another flow.
    const again = await get('/app/checkout/linelink', { cookie: member.cookie });
    expect(again.status).toBe(200);
    expect(again.body).toContain('LINEアカウントは連携済みです');
  });
});

describe('one-time tokens', () => {
  it('are rate-limited per address like sign-in: guesses from one address get 429', async () => {
    const statuses: number[] = [];
    // The test shop allows SIGN_IN_ATTEMPTS_PER_MINUTE=30 (tests/support/global-shop.ts).
    for (let i = 0; i < 34; i += 1) {
      // Keyed on the socket's address (127.0.0.1 here; this file's other token use comes before).
      const page = await get(`/app/checkout/paypay?ott=${randomUUID().replaceAll('-', '')}`, { headers: APP });
      statuses.push(page.status);
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses).toContain(429);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  });
});
