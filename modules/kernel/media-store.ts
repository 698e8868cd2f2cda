// Where uploaded images live (decision 071): one small interface with two implementations in server/
// (the local disk under DATA_DIR, the embedded default, and an S3-compatible bucket). The modules that
// own an upload's rules (sniffing, re-encoding, limits) write through it and never learn which one it
// is; a store that cannot answer throws MediaStoreUnavailable, which the edge words as a 503.
import type { RefusalWords } from './refusal-words';

/** One stored object as a listing sees it (for the clean-up, which needs its age). */
export interface StoredMediaObject {
  key: string;
  /** When it was last written: a write of the same key again (the same picture, stored by hash) renews it. */
  lastModified: Date;
  size: number;
}

/**
 * The store of uploaded images. Keys are relative paths such as `media/packs/<uuid>.webp` (served at
 * `/media/…`) or `inquiries/2026/11/<uuid>.webp` (never public): the same layout on disk and in a bucket,
 * so moving a shop's media is a copy of two folders.
 */
export interface MediaStore {
  /** `disk` (DATA_DIR) or `s3` (a bucket): for logs and the jobs' scope, never for a rule. */
  readonly kind: 'disk' | 's3';
  /** Writes the whole object or nothing (no reader ever sees half of it); the same key again replaces it. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The object's bytes, or null when there is none. */
  get(key: string): Promise<Uint8Array | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the object; one already gone is not an error (a retried clean-up). */
  delete(key: string): Promise<void>;
  /** Every object under `prefix` (`media/packs/`), in no promised order: the clean-up's view. */
  list(prefix: string): AsyncIterable<StoredMediaObject>;
  /** Releases the store's connections (the S3 client's sockets). */
  close(): Promise<void>;
}

/**
 * The store did not answer: unreachable, slower than MEDIA_S3_TIMEOUT_SECONDS, or an error of its own
 * (a 5xx, refused credentials). Not the uploader's fault: the edge answers 503 with Retry-After.
 */
export class MediaStoreUnavailable extends Error {
  override readonly name = 'MediaStoreUnavailable';
}

/**
 * Whether an error is the store's, as opposed to a bug. By name, not by class: the pages' build carries
 * its own copy of this module, so a store the server opened throws a class the pages' copy never made.
 */
export const isMediaStoreUnavailable = (error: unknown): error is MediaStoreUnavailable =>
  error instanceof Error && error.name === 'MediaStoreUnavailable';

/** A key the stores accept: lower-case path segments, no `.` or `..` segment, no leading slash. */
const MEDIA_KEY = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_.-]*)+$/;

/**
 * Whether `key` is one the stores accept (each store checks it again before touching anything).
 * @example isMediaKey('media/packs/0f9c….webp') // true; isMediaKey('../etc/passwd') // false
 */
export function isMediaKey(key: string): boolean {
  return key.length <= 300 && MEDIA_KEY.test(key) && !key.split('/').some((part) => part === '.' || part === '..');
}

/**
 * The key of an uploaded image served at `sitePath` (`/media/…`), or null for any other path.
 * @example mediaKeyOf('/media/banners/3f…e1.webp') // 'media/banners/3f…e1.webp'
 */
export function mediaKeyOf(sitePath: string): string | null {
  if (!sitePath.startsWith('/media/')) return null;
  const key = sitePath.slice(1);
  return isMediaKey(key) ? key : null;
}

/** The refusal every upload answers when its store fails (words below; the edge adds Retry-After). */
export const MEDIA_STORE_REFUSAL_CODES = ['MEDIA_STORE_UNAVAILABLE'] as const;
export type MediaStoreRefusalCode = (typeof MEDIA_STORE_REFUSAL_CODES)[number];

/** Seconds a client is asked to wait before trying an upload again. */
export const MEDIA_STORE_RETRY_AFTER_SECONDS = 30;

/** What an uploader reads when the store failed (the pack editor's form says it without a refusal). */
export const MEDIA_STORE_UNAVAILABLE_MESSAGE = '画像の保存に失敗しました。時間をおいてもう一度お試しください。';

export const MEDIA_STORE_REFUSAL_WORDS: RefusalWords<MediaStoreRefusalCode> = {
  MEDIA_STORE_UNAVAILABLE: {
    status: 503,
    message: MEDIA_STORE_UNAVAILABLE_MESSAGE,
    headers: { 'Retry-After': String(MEDIA_STORE_RETRY_AFTER_SECONDS) },
  },
};
