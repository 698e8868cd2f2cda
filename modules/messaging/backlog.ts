// The outbox's backlog, for the operators' metrics (decision 072): how many messages wait and how long
// the oldest due one has waited. Read at every scrape, so each count stops at a cap: the query reads at
// most `cap` index entries per status, however long a transport has been down.
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';

/** What a scrape shows: messages waiting (each count at most the cap), and the oldest due one's wait. */
export interface OutboxBacklog {
  /** Queued messages, due or waiting for their retry (at most `cap`). */
  queued: number;
  /** Messages a deliver run holds now (at most `cap`). */
  sending: number;
  /** Seconds the oldest queued message that is due has waited since it fell due, or null when none is due. */
  oldestDueSeconds: number | null;
}

/** The most messages a count reads; a scrape showing it means "at least this many". */
export const OUTBOX_BACKLOG_CAP = 10_000;

/**
 * Counts the backlog through the outbox's (status, next attempt) index, each count capped.
 * @example const { queued, oldestDueSeconds } = await outboxBacklog(db)
 */
export async function outboxBacklog(db: Database, options: { now?: Date; cap?: number } = {}): Promise<OutboxBacklog> {
  const now = (options.now ?? new Date()).toISOString();
  const cap = options.cap ?? OUTBOX_BACKLOG_CAP;
  const [row] = await queryRows<{ queued: number; sending: number; oldest_due: string | null }>(
    db,
    sql`select
          (select count(*)::int from (select 1 from outbound_messages where status = 'queued' limit ${cap}) q) as queued,
          (select count(*)::int from (select 1 from outbound_messages where status = 'sending' limit ${cap}) s) as sending,
          (select min(next_attempt_at) from outbound_messages
            where status = 'queued' and next_attempt_at <= ${now}::timestamptz)::text as oldest_due`,
  );
  const oldestDue = row?.oldest_due ? new Date(row.oldest_due) : null;
  return {
    queued: row?.queued ?? 0,
    sending: row?.sending ?? 0,
    oldestDueSeconds: oldestDue ? Math.max(0, (Date.parse(now) - oldestDue.getTime()) / 1000) : null,
  };
}
