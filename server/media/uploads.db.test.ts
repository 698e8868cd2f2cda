// Every kind of upload through the bucket (decision 071), on a real S3-protocol server (s3rver in a child
// process) behind a fault proxy: pack images, banner art, content images and inquiry images land under
// their keys and read back; a bucket that refuses connections, never answers or answers 500 refuses each
// kind with the same Japanese words and 503, and nothing is half-written: no inquiry row without its
// images, no image of a refused inquiry left behind (taken back at once, or by the orphan sweep when the
// bucket is away even for that); 退会 removes an inquiry's images from the bucket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { inquiries, inquiryAttachments } from '#db/schema';
import { commandLineOperator } from '#modules/admin';
import { prepareBannerImage, prepareContentImage, writeBannerImage, writeContentImage } from '#modules/content';
import { MediaStoreUnavailable, refuse, type MediaStore, type Refusal } from '#modules/kernel';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import {
  createInquiry,
  inquiryInputSchema,
  prepareInquiryImage,
  readInquiryAttachment,
  removeInquiryImages,
  sweepOrphanInquiryImages,
  type PreparedImage,
  type SupportRules,
} from '#modules/support';
import { useTestDatabase } from '#tests/use-test-database';
import {
  TEST_S3_CREDENTIALS,
  startFaultProxy,
  startTestS3,
  type FaultMode,
  type FaultProxy,
  type TestS3,
} from '#tests/s3-server';
import { s3MediaStore, storeUploadedImage } from './index';

const handle = useTestDatabase('media-uploads', { invariants: 'afterEach' });
let s3: TestS3;
let proxy: FaultProxy;
let store: MediaStore;
let direct: MediaStore;

beforeAll(async () => {
  s3 = await startTestS3();
  proxy = await startFaultProxy(s3.endpoint);
  const open = (endpoint: string) =>
    s3MediaStore({
      bucket: s3.bucket,
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      prefix: '',
      credentials: TEST_S3_CREDENTIALS,
      // What MEDIA_S3_TIMEOUT_SECONDS would say; only the unanswered requests wait for it.
      timeoutMs: 2_000,
    });
  store = await open(proxy.endpoint);
  // The same bucket, not through the proxy: what is really there while the proxy fails.
  direct = await open(s3.endpoint);
});
afterAll(async () => {
  await store?.close();
  await direct?.close();
  await proxy?.close();
  await s3?.stop();
});

const png = async (width: number, height: number) =>
  new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: '#ef3a6e' } })
      .png()
      .toBuffer(),
  );

async function inquiryImage(): Promise<PreparedImage> {
  const result = await prepareInquiryImage(await png(900, 600), { maxBytes: 2_000_000, index: 0 });
  if (!result.ok) throw new Error(result.code);
  return result.image;
}

const rules = (attachments: MediaStore): SupportRules => ({
  site: { name: 'オリパ ステラ', origin: 'https://oripa.example.jp' },
  attachments,
  imageMaxBytes: 2_000_000,
});

const input = (email = 'visitor@example.jp') =>
  inquiryInputSchema.parse({ category: 'other', email, subject: '画像について', message: '画像を送ります。' });

const inquiryKeys = async () => {
  const keys: string[] = [];
  for await (const object of direct.list('inquiries/')) keys.push(object.key);
  return keys.sort();
};

/** The real bucket store, failing every put after the first `puts` (a bucket that goes away half-way). */
function failingAfter(puts: number, real: MediaStore): MediaStore {
  let left = puts;
  return {
    ...real,
    list: (prefix) => real.list(prefix),
    put: async (key, bytes, type) => {
      if (left-- <= 0) throw new MediaStoreUnavailable('media store: put failed: InternalError 500');
      await real.put(key, bytes, type);
    },
  };
}

describe('uploads into the bucket', () => {
  it('stores pack images, banner art, content images and inquiry images under their keys', async () => {
    const pack = await storeUploadedImage(store, 'packs', new Blob([await png(2000, 1000)]), { maxBytes: 8_000_000 });
    if (!pack.ok) throw new Error(pack.message);
    const banner = await prepareBannerImage(await png(1600, 900));
    if (!banner.ok) throw new Error(banner.code);
    const bannerPath = await writeBannerImage(store, banner.image);
    const content = await prepareContentImage(await png(800, 400));
    if (!content.ok) throw new Error(content.code);
    const contentPath = await writeContentImage(store, content.image);
    for (const [sitePath, width] of [
      [pack.path, 1600],
      [bannerPath, 1200],
      [contentPath, 800],
    ] as const) {
      const bytes = await direct.get(sitePath.slice(1));
      expect(bytes, sitePath).not.toBeNull();
      expect((await sharp(bytes!).metadata()).width).toBe(width);
    }
    expect(bannerPath).toMatch(/^\/media\/banners\/[0-9a-f]{32}\.webp$/);
    expect(contentPath).toMatch(/^\/media\/content\/[0-9a-f]{32}\.webp$/);

    const made = await createInquiry(handle.db, rules(store), {
      input: input(),
      memberId: null,
      images: [await inquiryImage()],
    });
    if (!made.ok) throw new Error(made.code);
    const [row] = await handle.db
      .select()
      .from(inquiryAttachments)
      .where(eq(inquiryAttachments.inquiryId, made.inquiry.id));
    expect(await inquiryKeys()).toEqual(
      expect.arrayContaining([`inquiries/${row!.storageKey}.webp`, `inquiries/${row!.storageKey}-thumb.webp`]),
    );
    const thumb = await readInquiryAttachment(handle.db, commandLineOperator(), rules(store), row!.id, 'thumb');
    if (!thumb.ok) throw new Error(thumb.code);
    expect((await sharp(thumb.bytes).metadata()).width).toBe(320);

    // 退会: the rows go in the transaction, the objects right after.
    await handle.db.delete(inquiryAttachments).where(eq(inquiryAttachments.id, row!.id));
    await removeInquiryImages(store, [row!.storageKey]);
    expect(await inquiryKeys()).not.toContain(`inquiries/${row!.storageKey}.webp`);
  });

  it.each(['refuse', 'hang', 'error500'] as const)(
    'refuses every kind with 503 and the same words when the bucket fails (%s), and writes nothing',
    async (mode: FaultMode) => {
      const banner = await prepareBannerImage(await png(1600, 900));
      if (!banner.ok) throw new Error(banner.code);
      const image = await inquiryImage();
      const inquiriesBefore = (await handle.db.select().from(inquiries)).length;
      const objectsBefore = await inquiryKeys();
      await proxy.mode(mode);
      try {
        const pack = await storeUploadedImage(store, 'packs', new Blob([await png(500, 500)]), { maxBytes: 8_000_000 });
        expect(pack).toEqual({
          ok: false,
          status: 503,
          message: '画像の保存に失敗しました。時間をおいてもう一度お試しください。',
        });
        await expect(writeBannerImage(store, banner.image)).rejects.toThrow(MediaStoreUnavailable);
        const refused = await createInquiry(handle.db, rules(store), {
          input: input(),
          memberId: null,
          images: [image],
        });
        expect(refused).toEqual(refuse('MEDIA_STORE_UNAVAILABLE'));
        expect(describeRefusal(refused as Refusal<RefusalCode>)).toMatchObject({
          status: 503,
          message: '画像の保存に失敗しました。時間をおいてもう一度お試しください。',
          headers: { 'Retry-After': '30' },
        });
      } finally {
        await proxy.mode('pass');
      }
      expect((await handle.db.select().from(inquiries)).length).toBe(inquiriesBefore);
      expect(await inquiryKeys()).toEqual(objectsBefore);
    },
  );

  it('takes back what it wrote when the bucket fails half-way or the transaction does not commit', async () => {
    const images = [await inquiryImage(), await inquiryImage()];
    const before = await inquiryKeys();
    const inquiriesBefore = (await handle.db.select().from(inquiries)).length;
    // Three of the four objects written, then the bucket fails: the inquiry is refused, the three go.
    expect(
      await createInquiry(handle.db, rules(failingAfter(3, store)), { input: input(), memberId: null, images }),
    ).toEqual(refuse('MEDIA_STORE_UNAVAILABLE'));
    expect(await inquiryKeys()).toEqual(before);
    // Written whole, then the transaction fails (an address the outbox refuses): the objects go too.
    await expect(
      createInquiry(handle.db, rules(store), {
        input: { ...input(), email: 'not an address' },
        memberId: null,
        images,
      }),
    ).rejects.toThrow(RangeError);
    expect(await inquiryKeys()).toEqual(before);
    expect((await handle.db.select().from(inquiries)).length).toBe(inquiriesBefore);
  });

  it('leaves an image the bucket would not take back to the orphan sweep, which keeps those a row names', async () => {
    // A refused inquiry whose bucket went away before its images could be taken back: they stay, no row names them.
    const orphan = `inquiries/2026/11/${randomUUID()}.webp`;
    await direct.put(orphan, new Uint8Array([1]), 'image/webp');
    await direct.put(orphan.replace('.webp', '-thumb.webp'), new Uint8Array([1]), 'image/webp');
    const made = await createInquiry(handle.db, rules(store), {
      input: input('kept@example.jp'),
      memberId: null,
      images: [await inquiryImage()],
    });
    if (!made.ok) throw new Error(made.code);
    const named = await inquiryKeys();
    // Within the hour nothing goes (an inquiry's images are written before its transaction).
    expect(await sweepOrphanInquiryImages(handle.db, store, new Date())).toBe(0);
    const removed = await sweepOrphanInquiryImages(handle.db, store, new Date(Date.now() + 2 * 3_600_000));
    expect(removed).toBe(2);
    expect(await inquiryKeys()).toEqual(named.filter((key) => !key.startsWith(orphan.replace('.webp', ''))));
    const [row] = await handle.db
      .select()
      .from(inquiryAttachments)
      .where(eq(inquiryAttachments.inquiryId, made.inquiry.id));
    expect(await inquiryKeys()).toContain(`inquiries/${row!.storageKey}.webp`);
  });
});
