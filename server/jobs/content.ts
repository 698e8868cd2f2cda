// The content store's job: booked publications (docs/decisions/040). Every minute, once across the
// instances; the rows are taken FOR UPDATE SKIP LOCKED and a published document is no longer booked,
// so a repeat or a second instance never publishes twice. Each publication is audited as the system.
import { publishScheduledContent } from '#modules/admin';
import type { JobDefinition } from './runner';

export const publishScheduledContentJob = (): JobDefinition => ({
  name: 'content.publish-scheduled',
  cron: '* * * * *',
  handler: async ({ db, now }) => ({ processed: await publishScheduledContent(db, now) }),
});
