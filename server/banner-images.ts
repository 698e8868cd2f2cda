// GET /media/banners/<hash>.webp: the home banners' art as /admin/banners stored it under
// DATA_DIR/media/banners (docs/decisions/031). Each name is the hash of its bytes, so a name never
// changes meaning: a year's immutable cache for browsers and any CDN in front.
import fs from 'node:fs/promises';
import path from 'node:path';
import { Hono } from 'hono';
import { bannerImageFile } from '#modules/content';
import { apiError } from './api-error';

/** Where /admin/banners writes and this route reads the banners' art. */
export const bannerImagesDir = (dataDir: string) => path.join(dataDir, 'media', 'banners');

/** @example app.route('/media/banners', createBannerImageRoute(config.dataDir)) */
export function createBannerImageRoute(dataDir: string) {
  const dir = bannerImagesDir(dataDir);
  const app = new Hono();
  app.get('/:name', async (c) => {
    const file = bannerImageFile(dir, c.req.param('name'));
    let bytes: Buffer | null = null;
    if (file) bytes = await fs.readFile(file).catch(() => null);
    if (!bytes) return apiError(c, 404, 'NOT_FOUND', '画像が見つかりません。');
    return c.body(new Uint8Array(bytes), 200, {
      'Content-Type': 'image/webp',
      'Content-Length': String(bytes.byteLength),
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    });
  });
  return app;
}
