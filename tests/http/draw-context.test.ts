// The draw a short member came to the shop for (`?gacha=…&count=…`), over HTTP against the built shop
// with its sandbox: it is checked on the server at every step (an unknown pack, a count the pack does
// not offer or an address in its place is dropped, never followed), kept on the order through the
// provider's round trip, and offered back on the return page; sign-in honours only our own paths;
// and the 初回限定 pack says its true reason once it is gone. Works on either database engine.
import { describe, it, expect, beforeAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { get, postForm, cookieFrom, uniqueEmail, shopUrl, signUpByForm } from '#tests/http';

const PACK = { genre: 'pokemon', id: 'stellar-pokemon-001', title: '星降る夜のハイレアオリパ' };
const CONTEXT = `gacha=${PACK.id}&count=10`;
const PACK_PATH = `/gacha/${PACK.genre}/${PACK.id}?confirm=10`;
const PASSWORD = 'draw-context-1';

interface Member {
  email: string;
  cookie: string;
  bearer: string;
}

async function signUp(label: string): Promise<Member> {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name: label, email, password: PASSWORD, agreeToTerms: 'on' });
  const cookie = cookieFrom(page.headers);
  const bearer = /session_token=([^;]+)/.exec(cookie)?.[1];
  if (!bearer) throw new Error('no session cookie');
  return { email, cookie, bearer };
}

async function api(path: string, member: Member, body?: unknown) {
  const response = await fetch(`${shopUrl()}/api/v1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${member.bearer}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** Confirms `pack` with the sandbox (the posted fields are what the confirmation form sends), approves, and opens the return page. */
async function buyWithSandbox(
  member: Member,
  pack: { id: string; price: number; coins: number },
  extra: Record<string, string>,
) {
  const orderKey = randomUUID();
  const started = await postForm(
    '/shop/checkout/sandbox',
    { pack: pack.id, orderKey, price: String(pack.price), coins: String(pack.coins), ...extra },
    { cookie: member.cookie },
  );
  expect(started.status).toBe(303);
  const hosted = new URL(started.location!);
  const paid = await postForm(hosted.pathname, { decision: 'approve' }, { cookie: member.cookie });
  expect(paid.status).toBe(303);
  const back = new URL(paid.location!, shopUrl());
  expect(back.pathname).toBe('/shop/backfrompurchase');
  const page = await get(back.pathname + back.search, { cookie: member.cookie });
  expect(page.status).toBe(200);
  expect(page.body).toContain('data-state="done"');
  return page;
}

let member: Member;
beforeAll(async () => {
  member = await signUp('draw-context');
  expect((await postForm('/shop', { intent: 'declare-age', age: 'adult' }, { cookie: member.cookie })).status).toBe(
    200,
  );
});

describe('the draw carried through the coin shop', () => {
  it('shows a checked draw on /shop with what is missing, and drops anything else', async () => {
    const shop = await get(`/shop?${CONTEXT}`, { cookie: member.cookie });
    expect(shop.status).toBe(200);
    expect(shop.body).toContain('data-testid="shop-draw-context"');
    expect(shop.body).toContain(`「${PACK.title}」の10連`);
    expect(shop.body).toContain('あと5,000コイン不足しています');
    expect(shop.body).toContain(`name="gacha" value="${PACK.id}"`);

    for (const query of [
      'gacha=no-such-pack&count=10',
      `gacha=${PACK.id}&count=7`,
      `gacha=${PACK.id}&count=-10`,
      `gacha=${PACK.id}&count=1e1`,
      'gacha=https%3A%2F%2Fevil.example%2F&count=10',
      `gacha=..%2F..%2Fapi&count=10`,
      'gacha=stellar-yugioh-002&count=10', // sold out: nothing left to draw
    ]) {
      const page = await get(`/shop?${query}`, { cookie: member.cookie });
      expect(page.status, query).toBe(200);
      expect(page.body, query).not.toContain('shop-draw-context');
      expect(page.body, query).not.toContain('name="gacha"');
    }
  });

  it('carries only a checked draw from the no-JavaScript purchase form to the checkout', async () => {
    const good = await get(`/shop?pack=coin-5000&method=sandbox&${CONTEXT}`, { cookie: member.cookie });
    expect(good.status).toBe(302);
    expect(good.location).toBe(`/shop/checkout/sandbox?pack=coin-5000&${CONTEXT}`);
    const bad = await get(`/shop?pack=coin-5000&method=sandbox&gacha=${PACK.id}&count=3`, { cookie: member.cookie });
    expect(bad.location).toBe('/shop/checkout/sandbox?pack=coin-5000');

    const confirm = await get(`/shop/checkout/sandbox?pack=coin-5000&${CONTEXT}`, { cookie: member.cookie });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain(`name="gacha" value="${PACK.id}"`);
    expect(confirm.body).toContain('name="count" value="10"');
    expect(confirm.body).toContain(`href="/shop?${CONTEXT.replace('&', '&amp;')}"`);
    const wrong = await get('/shop/checkout/sandbox?pack=coin-5000&gacha=no-such-pack&count=10', {
      cookie: member.cookie,
    });
    expect(wrong.status).toBe(200);
    expect(wrong.body).not.toContain('name="gacha"');
  });

  it('warns before a first purchase of another pack that the 初回限定 offer ends', async () => {
    const shop = await get('/shop', { cookie: member.cookie });
    expect(shop.body).toMatch(/data-pack-id="first-500" data-featured="true"/);
    const other = await get('/shop/checkout/sandbox?pack=coin-5000', { cookie: member.cookie });
    expect(other.body).toContain('初回限定プランは初回購入時のみ選べます。他のプランを購入すると対象外になります。');
    const offer = await get('/shop/checkout/sandbox?pack=first-500', { cookie: member.cookie });
    expect(offer.status).toBe(200);
    expect(offer.body).not.toContain('first-offer-warning');
  });

  it('drops a forged draw posted with the confirmation: the purchase goes on, the return page offers no draw', async () => {
    const forged = await signUp('draw-context-forged');
    await postForm('/shop', { intent: 'declare-age', age: 'adult' }, { cookie: forged.cookie });
    const page = await buyWithSandbox(
      forged,
      { id: 'coin-500', price: 500, coins: 500 },
      { gacha: 'https://evil.example', count: '10' },
    );
    expect(page.body).not.toContain('continue-draw');
    expect(page.body).not.toContain('evil.example');
    const history = await api('/me/purchases', forged);
    expect(history.body.items[0]).toMatchObject({ status: 'paid', drawContext: null });
  });

  it('keeps the draw on the order through the provider and offers 「続けて10連を引く」 when paid', async () => {
    const page = await buyWithSandbox(
      member,
      { id: 'coin-5000', price: 5000, coins: 5150 },
      { gacha: PACK.id, count: '10' },
    );
    expect(page.body).toContain(`続けて10連を引く（${PACK.title}）`);
    expect(page.body).toContain(`href="${PACK_PATH}"`);
    const history = await api('/me/purchases', member);
    expect(history.body.items[0]).toMatchObject({ status: 'paid', drawContext: { gachaId: PACK.id, count: 10 } });
  });

  it('says the true reason once the 初回限定 pack is gone, on the page and in the API', async () => {
    // The member above bought another pack first: the offer was for the first purchase only.
    const shop = await get('/shop', { cookie: member.cookie });
    expect(shop.body).toContain('初回購入のみ対象です');
    expect(shop.body).not.toContain('購入済みのため対象外');
    expect(shop.body).not.toContain('data-featured');
    const listed = await api('/coin-shop', member);
    const first = listed.body.packs.find((p: { id: string }) => p.id === 'first-500');
    expect(first).toMatchObject({ available: false, unavailableReason: '初回購入のみ対象です' });
    expect(listed.body.packs.find((p: { id: string }) => p.id === 'coin-500')).toMatchObject({
      available: true,
      unavailableReason: null,
    });
    const refused = await api('/me/purchases', member, { packId: 'first-500', method: 'sandbox' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'FIRST_PURCHASE_ONLY' });
    expect(refused.body.error.message).toContain('初回購入のみ対象です');
  });
});

describe('signing in from a pack', () => {
  it('lands on the pack with the chosen count, and never on another site', async () => {
    const visitor = await signUp('draw-context-signin');
    const signIn = (redirect: string) =>
      postForm('/auth/sign_in', { email: visitor.email, password: PASSWORD, redirect });
    expect((await signIn(PACK_PATH)).location).toBe(PACK_PATH);
    for (const target of ['https://evil.example/gacha', '//evil.example/x', '/\\evil.example']) {
      expect((await signIn(target)).location, target).toBe('/');
    }
    const signedUp = await signUpByForm({
      name: 'ctx',
      email: uniqueEmail('draw-context-signup'),
      password: PASSWORD,
      agreeToTerms: 'on',
      redirect: PACK_PATH,
    });
    expect(signedUp.location).toBe(PACK_PATH);
    const away = await signUpByForm({
      name: 'ctx',
      email: uniqueEmail('draw-context-away'),
      password: PASSWORD,
      agreeToTerms: 'on',
      redirect: 'https://evil.example/',
    });
    expect(away.location).toBe('/');
  });

  it('the pack page opens the confirmation from ?confirm=, whose sign-in link returns to it', async () => {
    const page = await get(PACK_PATH);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`href="/auth/sign_in?redirect=${encodeURIComponent(PACK_PATH)}"`);
  });
});
