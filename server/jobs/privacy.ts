// 退会's clean-up after the transaction (server/personal-data.ts): forgets the outbox rows of deleted
// members once sent (the notice), and removes inquiry images no row names. Every ten minutes.
import type { MediaStore } from '#modules/kernel';
import type { JobDefinition } from './runner';
import { finishDeletions } from '../personal-data';

export const finishDeletionsJob = (media: MediaStore): JobDefinition => ({
  name: 'privacy.finish-deletions',
  cron: '*/10 * * * *',
  handler: async ({ db, now }) => {
    const done = await finishDeletions(db, media, now);
    return { processed: done.messages + done.files };
  },
});
