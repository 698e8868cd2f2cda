// Uploaded media in a bucket, over HTTP (decision 071): a shop of its own started with the MEDIA_S3_*
// settings, talking to a real S3-protocol server (s3rver in a child process) through a fault proxy. Every
// kind of upload — the pack editor's image, banner art, a content image, a visitor's inquiry image — goes
// to the bucket and not to the shop's disk, keeps its address, is served at /media (immutable) and resized
// at /_img, and the desk reads the inquiry's image back; an upload whose step is refused is taken back.
// With the bucket answering 500, never answering or refusing connections, each upload is refused with 503
// and the Japanese words (JSON answers with Retry-After), and nothing is recorded: the draft keeps its
// image, no banner, no inquiry; back, everything works again.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { gachas, inquiries, inquiryAttachments } from '#db/schema';
import { listAllBanners } from '#modules/content';
import type { MediaStore } from '#modules/kernel';
import { s3MediaStore } from '#server/media/index';
import { cookieFrom, postForm, signUpByForm, uniqueEmail, useShopAt } from '#tests/http';
import { startOwnShop, type OwnShop } from '#tests/own-shop';
import { TEST_S3_CREDENTIALS, startFaultProxy, startTestS3, type FaultProxy, type TestS3 } from '#tests/s3-server';
import { grantStaff } from '#tests/staff';
import { testShop } from '#tests/test-shop';

// Staff are made in the shop's database beside it: PostgreSQL, as the shared shop's engine says.
const databaseUrl = testShop().databaseUrl;
const UNAVAILABLE = '画像の保存に失敗しました。時間をおいてもう一度お試しください。';
const PACK = `s3-pack-${Date.now().toString(36)}`;
let s3: TestS3 | undefined;
let proxy: FaultProxy | undefined;
let own: OwnShop | undefined;
let handle: DatabaseHandle | undefined;
let bucket: MediaStore | undefined;
let cookie = '';

beforeAll(async () => {
  if (!databaseUrl) return;
  s3 = await startTestS3();
  proxy = await startFaultProxy(s3.endpoint);
  own = await startOwnShop('media_s3', {
    ...s3.settings(proxy.endpoint),
    // The longest a call to the bucket may take: the unanswered requests below wait this long.
    MEDIA_S3_TIMEOUT_SECONDS: '2',
    SIGN_UP_ATTEMPTS_PER_MINUTE: '500',
    CONTACT_POSTS_PER_ADDRESS_PER_HOUR: '60',
  });
  useShopAt(own.base);
  handle = await openDatabase({ databaseUrl: own.database.databaseUrl, dataDir: own.database.dataDir, poolSize: 2 });
  // The bucket as it is, behind the proxy's back.
  bucket = await s3MediaStore({
    bucket: s3.bucket,
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    prefix: '',
    credentials: TEST_S3_CREDENTIALS,
    timeoutMs: 10_000,
  });
});
afterAll(async () => {
  useShopAt(null);
  await handle?.close();
  await own?.stop();
  await bucket?.close();
  await proxy?.close();
  await s3?.stop();
});

const base = () => own!.base;
const openedDatabase = () => handle!;
const png = async (width: number, height: number, background = '#ef3a6e') =>
  new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background } })
      .png()
      .toBuffer(),
  );

/** A multipart post as the browser makes it: same origin, the session cookie, files under their field. */
async function postFiles(
  pathname: string,
  fields: Record<string, string>,
  files: Record<string, Uint8Array[]>,
  session = cookie,
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  for (const [name, list] of Object.entries(files))
    for (const bytes of list) form.append(name, new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'photo.png');
  const response = await fetch(base() + pathname, {
    method: 'POST',
    body: form,
    headers: { origin: base(), ...(session ? { cookie: session } : {}) },
    redirect: 'manual',
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
}

const packImage = async () =>
  (await handle!.db.select({ imagePath: gachas.imagePath }).from(gachas).where(eq(gachas.id, PACK)))[0]!.imagePath;
const bannerForm = (title: string) => ({
  intent: 'create',
  title,
  alt: 'バケットのバナー',
  link: '/guide',
  period: '',
  order: '1000',
  startsAt: '',
  endsAt: '',
});
const contactForm = (email: string) => ({
  category: 'other',
  email,
  subject: '画像について',
  message: '写真を添付します。',
});
const inquiryOf = async (email: string) =>
  (await handle!.db.select().from(inquiries).where(eq(inquiries.email, email)).orderBy(desc(inquiries.createdAt)))[0];

describe.skipIf(!databaseUrl)(
  `uploaded media in a bucket${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop)'}`,
  () => {
    it('stores every kind of upload in the bucket, not on the disk, and serves and resizes it at its address', async () => {
      const handle = openedDatabase();
      const email = uniqueEmail('media-admin');
      const page = await signUpByForm({ name: 'メディア', email, password: 'media-pass-1', agreeToTerms: 'on' });
      cookie = cookieFrom(page.headers);
      await grantStaff(handle.db, email);

      // The pack editor: a draft, then its image.
      const created = await postForm(
        '/admin/packs',
        { id: PACK, genreId: 'pokemon', title: 'バケット', description: '' },
        { cookie },
      );
      expect(created.status).toBe(302);
      const uploaded = await postFiles(
        `/admin/packs/${PACK}`,
        { intent: 'pack-image' },
        { image: [await png(2400, 1200)] },
      );
      expect(uploaded.status, uploaded.body.slice(0, 300)).toBe(200);
      const imagePath = await packImage();
      expect(imagePath).toMatch(/^\/media\/packs\/[0-9a-f-]{36}\.webp$/);
      // A step the editor refuses (no such card) takes its upload back from the bucket at once.
      const packObjects = async () => {
        const keys: string[] = [];
        for await (const object of bucket!.list('media/packs/')) keys.push(object.key);
        return keys.sort();
      };
      const before = await packObjects();
      const noSuchCard = await postFiles(
        `/admin/packs/${PACK}`,
        { intent: 'tier-image', tierKey: 'nope' },
        { image: [await png(400, 400)] },
      );
      expect(noSuchCard.status).toBe(404);
      expect(await packObjects()).toEqual(before);

      // Banner art, a content image, a visitor's inquiry image.
      const title = `バケット-${Date.now().toString(36)}`;
      expect(
        (await postFiles('/admin/banners', bannerForm(title), { image: [await png(2400, 1000, '#3a6eef')] })).status,
      ).toBe(200);
      const banner = (await listAllBanners(handle.db)).find((b) => b.title === title)!;
      const content = await postFiles('/admin/content/images', {}, { image: [await png(1600, 800, '#6eef3a')] });
      expect(content.status).toBe(200);
      const contentUrl = (JSON.parse(content.body) as { url: string }).url;
      const visitor = uniqueEmail('media-visitor');
      const sent = await postFiles('/contact', contactForm(visitor), { images: [await png(900, 600, '#efef3a')] }, '');
      expect(sent.status, sent.body.slice(0, 300)).toBe(302);
      const inquiry = await inquiryOf(visitor);
      const [attachment] = await handle.db
        .select()
        .from(inquiryAttachments)
        .where(eq(inquiryAttachments.inquiryId, inquiry!.id));

      // All in the bucket under their keys; none on the shop's disk.
      for (const key of [
        imagePath.slice(1),
        banner.image.slice(1),
        contentUrl.slice(1),
        `inquiries/${attachment!.storageKey}.webp`,
        `inquiries/${attachment!.storageKey}-thumb.webp`,
      ])
        expect(await bucket!.exists(key), key).toBe(true);
      for (const folder of ['media', 'inquiries'])
        expect(fs.existsSync(path.join(own!.database.dataDir, folder)), folder).toBe(false);

      // Served at their addresses, immutable; resized at /_img; the desk reads the inquiry's image.
      for (const [address, width] of [
        [imagePath, 1600],
        [banner.image, 1200],
        [contentUrl, 1200],
      ] as const) {
        const served = await fetch(base() + address);
        expect(served.status, address).toBe(200);
        expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(width);
      }
      const variant = await fetch(`${base()}/_img?src=${encodeURIComponent(imagePath)}&w=640`, {
        headers: { Accept: 'image/avif,image/webp' },
      });
      expect(variant.status).toBe(200);
      expect(variant.headers.get('content-type')).toBe('image/avif');
      expect((await sharp(Buffer.from(await variant.arrayBuffer())).metadata()).width).toBe(640);
      const thumb = await fetch(`${base()}/admin/inquiries/attachments/${attachment!.id}?size=thumb`, {
        headers: { cookie },
      });
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get('cache-control')).toBe('private, no-store');
      expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).width).toBe(320);
    });

    it('refuses each upload with 503 and the Japanese words while the bucket fails, records nothing, and recovers', async () => {
      // The first test's staff and draft.
      const handle = openedDatabase();
      const imageBefore = await packImage();
      const bannersBefore = (await listAllBanners(handle.db)).length;
      for (const mode of ['error500', 'hang', 'refuse'] as const) {
        await proxy!.mode(mode);
        try {
          const pack = await postFiles(
            `/admin/packs/${PACK}`,
            { intent: 'pack-image' },
            { image: [await png(800, 400)] },
          );
          expect([mode, pack.status]).toEqual([mode, 503]);
          expect(pack.body).toContain(UNAVAILABLE);
          const banner = await postFiles('/admin/banners', bannerForm(`落ちた-${mode}`), {
            image: [await png(2400, 1000)],
          });
          expect([mode, banner.status]).toEqual([mode, 503]);
          expect(banner.body).toContain(UNAVAILABLE);
          const content = await postFiles('/admin/content/images', {}, { image: [await png(600, 300)] });
          expect([mode, content.status, content.retryAfter]).toEqual([mode, 503, '30']);
          expect(JSON.parse(content.body)).toEqual({ error: UNAVAILABLE });
          const visitor = uniqueEmail(`media-${mode}`);
          const sent = await postFiles('/contact', contactForm(visitor), { images: [await png(900, 600)] }, '');
          expect([mode, sent.status]).toEqual([mode, 503]);
          expect(sent.body).toContain(UNAVAILABLE);
          expect(await inquiryOf(visitor)).toBeUndefined();
        } finally {
          await proxy!.mode('pass');
        }
        expect(await packImage()).toBe(imageBefore);
        expect((await listAllBanners(handle.db)).length).toBe(bannersBefore);
      }

      // An image this instance has never read, while the bucket refuses connections: 503, not cached.
      const unseen = `/media/packs/${crypto.randomUUID()}.webp`;
      await bucket!.put(unseen.slice(1), await png(10, 10), 'image/webp');
      await proxy!.mode('refuse');
      try {
        const away = await fetch(base() + unseen);
        expect([away.status, away.headers.get('retry-after'), away.headers.get('cache-control')]).toEqual([
          503,
          '30',
          'no-store',
        ]);
        // What it has read is still served from its own copy.
        expect((await fetch(base() + imageBefore)).status).toBe(200);
      } finally {
        await proxy!.mode('pass');
      }
      expect((await fetch(base() + unseen)).status).toBe(200);
      const again = await postFiles(`/admin/packs/${PACK}`, { intent: 'pack-image' }, { image: [await png(800, 400)] });
      expect(again.status).toBe(200);
      expect(await packImage()).not.toBe(imageBefore);
    });
  },
);
