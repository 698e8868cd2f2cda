// Uploaded images (decision 030): the pack editor's pack art and card photos. An upload is sniffed by
// sharp (never trusted by its name or type), decoded within a pixel limit, turned upright, shrunk and
// re-encoded as WebP without metadata, and written under DATA_DIR/media/<folder>/<uuid>.webp. The name
// is new for every upload, so the file never changes and is served immutable; /_img resizes it like a
// file of public/.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'hono';
import sharp from 'sharp';

/** The folder of uploaded images. */
export const mediaDirOf = (dataDir: string) => path.join(dataDir, 'media');

/** Largest picture decoded (a decompression bomb is refused before it is decoded). */
export const MEDIA_MAX_PIXELS = 40_000_000;
/** The stored image fits in this square. */
export const MEDIA_EDGE = 1600;
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp']);
const FOLDERS = new Set(['packs']);
const MEDIA_PATH = /^\/media\/([a-z]+)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.webp$/;

export type StoredImage = { ok: true; path: string; width: number; height: number } | { ok: false; message: string };

/**
 * Checks, re-encodes and stores one upload; answers its site path (/media/packs/<uuid>.webp) or a
 * Japanese message for the form.
 * @example const stored = await storeUploadedImage(config.dataDir, 'packs', file, { maxBytes: 8_000_000 })
 */
export async function storeUploadedImage(
  dataDir: string,
  folder: 'packs',
  file: Blob,
  options: { maxBytes: number },
): Promise<StoredImage> {
  if (!FOLDERS.has(folder)) throw new RangeError(`media: unknown folder ${folder}`);
  if (file.size === 0) return { ok: false, message: '画像ファイルを選んでください。' };
  if (file.size > options.maxBytes)
    return {
      ok: false,
      message: `画像が大きすぎます（${Math.floor(options.maxBytes / 1_000_000)}MBまで）。小さくしてからアップロードしてください。`,
    };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const input = { limitInputPixels: MEDIA_MAX_PIXELS, failOn: 'error' as const };
  let encoded: { data: Buffer; info: sharp.OutputInfo };
  try {
    const metadata = await sharp(bytes, input).metadata();
    if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format))
      return { ok: false, message: '画像はJPEG・PNG・WebPのファイルにしてください。' };
    encoded = await sharp(bytes, input)
      .rotate()
      .resize({ width: MEDIA_EDGE, height: MEDIA_EDGE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 85 })
      .toBuffer({ resolveWithObject: true });
  } catch {
    return { ok: false, message: '画像として読めないファイルです。JPEG・PNG・WebPの画像を選んでください。' };
  }
  const name = `${randomUUID()}.webp`;
  const dir = path.join(mediaDirOf(dataDir), folder);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, name), encoded.data, { flag: 'wx' });
  return { ok: true, path: `/media/${folder}/${name}`, width: encoded.info.width, height: encoded.info.height };
}

/** The file of an uploaded image's site path, or null when the path is not one of ours. */
export function mediaFileOf(dataDir: string, sitePath: string): string | null {
  const match = MEDIA_PATH.exec(sitePath);
  if (!match || !FOLDERS.has(match[1]!)) return null;
  return path.join(mediaDirOf(dataDir), match[1]!, `${match[2]!}.webp`);
}

/**
 * Whether a pack's image path names a file that exists: an upload in the media folder, or a file of
 * the site's public folder (the demo's art).
 */
export async function siteImageExists(dataDir: string, publicDirs: string[], sitePath: string): Promise<boolean> {
  const candidates = sitePath.startsWith('/media/')
    ? [mediaFileOf(dataDir, sitePath)]
    : publicDirs.map((dir) => {
        const file = path.resolve(dir, `.${sitePath}`);
        return file.startsWith(path.resolve(dir) + path.sep) ? file : null;
      });
  for (const file of candidates) {
    if (!file) continue;
    try {
      if ((await fs.stat(file)).isFile()) return true;
    } catch {
      // not this one
    }
  }
  return false;
}

/** GET /media/<folder>/<uuid>.webp: the stored bytes, immutable. */
export async function serveMedia(c: Context, mediaDir: string): Promise<Response> {
  const file = mediaFileOf(path.dirname(mediaDir), c.req.path);
  if (!file) return c.notFound();
  try {
    const bytes = await fs.readFile(file);
    return c.body(bytes, 200, {
      'Content-Type': 'image/webp',
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    });
  } catch {
    return c.notFound();
  }
}
