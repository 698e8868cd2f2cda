// GET /media/content/<hash>.webp: images placed in content by the editor (/admin/content), stored by
// content hash under DATA_DIR/media/content (docs/decisions/040): a year's immutable cache, like the banners'.
import fs from 'node:fs/promises';
import path from 'node:path';
import { Hono } from 'hono';
import { contentImageFile } from '#modules/content';
import { apiError } from './api-error';

/** Where the editor's upload writes and this route reads content images. */
export const contentImagesDir = (dataDir: string) => path.join(dataDir, 'media', 'content');

/** @example app.route('/media/content', createContentImageRoute(config.dataDir)) */
export function createContentImageRoute(dataDir: string) {
  const dir = contentImagesDir(dataDir);
  const app = new Hono();
  app.get('/:name', async (c) => {
    const file = contentImageFile(dir, c.req.param('name'));
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
