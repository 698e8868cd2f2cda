// Experience per member (1 exp per coin spent on draws). Levels and ranks build on it later.
import { bigint, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const memberProgress = pgTable('member_progress', {
  memberId: text('member_id').primaryKey(),
  exp: bigint('exp', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
