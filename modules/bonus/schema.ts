// The login bonus's one table: one row per member and Japan-time day claimed (docs/decisions/033).
import { bigint, date, integer, pgTable, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';

export const loginBonusClaims = pgTable(
  'login_bonus_claims',
  {
    id: serial('id').primaryKey(),
    memberId: text('member_id').notNull(),
    /** The day in Asia/Tokyo the claim counts for ('YYYY-MM-DD'); the unique key makes it once a day. */
    jstDay: date('jst_day', { mode: 'string' }).notNull(),
    /** Consecutive Japan-time days claimed, this one included (1 after a missed day). */
    streakDay: integer('streak_day').notNull(),
    coins: integer('coins').notNull(),
    /** The wallet grant that credited the coins (key login-bonus:<member>:<day>), set in the claim's own transaction. */
    grantId: bigint('grant_id', { mode: 'number' }),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Also the index of a member's history, newest day first.
  (t) => [unique('login_bonus_claims_member_day').on(t.memberId, t.jstDay)],
);
