// Images attached to an inquiry: the bytes are sniffed by sharp (the name and the browser's type say
// nothing), decoded within a pixel limit, turned upright, shrunk and re-encoded as WebP without any
// metadata (no GPS, no camera serial), so the stored file is never the upload itself. Files live under
// the attachments folder (DATA_DIR/inquiries), never under public/: only the desk's route serves them.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { refuse, type Refusal } from '#modules/kernel';

/** Refusals of an attached image (words in refusal-words.ts). */
export const INQUIRY_IMAGE_REFUSAL_CODES = [
  'INQUIRY_IMAGE_TOO_LARGE',
  'INQUIRY_IMAGE_TYPE',
  'INQUIRY_IMAGE_TOO_MANY',
] as const;
export type InquiryImageRefusalCode = (typeof INQUIRY_IMAGE_REFUSAL_CODES)[number];

/** Largest picture decoded (a decompression bomb is refused before it is decoded). */
export const INQUIRY_IMAGE_MAX_PIXELS = 40_000_000;
/** The stored image fits in this square; the thumbnail in the smaller one. */
export const INQUIRY_IMAGE_EDGE = 2048;
export const INQUIRY_THUMB_EDGE = 320;

const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp']);

/** An image ready to store: both renditions, re-encoded. */
export interface PreparedImage {
  full: Buffer;
  thumb: Buffer;
  width: number;
  height: number;
}

/**
 * Checks and re-encodes one upload. `index` (0-based) names the image in a refusal.
 * @example const prepared = await prepareInquiryImage(bytes, { maxBytes: 5_000_000, index: 0 })
 */
export async function prepareInquiryImage(
  bytes: Uint8Array,
  options: { maxBytes: number; index: number },
): Promise<{ ok: true; image: PreparedImage } | Refusal<InquiryImageRefusalCode>> {
  const which = { image: options.index + 1 };
  if (bytes.byteLength > options.maxBytes)
    return refuse('INQUIRY_IMAGE_TOO_LARGE', { ...which, maxBytes: options.maxBytes });
  const input = { limitInputPixels: INQUIRY_IMAGE_MAX_PIXELS, failOn: 'error' as const };
  try {
    const metadata = await sharp(bytes, input).metadata();
    if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format)) return refuse('INQUIRY_IMAGE_TYPE', which);
    const full = await sharp(bytes, input)
      .rotate()
      .resize({ width: INQUIRY_IMAGE_EDGE, height: INQUIRY_IMAGE_EDGE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    const thumb = await sharp(full.data)
      .resize({ width: INQUIRY_THUMB_EDGE, height: INQUIRY_THUMB_EDGE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 70 })
      .toBuffer();
    return { ok: true, image: { full: full.data, thumb, width: full.info.width, height: full.info.height } };
  } catch {
    // Not an image sharp can read (a PDF, a renamed text file, a truncated or oversized picture).
    return refuse('INQUIRY_IMAGE_TYPE', which);
  }
}

/** A storage key: `YYYY/MM/<uuid>` (the month in UTC; only a place on disk). */
const STORAGE_KEY = /^\d{4}\/\d{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The file of a stored image; `thumb` for its thumbnail. Throws on a key that is not one of ours. */
export function attachmentFile(dir: string, storageKey: string, size: 'full' | 'thumb'): string {
  if (!STORAGE_KEY.test(storageKey)) throw new RangeError(`support: not a storage key: ${storageKey}`);
  return path.join(dir, ...storageKey.split('/')) + (size === 'thumb' ? '-thumb.webp' : '.webp');
}

/** The files written for one inquiry, so that a failed transaction can take them back. */
export interface WrittenImages {
  stored: { id: string; storageKey: string; image: PreparedImage }[];
  remove(): Promise<void>;
}

/**
 * Writes prepared images under `dir` (each through a temporary name, so no half file is ever served),
 * before the inquiry's transaction; the caller removes them if the transaction does not commit.
 * @example const written = await writeInquiryImages(dir, images); try { … } catch (e) { await written.remove(); throw e }
 */
export async function writeInquiryImages(
  dir: string,
  images: readonly PreparedImage[],
  now = new Date(),
): Promise<WrittenImages> {
  const files: string[] = [];
  const remove = async () => {
    await Promise.all(files.map((file) => fs.rm(file, { force: true })));
  };
  const stored: WrittenImages['stored'] = [];
  try {
    for (const image of images) {
      const id = randomUUID();
      const storageKey = `${now.toISOString().slice(0, 4)}/${now.toISOString().slice(5, 7)}/${id}`;
      for (const [size, bytes] of [
        ['full', image.full],
        ['thumb', image.thumb],
      ] as const) {
        const file = attachmentFile(dir, storageKey, size);
        await fs.mkdir(path.dirname(file), { recursive: true });
        const temporary = `${file}.${randomUUID()}.tmp`;
        files.push(temporary, file);
        await fs.writeFile(temporary, bytes, { mode: 0o600, flag: 'wx' });
        await fs.rename(temporary, file);
      }
      stored.push({ id, storageKey, image });
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { stored, remove };
}
