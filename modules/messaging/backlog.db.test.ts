// The outbox's backlog as a scrape reads it: queued and sending messages counted up to the cap, the
// oldest due message's wait, and nothing due when every queued message waits for its retry.
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { outboundMessages } from '#db/schema';
import { outboxBacklog, queueMail, type SiteIdentity } from '#modules/messaging';

const handle = useTestDatabase('messaging-backlog');
const site: SiteIdentity = { name: 'オリパ ステラ', origin: 'https://oripa.example.jp' };

const queue = async (count: number) => {
  const ids: string[] = [];
  for (let n = 0; n < count; n++)
    ids.push((await queueMail(handle.db, site, { to: `m${n}@example.jp`, template: 'account-deleted', vars: {} })).id);
  return ids;
};

describe('the outbox backlog', () => {
  it('is empty on an empty outbox', async () => {
    expect(await outboxBacklog(handle.db)).toEqual({ queued: 0, sending: 0, oldestDueSeconds: null });
  });

  it('counts queued and sending messages, each up to the cap, and how long the oldest due one has waited', async () => {
    const ids = await queue(4);
    const now = new Date();
    await handle.db
      .update(outboundMessages)
      .set({ nextAttemptAt: new Date(now.getTime() - 90_000) })
      .where(eq(outboundMessages.id, ids[0]!));
    await handle.db.update(outboundMessages).set({ status: 'sending' }).where(eq(outboundMessages.id, ids[1]!));
    // One waits for a retry in an hour: queued, but not due.
    await handle.db
      .update(outboundMessages)
      .set({ nextAttemptAt: new Date(now.getTime() + 3_600_000) })
      .where(eq(outboundMessages.id, ids[2]!));

    const backlog = await outboxBacklog(handle.db, { now });
    expect(backlog.queued).toBe(3);
    expect(backlog.sending).toBe(1);
    expect(backlog.oldestDueSeconds).toBeCloseTo(90, 0);
    expect(await outboxBacklog(handle.db, { now, cap: 2 })).toMatchObject({ queued: 2, sending: 1 });
  });

  it('says nothing is due when every queued message waits for its retry', async () => {
    await handle.db.delete(outboundMessages);
    const [id] = await queue(1);
    const now = new Date();
    await handle.db
      .update(outboundMessages)
      .set({ nextAttemptAt: new Date(now.getTime() + 60_000) })
      .where(eq(outboundMessages.id, id!));
    expect(await outboxBacklog(handle.db, { now })).toEqual({ queued: 1, sending: 0, oldestDueSeconds: null });
  });
});
