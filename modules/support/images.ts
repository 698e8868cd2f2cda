// Images attached to an inquiry: the bytes are sniffed by sharp (the name and the browser's type say
// nothing), decoded within a pixel limit, turned upright, shrunk and re-encoded as WebP without any
// metadata (no GPS, no camera serial), so the stored file is never the upload itself. They live in the
// media store under inquiries/ (DATA_DIR/inquiries on disk, or the bucket: decision 071), never under
// /media: only the desk's route serves them.
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { refuse, type MediaStore, type Refusal } from '#modules/kernel';

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

/** A storage key: `YYYY/MM/<uuid>` (the month in UTC; only a place in the store). */
const STORAGE_KEY = /^\d{4}\/\d{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Where attached images sit in the media store. */
export const ATTACHMENTS_PREFIX = 'inquiries/';

/**
 * The media store's key of a stored image; `thumb` for its thumbnail. Throws on a key that is not one of ours.
 * @example attachmentKey('2026/11/0f9c…', 'thumb') // 'inquiries/2026/11/0f9c…-thumb.webp'
 */
export function attachmentKey(storageKey: string, size: 'full' | 'thumb'): string {
  if (!STORAGE_KEY.test(storageKey)) throw new RangeError(`support: not a storage key: ${storageKey}`);
  return `${ATTACHMENTS_PREFIX}${storageKey}${size === 'thumb' ? '-thumb' : ''}.webp`;
}

/** The images written for one inquiry, so that a failed transaction can take them back. */
export interface WrittenImages {
  stored: { id: string; storageKey: string; image: PreparedImage }[];
  /** Deletes them again; a store that fails meanwhile leaves them to the orphan sweep (never throws). */
  remove(): Promise<void>;
}

/**
 * Writes prepared images to the store before the inquiry's transaction (each object whole or not at
 * all); the caller removes them if the transaction does not commit. When the store fails half-way,
 * what was written is taken back and the store's MediaStoreUnavailable is thrown.
 * @example const written = await writeInquiryImages(store, images); try { … } catch (e) { await written.remove(); throw e }
 */
export async function writeInquiryImages(
  store: MediaStore,
  images: readonly PreparedImage[],
  now = new Date(),
): Promise<WrittenImages> {
  const keys: string[] = [];
  const remove = async () => {
    // Best effort: what the store keeps now, the orphan sweep (privacy.finish-deletions) takes later.
    await Promise.all(keys.map((key) => store.delete(key).catch(() => undefined)));
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
        const key = attachmentKey(storageKey, size);
        keys.push(key);
        await store.put(key, bytes, 'image/webp');
      }
      stored.push({ id, storageKey, image });
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { stored, remove };
}
