// Stored answers of requests that carried an Idempotency-Key (docs/api.md), for operations that do not
// keep their own (a draw keeps its key on the draw row itself).
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

export const idempotentRequests = pgTable(
  'idempotent_requests',
  {
    memberId: text('member_id').notNull(),
    key: text('key').notNull(),
    operation: text('operation').notNull(),
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    body: jsonb('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.key] }), index('idempotent_requests_created_idx').on(t.createdAt)],
);
