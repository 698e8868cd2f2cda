// The outbox's jobs: send what is due (every minute, and at once after a message is committed: see
// startOutboxNudge in server/messaging.ts), and blank the bodies of old messages (their links and
// codes) after OUTBOX_RETENTION_DAYS.
import type { JobDefinition } from './runner';
import { clearOldMessageBodies, deliverDueMessages, type MessageTransports } from '#modules/messaging';

/** Messages one run sends at most; the rest wait for the next run (a minute, or the next nudge). */
export const DELIVER_BATCH = 200;

export const deliverMessagesJob = (transports: MessageTransports): JobDefinition => ({
  name: 'messaging.deliver',
  cron: '* * * * *',
  // A failed send is retried by the outbox's own backoff, not by re-running the job.
  retryLimit: 0,
  handler: async ({ db, now, logger }) => {
    const report = await deliverDueMessages(db, transports, { now, limit: DELIVER_BATCH });
    if (report.retried > 0 || report.failed > 0) logger.warn({ ...report }, 'some messages could not be sent');
    return { processed: report.sent + report.retried + report.failed + report.held };
  },
});

export const clearMessageBodiesJob = (retentionDays: number): JobDefinition => ({
  name: 'messaging.clear-old-bodies',
  cron: '40 * * * *',
  handler: async ({ db, now }) => ({ processed: await clearOldMessageBodies(db, { retentionDays, now }) }),
});
