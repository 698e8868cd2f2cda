// The embedded default of the media store (decision 071): uploaded images as files under DATA_DIR, at the
// paths they have always had (DATA_DIR/media/…, DATA_DIR/inquiries/…). Each is written through a
// temporary name and a rename, so no reader ever sees half a file; a write that fails (a full or
// read-only disk) is the store's failure, answered 503 like a bucket's.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { isMediaKey, MediaStoreUnavailable, type MediaStore, type StoredMediaObject } from '#modules/kernel';

/** A folder of keys: `media/packs/`, `inquiries/`. */
const MEDIA_PREFIX = /^([a-z0-9][a-z0-9_-]*\/)+$/;

const isMissing = (error: unknown) =>
  error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');

/**
 * A media store on this machine's disk, rooted at `root` (DATA_DIR): key `media/packs/x.webp` is the file
 * `<root>/media/packs/x.webp`. Files are readable by the shop's user only (inquiry images are personal data).
 * @example const store = diskMediaStore(config.dataDir); await store.put('media/packs/….webp', bytes, 'image/webp')
 */
export function diskMediaStore(root: string): MediaStore {
  const base = path.resolve(root);
  const fileOf = (key: string) => {
    if (!isMediaKey(key)) throw new RangeError(`media store: not a key: ${key}`);
    return path.join(base, ...key.split('/'));
  };

  async function* walk(dir: string, prefix: string): AsyncGenerator<StoredMediaObject> {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return; // nothing uploaded there yet
      throw new MediaStoreUnavailable(`media store: cannot list ${prefix}`, { cause: error });
    }
    for (const entry of entries) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) yield* walk(file, `${prefix}${entry.name}/`);
      else if (entry.isFile()) {
        const stat = await fs.stat(file).catch(() => null);
        if (stat) yield { key: `${prefix}${entry.name}`, lastModified: stat.mtime, size: stat.size };
      }
    }
  }

  return {
    kind: 'disk',
    async put(key, bytes) {
      const file = fileOf(key);
      const temporary = `${file}.${randomUUID()}.tmp`;
      try {
        await fs.mkdir(path.dirname(file), { recursive: true });
        await fs.writeFile(temporary, bytes, { mode: 0o600, flag: 'wx' });
        await fs.rename(temporary, file);
      } catch (error) {
        await fs.rm(temporary, { force: true }).catch(() => undefined);
        throw new MediaStoreUnavailable(`media store: cannot write ${key}`, { cause: error });
      }
    },
    async get(key) {
      const file = fileOf(key);
      try {
        return new Uint8Array(await fs.readFile(file));
      } catch (error) {
        if (isMissing(error)) return null;
        throw new MediaStoreUnavailable(`media store: cannot read ${key}`, { cause: error });
      }
    },
    async exists(key) {
      try {
        return (await fs.stat(fileOf(key))).isFile();
      } catch (error) {
        if (isMissing(error)) return false;
        throw new MediaStoreUnavailable(`media store: cannot look at ${key}`, { cause: error });
      }
    },
    async delete(key) {
      try {
        await fs.rm(fileOf(key), { force: true });
      } catch (error) {
        throw new MediaStoreUnavailable(`media store: cannot delete ${key}`, { cause: error });
      }
    },
    list(prefix) {
      if (!MEDIA_PREFIX.test(prefix)) throw new RangeError(`media store: not a prefix: ${prefix}`);
      return walk(path.join(base, ...prefix.split('/').filter(Boolean)), prefix);
    },
    async close() {},
  };
}
