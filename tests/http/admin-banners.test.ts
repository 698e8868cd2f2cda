// Home banners and sale windows over HTTP (docs/decisions/031): /admin/banners for content:write only
// (members meet not-found, other staff 403); a banner made with uploaded art (re-encoded to 1200×500
// WebP, served immutable from /media/banners), a non-image and an oversized upload refused in Japanese,
// the alt text required; its window and on/off honoured on the home page; the order moved up and
// down; every change audited. A coin pack outside its sale window is neither listed nor sold.
// Everything made here is left invisible (off, or outside its window) for the other tests.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { asc, eq, like } from 'drizzle-orm';
import sharp from 'sharp';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { adminAuditLog } from '#db/schema';
import { listAllBanners } from '#modules/content';
import { cookieFrom, get, postForm, shopUrl, signUpByForm, uniqueEmail } from '#tests/http';
import { grantStaff } from '#tests/staff';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  await handle?.close();
});

async function staffWith(label: string, permissions: string[]) {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name: label, email, password: 'banners-pass-1', agreeToTerms: 'on' });
  await grantStaff(handle!.db, email, permissions);
  return cookieFrom(page.headers);
}

/** The banner form posted as a browser does (multipart, same-origin), with the art under `image`. */
async function postBanner(
  cookie: string,
  fields: Record<string, string>,
  file?: { name: string; type: string; bytes: Uint8Array },
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  if (file) form.set('image', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const response = await fetch(`${shopUrl()}/admin/banners`, {
    method: 'POST',
    body: form,
    headers: { origin: shopUrl(), cookie },
    redirect: 'manual',
  });
  return { status: response.status, body: await response.text() };
}

const art = (background = '#ef3a6e') =>
  sharp({ create: { width: 2400, height: 1000, channels: 3, background } })
    .png()
    .toBuffer();

/** `2027-01-05T15:00` in Japan time, `hours` from now. */
const jst = (hours: number) => new Date(Date.now() + hours * 3600_000 + 9 * 3600_000).toISOString().slice(0, 16);

describe.skipIf(!databaseUrl)(
  `banners and sale windows in the admin area${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop for roles)'}`,
  () => {
    it('lets only content:write in, and refuses a post from other staff', async () => {
      const member = cookieFrom(
        (
          await signUpByForm({
            name: 'bn-member',
            email: uniqueEmail('bn-member'),
            password: 'banners-pass-1',
            agreeToTerms: 'on',
          })
        ).headers,
      );
      expect((await get('/admin/banners', { cookie: member })).status).toBe(404);
      const other = await staffWith('bn-packs', ['packs:write']);
      expect((await get('/admin/banners', { cookie: other })).status).toBe(403);
      const refused = await postBanner(other, { intent: 'create', title: 'x', alt: 'x', link: '/guide', order: '1' });
      expect(refused.status).toBe(403);
      const writer = await staffWith('bn-writer', ['content:write']);
      const page = await get('/admin/banners', { cookie: writer });
      expect(page.status).toBe(200);
      expect(page.body).toContain('バナーを追加する');
      expect(page.body).toContain('href="/admin/banners"');
    });

    it('makes a banner with uploaded art, refuses a non-image and an oversized file, honours its window and order', async () => {
      const cookie = await staffWith('bn-editor', ['content:write']);
      const tag = Date.now().toString(36);
      const title = `テストバナー${tag}`;
      const base = {
        title,
        alt: `テスト用のバナー画像${tag}`,
        link: '/guide',
        period: '',
        order: '1000',
        startsAt: '',
        endsAt: '',
      };

      const notImage = await postBanner(
        cookie,
        { intent: 'create', ...base, active: 'on' },
        {
          name: 'art.png',
          type: 'image/png',
          bytes: new TextEncoder().encode('not a picture at all'),
        },
      );
      expect(notImage.status).toBe(415);
      expect(notImage.body).toContain('JPEG・PNG・WebPの画像をアップロードしてください');
      const huge = await postBanner(
        cookie,
        { intent: 'create', ...base, active: 'on' },
        {
          name: 'huge.png',
          type: 'image/png',
          bytes: new Uint8Array(8_000_001),
        },
      );
      expect(huge.status).toBe(413);
      expect(huge.body).toContain('画像が大きすぎます（8MBまで）');
      const noAlt = await postBanner(
        cookie,
        { intent: 'create', ...base, alt: ' ', active: 'on' },
        {
          name: 'art.png',
          type: 'image/png',
          bytes: await art(),
        },
      );
      expect(noAlt.status).toBe(400);
      expect(noAlt.body).toContain('代替テキスト');
      const badLink = await postBanner(
        cookie,
        { intent: 'create', ...base, link: 'javascript:alert(1)' },
        {
          name: 'art.png',
          type: 'image/png',
          bytes: await art(),
        },
      );
      expect(badLink.status).toBe(400);
      const noImage = await postBanner(cookie, { intent: 'create', ...base });
      expect(noImage.status).toBe(400);
      expect(noImage.body).toContain('バナーの画像を選んでください');
      expect((await handle!.db.select().from(adminAuditLog).where(like(adminAuditLog.action, 'banner.%'))).length).toBe(
        0,
      );

      // Made with a window that opens tomorrow: stored, not yet on the home page.
      const made = await postBanner(
        cookie,
        { intent: 'create', ...base, active: 'on', startsAt: jst(24) },
        { name: 'art.png', type: 'image/png', bytes: await art() },
      );
      expect(made.status).toBe(200);
      expect(made.body).toContain(`「${title}」を追加しました（表示期間`);
      const banner = (await listAllBanners(handle!.db)).find((b) => b.title === title)!;
      expect(banner.image).toMatch(/^\/media\/banners\/[0-9a-f]{32}\.webp$/);
      const image = await fetch(shopUrl() + banner.image);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/webp');
      expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const stored = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
      expect([stored.format, stored.width, stored.height]).toEqual(['webp', 1200, 500]);
      expect((await fetch(`${shopUrl()}/media/banners/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
      expect((await get('/')).body).not.toContain(title);

      // Inside its window: shown, art and alt text with it; ended: gone; back in, then switched off: gone.
      const edit = { intent: 'save', uid: banner.uid, ...base, active: 'on' };
      expect((await postBanner(cookie, { ...edit, startsAt: jst(-1), endsAt: jst(1) })).status).toBe(200);
      const home = (await get('/')).body;
      expect(home).toContain(title);
      expect(home).toContain(`src="${banner.image}"`);
      expect(home).toContain(`alt="${base.alt}"`);
      expect((await postBanner(cookie, { ...edit, startsAt: jst(-2), endsAt: jst(-1) })).status).toBe(200);
      expect((await get('/')).body).not.toContain(title);
      const backwards = await postBanner(cookie, { ...edit, startsAt: jst(2), endsAt: jst(1) });
      expect(backwards.status).toBe(400);
      expect(backwards.body).toContain('終了日時は開始日時より後にしてください');
      expect((await postBanner(cookie, { ...edit })).status).toBe(200);
      expect((await get('/')).body).toContain(title);
      expect((await postForm('/admin/banners', { intent: 'deactivate', uid: banner.uid }, { cookie })).status).toBe(
        200,
      );
      expect((await get('/')).body).not.toContain(title);

      // A second banner (off), then the order: down and up again.
      const second = await postBanner(
        cookie,
        { intent: 'create', ...base, title: `${title}二`, order: '1001' },
        { name: 'art.png', type: 'image/png', bytes: await art('#3a6eef') },
      );
      expect(second.status).toBe(200);
      const order = async () =>
        (await listAllBanners(handle!.db)).filter((b) => b.title.startsWith(title)).map((b) => b.title);
      expect(await order()).toEqual([title, `${title}二`]);
      expect((await postForm('/admin/banners', { intent: 'down', uid: banner.uid }, { cookie })).status).toBe(200);
      expect(await order()).toEqual([`${title}二`, title]);
      expect((await postForm('/admin/banners', { intent: 'up', uid: banner.uid }, { cookie })).status).toBe(200);
      expect(await order()).toEqual([title, `${title}二`]);
      expect((await postForm('/admin/banners', { intent: 'up', uid: 'banner-nothing' }, { cookie })).status).toBe(404);

      const audit = await handle!.db
        .select({ action: adminAuditLog.action })
        .from(adminAuditLog)
        .where(eq(adminAuditLog.targetId, banner.uid))
        .orderBy(asc(adminAuditLog.id));
      expect(audit.map((a) => a.action)).toEqual([
        'banner.create',
        'banner.update',
        'banner.update',
        'banner.update',
        'banner.deactivate',
        'banner.move',
        'banner.move',
      ]);
      // Both left off: the home page is as the other tests expect it.
      expect((await listAllBanners(handle!.db)).filter((b) => b.title.startsWith(title) && b.active)).toEqual([]);
    });

    it('neither lists nor sells a coin pack outside its sale window', async () => {
      const operator = await staffWith('bn-packs-writer', ['packs:write']);
      const id = `window-${Date.now().toString(36)}`;
      const pack = {
        id,
        name: '期間限定テスト',
        priceJpy: '777',
        paidCoins: '777',
        bonusCoins: '0',
        sortOrder: '999',
        badge: '',
      };
      const made = await postForm(
        '/admin/coin-packs',
        { intent: 'create', ...pack, active: 'on', startsAt: jst(24), endsAt: jst(48) },
        { cookie: operator },
      );
      expect(made.status).toBe(200);
      expect(made.body).toContain('販売期間');

      const buyerPage = await signUpByForm({
        name: 'bn-buyer',
        email: uniqueEmail('bn-buyer'),
        password: 'banners-pass-1',
        agreeToTerms: 'on',
      });
      const bearer = /session_token=([^;]+)/.exec(cookieFrom(buyerPage.headers))?.[1];
      const api = async (path: string, method: string, body?: unknown) => {
        const response = await fetch(`${shopUrl()}/api/v1${path}`, {
          method,
          headers: {
            authorization: `Bearer ${bearer}`,
            ...(body ? { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() } : {}),
          },
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: response.status, body: (await response.json()) as Record<string, any> };
      };
      expect((await api('/me/age-declaration', 'PUT', { minor: false })).status).toBe(200);
      const listed = await api('/coin-shop', 'GET');
      expect(listed.body.packs.map((p: { id: string }) => p.id)).not.toContain(id);
      const early = await api('/me/purchases', 'POST', { packId: id, method: 'sandbox' });
      expect(early.status).toBe(409);
      expect(early.body.error).toMatchObject({ code: 'PACK_OUTSIDE_WINDOW' });
      expect(early.body.error.message).toContain('このコインパックの販売は');
      expect(early.body.error.message).toContain('（日本時間）からです');

      const ended = await postForm(
        '/admin/coin-packs',
        { intent: 'save', ...pack, active: 'on', startsAt: jst(-48), endsAt: jst(-24) },
        { cookie: operator },
      );
      expect(ended.status).toBe(200);
      const late = await api('/me/purchases', 'POST', { packId: id, method: 'sandbox' });
      expect(late.status).toBe(409);
      expect(late.body.error.message).toBe(
        'このコインパックの販売期間は終了しました。ほかのコインパックをお選びください。',
      );
      // Left stopped as well as ended, for the other tests' coin shop.
      expect((await postForm('/admin/coin-packs', { intent: 'save', ...pack }, { cookie: operator })).status).toBe(200);
    });
  },
);
