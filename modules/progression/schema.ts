// Experience per member (1 exp per coin spent on draws), the level table the draw reads, and each
// member's recorded rank per Japan-time month (docs/decisions/037).
import { bigint, date, index, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';

export const memberProgress = pgTable('member_progress', {
  memberId: text('member_id').primaryKey(),
  exp: bigint('exp', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The level table in force, written from the settings at start (syncLevelTable) so that the draw's SQL
 * reads the same thresholds as the pages: level n is reached at exp_required cumulative exp. Level 1 is
 * at 0 and has no row's reward. Empty: levels are off (everyone is level 1, no level-up mail).
 */
export const progressionLevels = pgTable('progression_levels', {
  level: integer('level').primaryKey(),
  expRequired: bigint('exp_required', { mode: 'number' }).notNull().unique('progression_levels_exp_key'),
  /** Free coins attached to the level-up mail (0: a mail without attachment). */
  rewardCoins: integer('reward_coins').notNull(),
  /** Days the member has to claim the attachment. */
  claimDays: integer('claim_days').notNull(),
});

/** A member's rank for one Japan-time month, recorded by the monthly job; absent: レギュラー (rank 0). */
export const memberMonthlyRanks = pgTable(
  'member_monthly_ranks',
  {
    memberId: text('member_id').notNull(),
    /** The month's first day (Asia/Tokyo). */
    month: date('month', { mode: 'string' }).notNull(),
    rank: smallint('rank').notNull(),
    /** Paid coins bought in the month before, which decided the rank. */
    paidCoins: bigint('paid_coins', { mode: 'number' }).notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.memberId, t.month] }),
    // Segments ("rank ≥ ゴールド this month") and the operators' counts read a month by rank.
    index('member_monthly_ranks_month_idx').on(t.month, t.rank),
  ],
);

/** The monthly rank job's progress per month: a keyset cursor over members, and when the month was done. */
export const rankMonths = pgTable('rank_months', {
  month: date('month', { mode: 'string' }).primaryKey(),
  /** The last member id recorded (members are taken in id order, a batch per transaction). */
  cursor: text('cursor').notNull().default(''),
  members: integer('members').notNull().default(0),
  rankUps: integer('rank_ups').notNull().default(0),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  doneAt: timestamp('done_at', { withTimezone: true }),
});
