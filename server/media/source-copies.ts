// Per-instance copies of uploaded images kept in a bucket (decision 071): /media answers and the /_img
// resizer read an image's bytes from this instance's disk after the first time, instead of asking the
// bucket on every request. Safe because a stored image never changes (its name is a new UUID or the hash
// of its bytes). Only /media images are copied: an inquiry's images are personal data and live only in
// the store, so 退会 erases them everywhere. The copies sit in the resized-image cache's folder, whose
// daily clean-up (images.cache-cleanup) ages them out and holds them under IMAGE_CACHE_MAX_MB.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { MediaStore } from '#modules/kernel';

/** Where the copies are kept: inside the resized-image cache (DATA_DIR/cache/images), so its clean-up covers them. */
export const sourceCopiesDir = (dataDir: string) => path.join(dataDir, 'cache', 'images', 'sources');

/**
 * `store` with this instance's copies of /media images in front of its reads.
 * @example const store = withSourceCopies(await s3MediaStore(options), sourceCopiesDir(config.dataDir))
 */
export function withSourceCopies(store: MediaStore, dir: string): MediaStore {
  const copyOf = (key: string) => (key.startsWith('media/') ? path.join(dir, ...key.split('/')) : null);
  return {
    kind: store.kind,
    put: (key, bytes, contentType) => store.put(key, bytes, contentType),
    async get(key) {
      const copy = copyOf(key);
      if (!copy) return store.get(key);
      const kept = await fs.readFile(copy).catch(() => null);
      if (kept) return new Uint8Array(kept);
      const bytes = await store.get(key);
      if (bytes) {
        // A full or read-only disk costs speed, not availability: the bytes are answered anyway.
        const temporary = `${copy}.${randomUUID()}.tmp`;
        await fs
          .mkdir(path.dirname(copy), { recursive: true })
          .then(() => fs.writeFile(temporary, bytes, { mode: 0o600 }))
          .then(() => fs.rename(temporary, copy))
          .catch(() => fs.rm(temporary, { force: true }).catch(() => undefined));
      }
      return bytes;
    },
    exists: (key) => store.exists(key),
    async delete(key) {
      await store.delete(key);
      const copy = copyOf(key);
      if (copy) await fs.rm(copy, { force: true }).catch(() => undefined);
    },
    list: (prefix) => store.list(prefix),
    close: () => store.close(),
  };
}
