// Maintenance mode over HTTP against the built shop (one instance: the admin page refreshes its own
// cache, so the switch is seen at once): who may open /admin/maintenance (members 404, staff without
// shop:write 403), switching on only after the confirmation, the banner with the planned end in JST,
// members' draws, checkouts and address changes refused in Japanese with 503 (API: Retry-After and
// docs/api.md's error body; pages: on the form, never a 500), a payment started before and paid meanwhile
// still credited through the return page and the webhook, the admin area usable, health saying so.
// The switch is shop-wide, so this file runs a shop of its own (tests/support/own-shop.ts): no file beside
// it ever meets a closed shop.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { adminAuditLog, users } from '#db/schema';
import { checkInvariants, getBalance } from '#modules/wallet';
import { readMaintenance } from '#modules/shop';
import { runAdminCommand } from '../../scripts/shop-admin';
import { TEST_RULES } from '#tests/fixtures';
import { cookieFrom, get, postForm, shopUrl, signUpByForm, uniqueEmail, useShopAt } from '#tests/http';
import { startOwnShop, type OwnShop } from '#tests/own-shop';
import { grantStaff } from '#tests/staff';
import { testShop } from '#tests/test-shop';

// Staff and coins are set up in the shop's database beside it: PostgreSQL, as the shared shop's engine says.
const databaseUrl = testShop().databaseUrl;
const PACK = 'stellar-pokemon-003';
let handle: DatabaseHandle | undefined;
let own: OwnShop | undefined;

interface Member {
  id: string;
  email: string;
  cookie: string;
}

async function signUp(label: string, coins = 0): Promise<Member> {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name: label, email, password: 'maintenance-1234', agreeToTerms: 'on' });
  const cookie = cookieFrom(page.headers);
  const [row] = await handle!.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (coins > 0)
    await runAdminCommand(
      handle!.db,
      ['coins:grant', '--member', email, '--amount', String(coins), '--kind', 'paid', '--reason', 'テスト'],
      () => undefined,
      { lifetimes: TEST_RULES.coinLifetimes },
    );
  return { id: row!.id, email, cookie };
}

/** The signed session token a cookie header carries: what an app sends as its bearer token. */
const sessionCookieValue = (cookie: string) => {
  const pair = cookie.split('; ').find((p) => p.split('=')[0]!.endsWith('session_token'))!;
  return pair.slice(pair.indexOf('=') + 1);
};

async function staff(label: string, role: 'admin' | 'staff', permissions: string[] = []): Promise<Member> {
  const member = await signUp(label);
  // The operators' command line; an admin waits for an existing admin's approval (tests/support/staff.ts).
  await grantStaff(handle!.db, member.email, role === 'staff' ? permissions : undefined);
  return member;
}

async function api(path: string, member: Member, init: { method?: string; body?: unknown; key?: string } = {}) {
  const response = await fetch(`${shopUrl()}/api/v1${path}`, {
    method: init.method ?? 'POST',
    headers: {
      cookie: member.cookie,
      origin: shopUrl(),
      'content-type': 'application/json',
      ...(init.key ? { 'idempotency-key': init.key } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

/** The page's text as a reader sees it: React's text separators and entities undone. */
const unescape = (html: string) =>
  html
    .replaceAll('<!-- -->', '')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

beforeAll(async () => {
  if (!databaseUrl) return;
  // The shared shop's settings that these requests rely on: many sign-ups from 127.0.0.1, every page rendered.
  own = await startOwnShop('maintenance', {
    SIGN_UP_ATTEMPTS_PER_MINUTE: '500',
    SIGN_IN_ATTEMPTS_PER_MINUTE: '30',
    PAGE_CACHE_SECONDS: '0',
  });
  useShopAt(own.base);
  handle = await openDatabase({
    databaseUrl: own.database.databaseUrl!,
    dataDir: own.database.dataDir,
    poolSize: 2,
  });
});
afterAll(async () => {
  if (handle) expect(await checkInvariants(handle.db)).toEqual([]);
  await handle?.close();
  useShopAt(null);
  await own?.stop();
});

describe.skipIf(!databaseUrl)(
  `maintenance mode${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop for staff and coins)'}`,
  () => {
    it('answers members 404 and staff without shop:write 403, page and action alike', async () => {
      const member = await signUp('maint-member');
      expect((await get('/admin/maintenance', { cookie: member.cookie })).status).toBe(404);
      expect((await postForm('/admin/maintenance', { intent: 'off' }, { cookie: member.cookie })).status).toBe(404);
      const auditor = await staff('maint-auditor', 'staff', ['audit:read']);
      expect((await get('/admin/maintenance', { cookie: auditor.cookie })).status).toBe(403);
      const tried = await postForm(
        '/admin/maintenance',
        { intent: 'on', confirmed: 'yes', message: '', endsAt: '' },
        { cookie: auditor.cookie },
      );
      expect(tried.status).toBe(403);
      expect((await readMaintenance(handle!.db)).on).toBe(false);
      // The admin home offers the page only to whoever holds shop:write.
      expect((await get('/admin', { cookie: auditor.cookie })).body).not.toContain('/admin/maintenance');
    });

    it('switches on only after the confirmation; members see the banner and cannot draw, buy or change addresses; money paid meanwhile is credited', async () => {
      const operator = await staff('maint-operator', 'staff', ['shop:write', 'audit:read']);
      const alice = await signUp('maint-alice', 1000);
      // A checkout opened before maintenance (web channel: it returns to /shop/backfrompurchase).
      await api('/me/age-declaration', alice, { method: 'PUT', body: { minor: false } });
      const opened = await api('/me/purchases', alice, {
        body: { packId: 'coin-1000', method: 'sandbox', channel: 'web' },
        key: randomUUID(),
      });
      expect(opened.status, JSON.stringify(opened.body)).toBe(201);

      const page = await get('/admin/maintenance', { cookie: operator.cookie });
      expect(page.status).toBe(200);
      expect(unescape(page.body)).toContain('現在の状態：通常営業');
      const endsAt = new Date(Date.now() + 2 * 3600_000);
      const local = new Date(endsAt.getTime() + 9 * 3600_000).toISOString().slice(0, 16);
      const review = await postForm(
        '/admin/maintenance',
        { intent: 'review', message: 'サーバーの入れ替えのため、一時的にお休みします。', endsAt: local },
        { cookie: operator.cookie },
      );
      expect(review.status).toBe(200);
      expect(review.body).toContain('メンテナンスを開始しますか？');
      expect((await readMaintenance(handle!.db)).on).toBe(false); // nothing switched yet
      // A past end is refused in Japanese, on the form.
      const past = await postForm(
        '/admin/maintenance',
        { intent: 'review', message: '', endsAt: '2020-01-01T00:00' },
        { cookie: operator.cookie },
      );
      expect(past.status).toBe(422);
      expect(past.body).toContain('終了予定が過去の日時です');
      const switched = await postForm(
        '/admin/maintenance',
        { intent: 'on', confirmed: 'yes', message: 'サーバーの入れ替えのため、一時的にお休みします。', endsAt: local },
        { cookie: operator.cookie },
      );
      expect(switched.status).toBe(200);
      expect(switched.body).toContain('メンテナンスを開始しました');
      const [entry] = await handle!.db
        .select()
        .from(adminAuditLog)
        .where(eq(adminAuditLog.action, 'shop.maintenance.on'))
        .orderBy(adminAuditLog.id);
      expect(entry).toMatchObject({ actorLabel: operator.email, permission: 'shop:write' });

      // The banner, on a visitor's page and a member's, with the planned end in Japan time.
      const endText = `${endsAt.toLocaleString('ja-JP', { timeZone: 'Asia/Tokyo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })}`;
      for (const cookie of [undefined, alice.cookie]) {
        const home = await get('/', { cookie });
        expect(home.status).toBe(200);
        expect(home.body).toContain('メンテナンス中のお知らせ');
        expect(home.body).toContain('サーバーの入れ替えのため、一時的にお休みします。');
        expect(home.body).toContain(endText);
        expect(home.body).toContain('（日本時間）');
      }
      // Browsing stays: a pack page.
      expect((await get(`/gacha/pokemon/${PACK}`, { cookie: alice.cookie })).status).toBe(200);
      const health = JSON.parse((await get('/api/health')).body) as { status: string; maintenance: unknown };
      expect(health).toMatchObject({
        status: 'ok',
        maintenance: { on: true, endsAt: endsAt.toISOString().slice(0, 17) + '00.000Z' },
      });

      // The API's draw: 503, Retry-After, docs/api.md's body in Japanese; nothing spent.
      const drawn = await api(`/gachas/${PACK}/draws`, alice, { body: { count: 1 }, key: randomUUID() });
      expect(drawn.status).toBe(503);
      expect(Number(drawn.headers.get('retry-after'))).toBeGreaterThan(3600);
      expect(drawn.body.error).toMatchObject({ code: 'MAINTENANCE', details: { endsAt: expect.any(String) } });
      expect(drawn.body.error.message).toContain('メンテナンス中');
      // An app's draw (the session as a bearer token, no cookie: the draw lane, decision 079): the same.
      const appDraw = await fetch(`${shopUrl()}/api/v1/gachas/${PACK}/draws`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${sessionCookieValue(alice.cookie)}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: JSON.stringify({ count: 1 }),
      });
      expect(appDraw.status).toBe(503);
      expect(Number(appDraw.headers.get('retry-after'))).toBeGreaterThan(3600);
      const appBody = (await appDraw.json()) as { error: { code: string; message: string; details: unknown } };
      expect(appBody.error).toMatchObject({ code: 'MAINTENANCE', message: drawn.body.error.message });
      expect(appBody.error.details).toEqual(drawn.body.error.details);
      // The pack page's draw form: the message on the page, 503, never a 500.
      const form = await postForm(
        `/gacha/pokemon/${PACK}`,
        { count: '1', idempotencyKey: randomUUID() },
        { cookie: alice.cookie },
      );
      expect(form.status).toBe(503);
      expect(unescape(form.body)).toContain('ただいまメンテナンス中のため、この操作はご利用いただけません。');
      expect(await getBalance(handle!.db, alice.id)).toMatchObject({ paid: 1000 });

      // A new checkout: the API and the confirmation page.
      const buying = await api('/me/purchases', alice, {
        body: { packId: 'coin-500', method: 'sandbox' },
        key: randomUUID(),
      });
      expect(buying.status).toBe(503);
      expect(buying.body.error.code).toBe('MAINTENANCE');
      const confirm = await get('/shop/checkout/sandbox?pack=coin-500', { cookie: alice.cookie });
      expect(confirm.status).toBe(503);
      expect(unescape(confirm.body)).toContain('メンテナンス中');
      // An address change.
      const address = await postForm(
        '/mypage/addresses',
        { intent: 'save', name: '山田 太郎' },
        { cookie: alice.cookie },
      );
      expect(address.status).toBe(503);
      expect(unescape(address.body)).toContain('メンテナンス中');
      const addressApi = await api('/me/addresses', alice, { body: { name: '山田 太郎' } });
      expect(addressApi.status).toBe(503);
      // The farm's page action and its API (free coins are money too).
      const farm = await postForm(
        '/app/farm',
        { intent: 'plant', plotNo: '1', seedId: 'radish' },
        { cookie: alice.cookie },
      );
      expect(farm.status).toBe(503);
      expect(unescape(farm.body)).toContain('メンテナンス中');
      expect((await api('/me/farm/plots/1/plant', alice, { body: { seedId: 'radish' } })).status).toBe(503);

      // The checkout opened before: paid now, the return page credits it, and the webhook does not twice.
      const pay = await postForm(
        new URL(opened.body.redirectUrl).pathname,
        { decision: 'approve' },
        { cookie: alice.cookie },
      );
      expect(pay.status).toBe(303);
      expect(pay.location).toContain('/shop/backfrompurchase?order=');
      const back = await get(new URL(pay.location!, shopUrl()).pathname + new URL(pay.location!, shopUrl()).search, {
        cookie: alice.cookie,
      });
      expect(back.status).toBe(200);
      const deadline = Date.now() + 10_000;
      while ((await getBalance(handle!.db, alice.id)).paid !== 2000 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await getBalance(handle!.db, alice.id)).toMatchObject({ paid: 2000, free: 10 });

      // The admin area stays usable.
      expect((await get('/admin/audit', { cookie: operator.cookie })).status).toBe(200);

      // Off: the banner goes, the draw works again.
      const offed = await postForm('/admin/maintenance', { intent: 'off' }, { cookie: operator.cookie });
      expect(offed.body).toContain('メンテナンスを終了しました');
      expect((await get('/', { cookie: alice.cookie })).body).not.toContain('メンテナンス中のお知らせ');
      const again = await api(`/gachas/${PACK}/draws`, alice, { body: { count: 1 }, key: randomUUID() });
      expect(again.status).toBe(201);
      // Still exactly one credit for the order paid during maintenance.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await getBalance(handle!.db, alice.id)).toMatchObject({ paid: 1910, free: 0 }); // free coins are spent first
    });
  },
);
