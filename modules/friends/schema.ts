// Friends (decision 045): one row per pair of members, whoever asked first. The pair is stored in
// order (member_low < member_high) so the unique key makes one row per pair whatever the direction.
import { bigserial, index, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';

export const friendships = pgTable(
  'friendships',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    memberLow: text('member_low').notNull(),
    memberHigh: text('member_high').notNull(),
    /** Who sent the request now on record (the pair's last request). */
    requestedBy: text('requested_by').notNull(),
    /** pending → accepted | declined; accepted → removed; declined or removed → pending on a new request. */
    status: text('status', { enum: ['pending', 'accepted', 'declined', 'removed'] }).notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the request was accepted or declined, or the friendship removed. */
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** Who declined or removed (null while pending or accepted). */
    decidedBy: text('decided_by'),
  },
  (t) => [
    unique('friendships_pair').on(t.memberLow, t.memberHigh),
    index('friendships_high_idx').on(t.memberHigh, t.status),
  ],
);
