// The one pipeline for images the admin area uploads into content (banners, decision 031; content
// images, decision 040): sniffed by sharp (the name and the browser's type say nothing), decoded within a
// pixel limit, turned upright, resized, re-encoded as WebP without metadata, and stored by the hash of its
// bytes through a temporary name, so no half file is ever served and an address never changes meaning.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp, { type ResizeOptions } from 'sharp';

/** Largest picture decoded (a decompression bomb is refused before it is decoded). */
const MAX_PIXELS = 40_000_000;
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp']);
const STORED_NAME = /^[0-9a-f]{32}\.webp$/;

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

/** The file of a stored image under `dir`, or null for a name that is not one of ours. */
export function hashedImageFile(dir: string, name: string): string | null {
  return STORED_NAME.test(name) ? path.join(dir, name) : null;
}

/**
 * Writes a re-encoded image under `dir` by its hash and answers its public path (`prefix` + name).
 * The same picture twice is one file.
 */
export async function writeHashedImage(dir: string, image: Buffer, prefix: string): Promise<string> {
  const name = `${createHash('sha256').update(image).digest('hex').slice(0, 32)}.webp`;
  const file = path.join(dir, name);
  await fs.mkdir(dir, { recursive: true });
  const temporary = `${file}.${randomUUID()}.tmp`;
  await fs.writeFile(temporary, image, { flag: 'wx' });
  await fs.rename(temporary, file);
  return `${prefix}${name}`;
}
