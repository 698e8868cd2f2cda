// Images placed in content (the editor's rich text, image slices, special pages' hero): the banners'
// pipeline (decision 031) without the crop. An upload is sniffed by sharp (its name and type say
// nothing), decoded within a pixel limit, turned upright, shrunk to at most CONTENT_IMAGE_MAX_WIDTH wide
// with its aspect ratio, re-encoded as WebP without metadata and stored in the media store (decision 071)
// under media/content by its content hash, so its address never changes meaning and is cached for a year.
import { refuse, type MediaStore, type Refusal } from '#modules/kernel';
import type { ContentRefusalCode } from './versions';
import { reencodeImage, writeHashedImage } from './hashed-image';

/** Largest upload accepted (the editor's upload route has its own body limit for it). */
export const CONTENT_IMAGE_MAX_BYTES = 8_000_000;
/** The stored width at most: a page column on a 3x phone, and a desktop column. */
export const CONTENT_IMAGE_MAX_WIDTH = 1200;
/** Where content images are served (server/media/route.ts). */
export const CONTENT_IMAGE_PATH_PREFIX = '/media/content/';

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
  const encoded = await reencodeImage(bytes, { width: CONTENT_IMAGE_MAX_WIDTH, withoutEnlargement: true });
  return encoded ? { ok: true, ...encoded } : refuse('CONTENT_IMAGE_TYPE');
}

/**
 * Stores a prepared image by its content hash and answers its public path.
 * @example const url = await writeContentImage(store, prepared.image) // '/media/content/3f…e1.webp'
 */
export const writeContentImage = (store: MediaStore, image: Buffer): Promise<string> =>
  writeHashedImage(store, 'content', image);
