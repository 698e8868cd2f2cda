// GET /media/<folder>/<name>: uploaded images, read from the media store (decision 071) at the addresses
// they have always had. A name never changes meaning (a new UUID for the pack editor's uploads, the
// hash of the bytes for banners and content images), so a year's immutable cache for browsers and any CDN
// in front; a name that is not one of ours is never looked up. The bucket itself stays private. A graded
// card's original photo (/media/originals/<sha256>.<ext>) is answered byte for byte as uploaded, in its own
// format: whoever hashes the file gets the SHA-256 its pack page shows (issue 33 item 8).
import { Hono } from 'hono';
import { MEDIA_STORE_RETRY_AFTER_SECONDS, isMediaStoreUnavailable, type MediaStore } from '#modules/kernel';
import { apiError } from '../api-error';

const UUID_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.webp$/;
const HASH_NAME = /^[0-9a-f]{32}\.webp$/;
const SHA256_NAME = /^[0-9a-f]{64}\.(jpg|png|webp)$/;

/**
 * Each served folder and the names it stores (pack editor: decision 030; banners: 031; content: 040; the
 * graded cards' original photos, named by their SHA-256: issue 33 item 8).
 */
export const MEDIA_FOLDERS: Readonly<Record<string, RegExp>> = {
  packs: UUID_NAME,
  banners: HASH_NAME,
  content: HASH_NAME,
  originals: SHA256_NAME,
};

/** The type a stored name is answered with: its extension's (every other folder stores WebP only). */
const CONTENT_TYPES: Readonly<Record<string, string>> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/**
 * The store key of a served image's path, or null when the path names nothing we store.
 * @example servedMediaKey('packs', '0f9c….webp') // 'media/packs/0f9c….webp'
 */
export function servedMediaKey(folder: string, name: string): string | null {
  const pattern = Object.hasOwn(MEDIA_FOLDERS, folder) ? MEDIA_FOLDERS[folder] : undefined;
  return pattern?.test(name) ? `media/${folder}/${name}` : null;
}

/** @example app.route('/media', createMediaRoute(store)) */
export function createMediaRoute(store: MediaStore) {
  const app = new Hono();
  app.get('/:folder/:name', async (c) => {
    const key = servedMediaKey(c.req.param('folder'), c.req.param('name'));
    let bytes: Uint8Array | null = null;
    try {
      if (key) bytes = await store.get(key);
    } catch (error) {
      if (!isMediaStoreUnavailable(error)) throw error; // logged by the store (./store.ts)
      c.header('Retry-After', String(MEDIA_STORE_RETRY_AFTER_SECONDS));
      c.header('Cache-Control', 'no-store');
      return apiError(
        c,
        503,
        'MEDIA_STORE_UNAVAILABLE',
        '画像を読み込めませんでした。時間をおいてもう一度お試しください。',
      );
    }
    if (!bytes) return apiError(c, 404, 'NOT_FOUND', '画像が見つかりません。');
    return c.body(new Uint8Array(bytes), 200, {
      'Content-Type': CONTENT_TYPES[key!.slice(key!.lastIndexOf('.') + 1)] ?? 'image/webp',
      'Content-Length': String(bytes.byteLength),
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    });
  });
  // Nothing else lives under /media: any other path is ours to refuse, never a page's.
  app.get('*', (c) => apiError(c, 404, 'NOT_FOUND', '画像が見つかりません。'));
  return app;
}
