// Images placed in content (the editor's rich text, image slices, special pages' hero): the banners'
// pipeline (decision 031) without the crop. An upload is sniffed by sharp (its name and type say
// nothing), decoded within a pixel limit, turned upright, shrunk to at most CONTENT_IMAGE_MAX_WIDTH wide
// with its aspect ratio, re-encoded as WebP without metadata and stored under DATA_DIR/media/content by
// its content hash, so its address never changes meaning and is cached for a year.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { refuse, type Refusal } from '#modules/kernel';
import type { ContentRefusalCode } from './versions';

/** Largest upload accepted (the editor's upload route has its own body limit for it). */
export const CONTENT_IMAGE_MAX_BYTES = 8_000_000;
/** The stored width at most: a page column on a 3x phone, and a desktop column. */
export const CONTENT_IMAGE_MAX_WIDTH = 1200;
const MAX_PIXELS = 40_000_000;
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp']);
/** Where content images are served (server/content-images.ts). */
export const CONTENT_IMAGE_PATH_PREFIX = '/media/content/';
const STORED_NAME = /^[0-9a-f]{32}\.webp$/;

export interface PreparedContentImage {
  ok: true;
  image: Buffer;
  width: number;
  height: number;
}

/**
 * Checks and re-encodes one upload: JPEG, PNG or WebP only, at most CONTENT_IMAGE_MAX_BYTES.
 * @example const prepared = await prepareContentImage(bytes); if (!prepared.ok) return prepared
 */
export async function prepareContentImage(
  bytes: Uint8Array,
): Promise<PreparedContentImage | Refusal<ContentRefusalCode>> {
  if (bytes.byteLength > CONTENT_IMAGE_MAX_BYTES)
    return refuse('CONTENT_IMAGE_TOO_LARGE', { maxBytes: CONTENT_IMAGE_MAX_BYTES });
  const input = { limitInputPixels: MAX_PIXELS, failOn: 'error' as const };
  try {
    const metadata = await sharp(bytes, input).metadata();
    if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format)) return refuse('CONTENT_IMAGE_TYPE');
    const { data, info } = await sharp(bytes, input)
      .rotate()
      .resize({ width: CONTENT_IMAGE_MAX_WIDTH, withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    return { ok: true, image: data, width: info.width, height: info.height };
  } catch {
    // Not an image sharp can read (a PDF, a renamed text file, a truncated or oversized picture).
    return refuse('CONTENT_IMAGE_TYPE');
  }
}

/** The file of a stored content image, or null for a name that is not one of ours. */
export function contentImageFile(dir: string, name: string): string | null {
  return STORED_NAME.test(name) ? path.join(dir, name) : null;
}

/**
 * Writes a prepared image under `dir` by its content hash (through a temporary name, so no half file
 * is ever served) and answers its public path. The same picture twice is one file.
 * @example const url = await writeContentImage(dir, prepared.image) // '/media/content/3f…e1.webp'
 */
export async function writeContentImage(dir: string, image: Buffer): Promise<string> {
  const name = `${createHash('sha256').update(image).digest('hex').slice(0, 32)}.webp`;
  const file = path.join(dir, name);
  await fs.mkdir(dir, { recursive: true });
  const temporary = `${file}.${randomUUID()}.tmp`;
  await fs.writeFile(temporary, image, { flag: 'wx' });
  await fs.rename(temporary, file);
  return `${CONTENT_IMAGE_PATH_PREFIX}${name}`;
}
