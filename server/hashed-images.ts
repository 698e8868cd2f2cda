// GET <prefix>/<hash>.webp: images the admin area stored by the hash of their bytes (banners, decision
// 031; content images, decision 040). A name never changes meaning, so a year's immutable cache for
// browsers and any CDN in front; `fileOf` refuses any name that is not one of ours.
import fs from 'node:fs/promises';
import { Hono } from 'hono';
import { apiError } from './api-error';

/** @example app.route('/media/banners', createHashedImageRoute(dir, bannerImageFile)) */
export function createHashedImageRoute(dir: string, fileOf: (dir: string, name: string) => string | null) {
  const app = new Hono();
  app.get('/:name', async (c) => {
    const file = fileOf(dir, c.req.param('name'));
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
