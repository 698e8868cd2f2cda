// The clean-up of uploads that nothing names (decision 071): a pack image replaced or left by a deleted
// draft, banner art replaced, a content image uploaded into a form that was never saved, a store write
// whose step was then refused. An object goes only when it is older than MEDIA_CLEANUP_GRACE_HOURS (so a
// form still being filled in keeps its image, and an upload whose row is about to commit is never
// touched) and when neither the catalogue nor content names its file name: every pack (drafts are pack
// rows), card, genre, content document and saved version counts. Inquiry images are swept by their own
// rows (privacy.finish-deletions, decision 053).
import path from 'node:path';
import type { Database } from '#db/client';
import { catalogueImagesInUse } from '#modules/gacha';
import { contentImagesInUse } from '#modules/content';
import type { MediaStore, StoredMediaObject } from '#modules/kernel';
import { MEDIA_FOLDERS } from './route';

/** Objects checked against the database at once (one query per owner per batch). */
const BATCH = 500;

export interface MediaCleanupResult {
  /** Objects old enough to be considered. */
  examined: number;
  /** Of those, deleted: no row names them. */
  deleted: number;
}

/**
 * Of these stored file names, those some row still names (the catalogue's or content's).
 * @example const kept = await mediaNamesInUse(db, ['0f9c….webp'])
 */
export async function mediaNamesInUse(db: Database, names: readonly string[]): Promise<Set<string>> {
  const [catalogue, content] = await Promise.all([catalogueImagesInUse(db, names), contentImagesInUse(db, names)]);
  return new Set([...catalogue, ...content]);
}

/**
 * Deletes every upload under /media's folders that is older than `graceMs` and that no row names.
 * Safe to run on several instances at once and to repeat: a deleted object is simply gone the next time.
 * @example await cleanUpMedia(db, store, { graceMs: 168 * 3_600_000, now: new Date() })
 */
export async function cleanUpMedia(
  db: Database,
  store: MediaStore,
  options: { graceMs: number; now: Date },
): Promise<MediaCleanupResult> {
  const cutoff = options.now.getTime() - options.graceMs;
  const result: MediaCleanupResult = { examined: 0, deleted: 0 };
  const settle = async (objects: StoredMediaObject[]) => {
    if (objects.length === 0) return;
    const inUse = await mediaNamesInUse(
      db,
      objects.map((object) => path.posix.basename(object.key)),
    );
    for (const object of objects) {
      if (inUse.has(path.posix.basename(object.key))) continue;
      await store.delete(object.key);
      result.deleted++;
    }
  };
  for (const folder of Object.keys(MEDIA_FOLDERS)) {
    let batch: StoredMediaObject[] = [];
    for await (const object of store.list(`media/${folder}/`)) {
      if (object.lastModified.getTime() > cutoff) continue;
      result.examined++;
      batch.push(object);
      if (batch.length >= BATCH) {
        await settle(batch);
        batch = [];
      }
    }
    await settle(batch);
  }
  return result;
}
