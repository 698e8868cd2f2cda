// media.cleanup: deletes uploads that no pack, card, genre, banner or content version names, once they
// are older than MEDIA_CLEANUP_GRACE_HOURS (server/media/cleanup.ts, decision 071). Daily.
import type { MediaStore } from '#modules/kernel';
import { cleanUpMedia } from '../media/cleanup';
import type { JobDefinition } from './runner';

/**
 * The job. With a bucket every instance sees the same objects: once per cluster. On the disk each
 * instance holds its own uploads (one instance is the supported shape), so it runs on every instance.
 */
export function mediaCleanupJob(options: { store: MediaStore; graceHours: number }): JobDefinition {
  return {
    name: 'media.cleanup',
    cron: '45 4 * * *', // daily, 04:45 Tokyo time, after the resized-image cache's clean-up
    scope: options.store.kind === 'disk' ? 'instance' : 'cluster',
    async handler({ db, logger, now }) {
      const result = await cleanUpMedia(db, options.store, { graceMs: options.graceHours * 3_600_000, now });
      logger.info({ ...result, store: options.store.kind }, 'media cleaned');
      return { processed: result.deleted };
    },
  };
}
