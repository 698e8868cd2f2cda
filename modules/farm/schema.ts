// The farm (decision 044): the operators' rules and seed table, each member's plots, one row per
// member and Japan-time day (the daily cap's lock and the economy view's source), and the log of
// rewarded actions (each reward a wallet grant of its own key).
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/** One row (id 1): the farm's tunable rules, edited in /admin/farm. The migration writes the defaults. */
export const farmRules = pgTable('farm_rules', {
  id: integer('id').primaryKey(),
  /** Paused: every action is refused (reading still works); crops keep their times. */
  paused: boolean('paused').notNull().default(false),
  /** Level needed for plot 1, 2, …: the member has as many plots as entries at or below their level. */
  plotUnlockLevels: integer('plot_unlock_levels').array().notNull(),
  /** A plot may be watered once per this many minutes (480: 8 hours). */
  waterCooldownMinutes: integer('water_cooldown_minutes').notNull(),
  /** Watering takes this percentage off the time still to grow (at least one minute). */
  waterSpeedupPercent: integer('water_speedup_percent').notNull(),
  /** A ripe crop withers this many minutes after it ripened; a withered crop gives nothing. */
  witherAfterMinutes: integer('wither_after_minutes').notNull(),
  /** Free coins the farm may give one member in one Japan-time day (harvests and friends' watering). */
  dailyCoinCap: integer('daily_coin_cap').notNull(),
  /** Free coins each of the two members gets when one waters a friend's farm (once per friend per day). */
  friendWaterCoins: integer('friend_water_coins').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text('updated_by'),
});

/** The seed table: what can be planted, how long it grows and what its harvest gives. */
export const farmSeeds = pgTable('farm_seeds', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** Which drawing the farm uses (FARM_CROP_ARTS). */
  art: text('art').notNull(),
  /** 30 to 1440 minutes. */
  growMinutes: integer('grow_minutes').notNull(),
  /** Free coins of one harvest (before the daily cap). */
  rewardCoins: integer('reward_coins').notNull(),
  /** The member's level needed to plant it. */
  unlockLevel: integer('unlock_level').notNull().default(1),
  active: boolean('active').notNull().default(true),
  sort: integer('sort').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A member's plot; a row exists once the plot has been used. planting_id names the crop on it now. */
export const farmPlots = pgTable(
  'farm_plots',
  {
    memberId: text('member_id').notNull(),
    plotNo: integer('plot_no').notNull(),
    /** Null: the plot is empty. */
    plantingId: bigint('planting_id', { mode: 'number' }),
    seedId: text('seed_id'),
    /** The reward the seed promised when planted (the table may change later; the crop keeps its promise). */
    rewardCoins: integer('reward_coins'),
    plantedAt: timestamp('planted_at', { withTimezone: true }),
    /** When the crop is ripe; watering brings it forward. */
    readyAt: timestamp('ready_at', { withTimezone: true }),
    lastWateredAt: timestamp('last_watered_at', { withTimezone: true }),
    waterings: integer('waterings').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.plotNo] })],
);

/** One row per member and Japan-time day they played: the daily cap is counted here, under its row lock. */
export const farmDays = pgTable(
  'farm_days',
  {
    memberId: text('member_id').notNull(),
    jstDay: date('jst_day', { mode: 'string' }).notNull(),
    /** Free coins granted by the farm to this member on this day (never above the cap of the day). */
    coins: integer('coins').notNull().default(0),
    harvests: integer('harvests').notNull().default(0),
    waterings: integer('waterings').notNull().default(0),
    /** Friends' farms this member watered today. */
    friendWaterings: integer('friend_waterings').notNull().default(0),
    /** Consecutive Japan-time days played, this one included. */
    streak: integer('streak').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.jstDay] }), index('farm_days_day_idx').on(t.jstDay)],
);

/**
 * Every action that changed a farm, with what it gave: the member's history, the operators' economy
 * view and the proof that a reward was given once (unique keys per planting and per friend and day).
 */
export const farmActions = pgTable(
  'farm_actions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    memberId: text('member_id').notNull(),
    kind: text('kind', { enum: ['plant', 'water', 'harvest', 'clear', 'friend_water'] }).notNull(),
    jstDay: date('jst_day', { mode: 'string' }).notNull(),
    plotNo: integer('plot_no'),
    plantingId: bigint('planting_id', { mode: 'number' }),
    seedId: text('seed_id'),
    /** friend_water: whose farm. */
    friendId: text('friend_id'),
    /** Coins granted to this member by the action (after the cap); the friend's share is on their own row. */
    coins: integer('coins').notNull().default(0),
    /** Coins the cap held back. */
    cappedCoins: integer('capped_coins').notNull().default(0),
    grantId: bigint('grant_id', { mode: 'number' }),
    detail: jsonb('detail'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('farm_actions_member_idx').on(t.memberId, t.id),
    index('farm_actions_day_idx').on(t.jstDay, t.kind),
    // An operator's seed delete asks whether the seed was ever planted.
    index('farm_actions_seed_idx').on(t.seedId),
    // One harvest (or clearing) per planting: the reward's once-only proof beside the grant's key.
    uniqueIndex('farm_actions_harvest_once')
      .on(t.plantingId)
      .where(sql`kind in ('harvest', 'clear')`),
    // One watering of each friend's farm per Japan-time day.
    uniqueIndex('farm_actions_friend_once')
      .on(t.memberId, t.friendId, t.jstDay)
      .where(sql`kind = 'friend_water'`),
  ],
);
