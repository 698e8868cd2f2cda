// Uploaded images (decision 030): the pack editor's pack art and card photos. An upload is sniffed by
// sharp (never trusted by its name or type), decoded within a pixel limit, turned upright, shrunk and
// re-encoded as WebP without metadata, and stored in the media store (decision 071) as
// media/packs/<uuid>.webp. The name is new for every upload, so the object never changes and is served
// immutable; /_img resizes it like a file of public/.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { MEDIA_STORE_UNAVAILABLE_MESSAGE, isMediaStoreUnavailable, mediaKeyOf, type MediaStore } from '#modules/kernel';

/** Largest picture decoded (a decompression bomb is refused before it is decoded). */
export const MEDIA_MAX_PIXELS = 40_000_000;
/** The stored image fits in this square. */
export const MEDIA_EDGE = 1600;
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp']);
const FOLDERS = new Set(['packs']);

export type StoredImage =
  { ok: true; path: string; width: number; height: number } | { ok: false; message: string; status: 422 | 503 };

/**
 * Checks, re-encodes and stores one upload; answers its site path (/media/packs/<uuid>.webp) or a
 * Japanese message for the form with its status (422 for the file, 503 when the store fails: then
 * nothing was stored).
 * @example const stored = await storeUploadedImage(store, 'packs', file, { maxBytes: 8_000_000 })
 */
export async function storeUploadedImage(
  store: MediaStore,
  folder: 'packs',
  file: Blob,
  options: { maxBytes: number },
): Promise<StoredImage> {
  if (!FOLDERS.has(folder)) throw new RangeError(`media: unknown folder ${folder}`);
  if (file.size === 0) return { ok: false, message: '画像ファイルを選んでください。', status: 422 };
  if (file.size > options.maxBytes)
    return {
      ok: false,
      message: `画像が大きすぎます（${Math.floor(options.maxBytes / 1_000_000)}MBまで）。小さくしてからアップロードしてください。`,
      status: 422,
    };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const input = { limitInputPixels: MEDIA_MAX_PIXELS, failOn: 'error' as const };
  let encoded: { data: Buffer; info: sharp.OutputInfo };
  try {
    const metadata = await sharp(bytes, input).metadata();
    if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format))
      return { ok: false, message: '画像はJPEG・PNG・WebPのファイルにしてください。', status: 422 };
    encoded = await sharp(bytes, input)
      .rotate()
      .resize({ width: MEDIA_EDGE, height: MEDIA_EDGE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 85 })
      .toBuffer({ resolveWithObject: true });
  } catch {
    return {
      ok: false,
      message: '画像として読めないファイルです。JPEG・PNG・WebPの画像を選んでください。',
      status: 422,
    };
  }
  const key = `media/${folder}/${randomUUID()}.webp`;
  try {
    await store.put(key, encoded.data, 'image/webp');
  } catch (error) {
    if (!isMediaStoreUnavailable(error)) throw error;
    return { ok: false, message: MEDIA_STORE_UNAVAILABLE_MESSAGE, status: 503 };
  }
  return { ok: true, path: `/${key}`, width: encoded.info.width, height: encoded.info.height };
}

/**
 * Deletes an upload that no row came to name (the step that was to record it was refused). Its name is
 * its own (a new UUID), so nothing else can use it; a store that fails meanwhile leaves it to the daily
 * clean-up (media.cleanup), never throws.
 * @example if (!outcome.ok) await discardUploadedImage(store, stored.path)
 */
export async function discardUploadedImage(store: MediaStore, sitePath: string): Promise<void> {
  const key = mediaKeyOf(sitePath);
  if (key?.startsWith('media/packs/')) await store.delete(key).catch(() => undefined);
}

/**
 * Whether a pack's image path names an image that exists: an upload in the media store, or a file of
 * the site's public folder (the demo's art). A store that cannot answer counts as "not there": the
 * pre-publish check then holds the pack back until it can.
 */
export async function siteImageExists(store: MediaStore, publicDirs: string[], sitePath: string): Promise<boolean> {
  if (sitePath.startsWith('/media/')) {
    const key = mediaKeyOf(sitePath);
    return key ? store.exists(key).catch(() => false) : false;
  }
  for (const dir of publicDirs) {
    const file = path.resolve(dir, `.${sitePath}`);
    if (!file.startsWith(path.resolve(dir) + path.sep)) continue;
    try {
      if ((await fs.stat(file)).isFile()) return true;
    } catch {
      // not this one
    }
  }
  return false;
}
