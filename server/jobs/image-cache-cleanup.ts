// images.cache-cleanup: keeps the resized-image cache (DATA_DIR/cache/images, written by server/images)
// small: files older than 30 days go, then the oldest files until the folder is under its size cap.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { JobDefinition } from './runner';

export const IMAGE_CACHE_MAX_AGE_DAYS = 30;

export interface ImageCacheCleanupResult {
  /** Files deleted because they were older than the age limit. */
  deletedOld: number;
  /** Files deleted (oldest first) to get under the size cap. */
  deletedForSize: number;
  /** Bytes left in the folder. */
  remainingBytes: number;
}

interface CachedFile {
  file: string;
  size: number;
  mtimeMs: number;
}

/** Every regular file under `dir` (the cache is `<2 hex>/<key>.<format>`, plus in-flight `.tmp` files). */
async function listFiles(dir: string): Promise<CachedFile[]> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return []; // no cache yet, or a folder removed meanwhile
    throw error;
  }
  const files: CachedFile[] = [];
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      files.push(...(await listFiles(file)));
    } else if (entry.isFile()) {
      try {
        const stat = await fs.stat(file);
        files.push({ file, size: stat.size, mtimeMs: stat.mtimeMs });
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
  }
  return files;
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');
}

/** Deletes one file; false when it was already gone (another clean-up, or a rewrite in between). */
async function remove(file: string): Promise<boolean> {
  try {
    await fs.unlink(file);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/**
 * Deletes cache files last written more than `maxAgeMs` before `now`, then the oldest remaining ones
 * until the folder holds at most `maxBytes`. Folders are kept (the resizer recreates them anyway).
 * @example await cleanImageCache({ dir: '.data/cache/images', maxAgeMs: 30 * 86_400_000, maxBytes: 1024 ** 3, now: new Date() })
 */
export async function cleanImageCache(options: {
  dir: string;
  maxAgeMs: number;
  maxBytes: number;
  now: Date;
}): Promise<ImageCacheCleanupResult> {
  const cutoff = options.now.getTime() - options.maxAgeMs;
  const files = await listFiles(options.dir);
  let deletedOld = 0;
  const kept: CachedFile[] = [];
  for (const entry of files) {
    if (entry.mtimeMs < cutoff) {
      if (await remove(entry.file)) deletedOld++;
    } else {
      kept.push(entry);
    }
  }
  kept.sort((a, b) => a.mtimeMs - b.mtimeMs || a.file.localeCompare(b.file));
  let remainingBytes = kept.reduce((sum, entry) => sum + entry.size, 0);
  let deletedForSize = 0;
  for (const entry of kept) {
    if (remainingBytes <= options.maxBytes) break;
    if (await remove(entry.file)) deletedForSize++;
    remainingBytes -= entry.size;
  }
  return { deletedOld, deletedForSize, remainingBytes };
}

/**
 * The job. It runs on every instance (scope `instance`): each server instance has its own DATA_DIR,
 * so a once-per-cluster run would clean only one instance's disk.
 */
export function imageCacheCleanupJob(options: { cacheDir: string; maxBytes: number }): JobDefinition {
  return {
    name: 'images.cache-cleanup',
    cron: '30 4 * * *', // daily, 04:30 Tokyo time, when the shop is quietest
    scope: 'instance',
    async handler({ logger, now }) {
      const result = await cleanImageCache({
        dir: options.cacheDir,
        maxAgeMs: IMAGE_CACHE_MAX_AGE_DAYS * 24 * 60 * 60 * 1000,
        maxBytes: options.maxBytes,
        now,
      });
      logger.debug({ ...result, cacheDir: options.cacheDir }, 'image cache cleaned');
      return { processed: result.deletedOld + result.deletedForSize };
    },
  };
}
