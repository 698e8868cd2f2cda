// Home banners (docs/decisions/031): listBanners shows those active and inside their window, in
// their order; banners written before the console (no active flag, no window) stay shown; moving
// renumbers the carousel; uploads are sniffed (not an image, too large) and re-encoded to 1200×500 WebP.
import { describe, it, expect } from 'vitest';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { useTestDatabase } from '#tests/use-test-database';
import { diskMediaStore } from '#server/media/index';
import {
  addDocuments,
  BANNER_IMAGE_MAX_BYTES,
  bannerFormSchema,
  listAllBanners,
  createBuiltinSource,
  moveBanner,
  prepareBannerImage,
  saveBanner,
  setBannerActive,
  writeBannerImage,
} from './index';

const handle = useTestDatabase('banners');

const form = (title: string, order: number, extra: Record<string, string> = {}) =>
  bannerFormSchema.parse({
    title,
    alt: `${title}の画像`,
    link: '/guide',
    order: String(order),
    active: 'on',
    ...extra,
  });

describe('home banners', () => {
  it('shows active banners inside their window, in order, and moves them', async () => {
    const db = handle.db;
    await addDocuments(db, [
      {
        id: 'old-banner',
        type: 'banner',
        uid: 'old-banner',
        data: { title: '以前のバナー', image: '/demo/banners/banner-01.svg', link: '/guide', order: 5 },
        publishedAt: new Date('2026-01-01T00:00:00Z'),
      },
    ]);
    const now = new Date('2027-03-01T00:00:00Z');
    const a = (await saveBanner(db, { uid: null, form: form('A', 1), image: '/media/banners/a.webp' })).after;
    const b = (
      await saveBanner(db, {
        uid: null,
        form: form('B', 2, { startsAt: '2027-03-01T09:00', endsAt: '2027-03-02T09:00' }),
        image: '/media/banners/b.webp',
      })
    ).after;
    const titles = async (at: Date) => (await createBuiltinSource(db).listBanners(at)).map((banner) => banner.title);
    expect(await titles(new Date(now.getTime() - 1))).toEqual(['A', '以前のバナー']);
    expect(await titles(now)).toEqual(['A', 'B', '以前のバナー']);
    expect(await titles(new Date('2027-03-02T00:00:00Z'))).toEqual(['A', '以前のバナー']);
    expect((await createBuiltinSource(db).listBanners(now))[0]).toMatchObject({
      alt: 'Aの画像',
      image: '/media/banners/a.webp',
    });

    await setBannerActive(db, a.uid, false);
    expect(await titles(now)).toEqual(['B', '以前のバナー']);
    // Editing without a new image keeps the art.
    const edited = await saveBanner(db, { uid: b.uid, form: form('B2', 2), image: null });
    expect(edited.before?.title).toBe('B');
    expect(edited.after.image).toBe('/media/banners/b.webp');

    await moveBanner(db, 'old-banner', 'up');
    expect((await listAllBanners(db)).map((banner) => [banner.title, banner.order])).toEqual([
      ['A', 10],
      ['以前のバナー', 20],
      ['B2', 30],
    ]);
    await expect(moveBanner(db, 'banner-none', 'down')).rejects.toMatchObject({
      refusal: { code: 'BANNER_NOT_FOUND' },
    });
    await expect(saveBanner(db, { uid: null, form: form('C', 3), image: null })).rejects.toMatchObject({
      refusal: { code: 'BANNER_IMAGE_REQUIRED' },
    });
  });

  it('takes only links on the site or https, and an alt text', () => {
    expect(bannerFormSchema.safeParse({ title: 't', alt: 'a', link: 'https://example.jp/x', order: '0' }).success).toBe(
      true,
    );
    for (const link of ['javascript:alert(1)', '//evil.example', 'http://example.jp/']) {
      const parsed = bannerFormSchema.safeParse({ title: 't', alt: 'a', link, order: '0' });
      expect(parsed.success ? null : parsed.error.issues[0]?.message).toContain('https://');
    }
    const noAlt = bannerFormSchema.safeParse({ title: 't', alt: ' ', link: '/', order: '0' });
    expect(noAlt.success ? null : noAlt.error.issues[0]?.message).toContain('代替テキスト');
  });

  it('re-encodes uploads and refuses what is not an image or too large', async () => {
    const png = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const prepared = await prepareBannerImage(png);
    if (!prepared.ok) throw new Error(prepared.code);
    const meta = await sharp(prepared.image).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 1200, 500]);
    expect(await prepareBannerImage(new TextEncoder().encode('%PDF-1.7'))).toMatchObject({ code: 'BANNER_IMAGE_TYPE' });
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    expect(await prepareBannerImage(gif)).toMatchObject({ code: 'BANNER_IMAGE_TYPE' });
    expect(await prepareBannerImage(new Uint8Array(BANNER_IMAGE_MAX_BYTES + 1))).toMatchObject({
      code: 'BANNER_IMAGE_TOO_LARGE',
    });

    // The embedded default: DATA_DIR/media/banners/<hash>.webp, as it always was.
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'banners-'));
    const store = diskMediaStore(dir);
    const stored = await writeBannerImage(store, prepared.image);
    expect(stored).toMatch(/^\/media\/banners\/[0-9a-f]{32}\.webp$/);
    expect(await writeBannerImage(store, prepared.image)).toBe(stored);
    expect((await fs.readFile(path.join(dir, stored))).equals(prepared.image)).toBe(true);
    await fs.rm(dir, { recursive: true, force: true });
  });
});
