// The one pipeline for images the admin area uploads into content (banners, decision 031; content
// images, decision 040): sniffed by sharp (the name and the browser's type say nothing), decoded within a
// pixel limit, turned upright, resized, re-encoded as WebP without metadata, and stored by the hash of its
// bytes in the media store (decision 071), which writes whole objects only, so no half file is ever
// served and an address never changes meaning.
import { createHash } from 'node:crypto';
import sharp, { type ResizeOptions } from 'sharp';
import type { MediaStore } from '#modules/kernel';

/** Largest picture decoded (a decompression bomb is refused before it is decoded). */
const MAX_PIXELS = 40_000_000;
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp']);

/**
 * Re-encodes one upload with `resize`; null when it is not a JPEG, PNG or WebP sharp can read.
 * @example const encoded = await reencodeImage(bytes, { width: 1200, withoutEnlargement: true })
 */
export async function reencodeImage(
  bytes: Uint8Array,
  resize: ResizeOptions,
): Promise<{ image: Buffer; width: number; height: number } | null> {
  const input = { limitInputPixels: MAX_PIXELS, failOn: 'error' as const };
  try {
    const metadata = await sharp(bytes, input).metadata();
    if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format)) return null;
    const { data, info } = await sharp(bytes, input)
      .rotate()
      .resize(resize)
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    return { image: data, width: info.width, height: info.height };
  } catch {
    // Not an image sharp can read (a PDF, a renamed text file, a truncated or oversized picture).
    return null;
  }
}

/**
 * Stores a re-encoded image under `media/<folder>/` by its hash and answers its public path
 * (`/media/<folder>/<hash>.webp`). The same picture twice is one object (written again, so its age
 * starts again and the clean-up's grace period protects a form that uses it anew). Throws the store's
 * MediaStoreUnavailable when it cannot write.
 * @example await writeHashedImage(store, 'banners', image) // '/media/banners/3f…e1.webp'
 */
export async function writeHashedImage(
  store: MediaStore,
  folder: 'banners' | 'content',
  image: Buffer,
): Promise<string> {
  const key = `media/${folder}/${createHash('sha256').update(image).digest('hex').slice(0, 32)}.webp`;
  await store.put(key, image, 'image/webp');
  return `/${key}`;
}
