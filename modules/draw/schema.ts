// Draws (one row per request, keyed by the member's idempotency key) and the prizes they won.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  check,
  index,
  integer,
  jsonb,
  primaryKey,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const drawStatuses = ['completed', 'refused'] as const;
export type DrawStatus = (typeof drawStatuses)[number];

/**
 * A draw request. A refused draw is kept too, so a retry with the same key gets the same answer.
 * No foreign keys on this hot path: a key-share lock on the pack row per insert costs throughput;
 * the draw function and the invariant check keep the references right.
 */
export const draws = pgTable(
  'draws',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    memberId: text('member_id').notNull(),
    idemKey: text('idem_key').notNull(),
    requestHash: text('request_hash').notNull(),
    gachaId: text('gacha_id').notNull(),
    count: integer('count').notNull(),
    cost: integer('cost').notNull(),
    status: text('status', { enum: drawStatuses }).notNull(),
    errorCode: text('error_code'),
    errorDetails: jsonb('error_details'),
    lastOne: boolean('last_one').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('draws_idem_idx').on(t.memberId, t.idemKey),
    index('draws_gacha_idx').on(t.gachaId, t.createdAt),
    index('draws_member_idx').on(t.memberId, t.createdAt),
    // The ranking boards read a day's or a week's completed draws of every member.
    index('draws_completed_created_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'completed'`),
  ],
);

export const prizeStatuses = ['pending', 'kept', 'converted', 'shipping'] as const;
export type PrizeStatus = (typeof prizeStatuses)[number];

/** A prize in a member's prize box: one per lot won, plus the ラストワン賞 and キリ番賞 (position null). */
export const prizes = pgTable(
  'prizes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    memberId: text('member_id').notNull(),
    drawId: uuid('draw_id').notNull(),
    gachaId: text('gacha_id').notNull(),
    tierId: text('tier_id').notNull(),
    position: integer('position'),
    /** A キリ番賞: the lot number it was won for (decision 027); null for every other prize. */
    kiribanNo: integer('kiriban_no'),
    /** A 個人キリ番賞: the member's own lot number it was won for (decision 088); null for every other prize. */
    personalKiribanNo: integer('personal_kiriban_no'),
    /** A ピタリ賞: the lot tier whose last lot this draw took (decision 088); null for every other prize. */
    pitariOf: text('pitari_of'),
    /** A 天井賞: the member's how-manieth 天井賞 of the pack it is (decision 089); null for every other prize. */
    ceilingNo: integer('ceiling_no'),
    conversionValue: integer('conversion_value').notNull(),
    status: text('status', { enum: prizeStatuses }).notNull().default('pending'),
    /** Unchosen after this, the prize is converted automatically. */
    decideBy: timestamp('decide_by', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    autoConverted: boolean('auto_converted').notNull().default(false),
    /**
     * A kept prize waits for a shipping request until this instant (KEPT_PRIZE_STORAGE_DAYS), then it is
     * converted. Set when kept, and again when a canceled or returned request puts the prize back.
     */
    keepUntil: timestamp('keep_until', { withTimezone: true }),
    /** The last storage reminder sent for the current keep (7 or 1: days before keepUntil), so none repeats. */
    keepRemindedDays: integer('keep_reminded_days'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('prizes_member_idx').on(t.memberId, t.status, t.createdAt),
    index('prizes_draw_idx').on(t.drawId),
    // No lot is ever won twice, enforced by the database as well as by the claim.
    uniqueIndex('prizes_lot_idx')
      .on(t.gachaId, t.position)
      .where(sql`${t.position} is not null`),
    // Each キリ番 of a pack is won once, enforced by the database as well as by the draw.
    uniqueIndex('prizes_kiriban_idx')
      .on(t.gachaId, t.kiribanNo)
      .where(sql`${t.kiribanNo} is not null`),
    // Each member's 個人キリ番 of a pack is won once, and each tier's ピタリ賞 once (decision 088).
    uniqueIndex('prizes_personal_kiriban_idx')
      .on(t.gachaId, t.memberId, t.personalKiribanNo)
      .where(sql`${t.personalKiribanNo} is not null`),
    uniqueIndex('prizes_pitari_idx')
      .on(t.gachaId, t.pitariOf)
      .where(sql`${t.pitariOf} is not null`),
    // Each member's Nth 天井賞 of a pack is given once (decision 089).
    uniqueIndex('prizes_ceiling_idx')
      .on(t.gachaId, t.memberId, t.ceilingNo)
      .where(sql`${t.ceilingNo} is not null`),
    index('prizes_due_idx')
      .on(t.decideBy)
      .where(sql`${t.status} = 'pending'`),
    // The storage job reads kept prizes by the end of their storage (reminders, then conversion).
    index('prizes_keep_until_idx')
      .on(t.keepUntil)
      .where(sql`${t.status} = 'kept'`),
    check('prizes_value_nonnegative', sql`${t.conversionValue} >= 0`),
  ],
);

/**
 * A member's own conversion (one tap: one card or a bulk choice), kept so that it can be undone for a
 * few seconds (CONVERT_UNDO_SECONDS, decision 057): which prizes, which of them were kept for shipping,
 * the coins granted, until when it may be undone and when it was. The deadline job and the shipping
 * desk's conversions write none (they cannot be undone).
 */
export const prizeConversions = pgTable('prize_conversions', {
  id: uuid('id').primaryKey().defaultRandom(),
  memberId: text('member_id').notNull(),
  prizeIds: uuid('prize_ids').array().notNull(),
  keptIds: uuid('kept_ids')
    .array()
    .notNull()
    .default(sql`'{}'::uuid[]`),
  total: integer('total').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  undoUntil: timestamp('undo_until', { withTimezone: true }).notNull(),
  undoneAt: timestamp('undone_at', { withTimezone: true }),
});

/**
 * Lots drawn per member and pack, kept only for packs with a per-member limit, 個人キリ番賞 or 天井賞. Written
 * under the member's wallet lock, so each member's row is exact.
 */
export const gachaMemberDraws = pgTable(
  'gacha_member_draws',
  {
    gachaId: text('gacha_id').notNull(),
    memberId: text('member_id').notNull(),
    lots: integer('lots').notNull(),
    /** 天井賞 (decision 089): the member's lots since their last hit (a ceilingOf tier) or 天井賞. */
    ceilingStreak: integer('ceiling_streak').notNull().default(0),
    /** 天井賞 given to the member in this pack (the last prize's ceilingNo). */
    ceilings: integer('ceilings').notNull().default(0),
  },
  (t) => [uniqueIndex('gacha_member_draws_pk').on(t.gachaId, t.memberId)],
);

// ── Rollups for the operators' dashboard (docs/decisions/028) ────────────────────────────────────
// Kept by a job that folds completed draws older than a settling lag into these rows, never by the
// draw itself: a per-draw upsert on one row per day would serialise every draw of the day.

/** Completed draws per Japan-time day and pack: requests, lots and coins spent. */
export const drawDailyRollups = pgTable(
  'draw_daily_rollups',
  {
    day: date('day', { mode: 'string' }).notNull(),
    gachaId: text('gacha_id').notNull(),
    draws: integer('draws').notNull(),
    lots: bigint('lots', { mode: 'number' }).notNull(),
    coins: bigint('coins', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.gachaId] })],
);

/** Members who completed a draw on a Japan-time day, once each: makes the active count foldable. */
export const drawMemberDays = pgTable(
  'draw_member_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    memberId: text('member_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.memberId] })],
);

/** Active members (at least one completed draw) per Japan-time day, counted as draw_member_days grows. */
export const drawDailyMembers = pgTable('draw_daily_members', {
  day: date('day', { mode: 'string' }).primaryKey(),
  activeMembers: integer('active_members').notNull(),
});

/** How far the draws have been folded: every completed draw created before `foldedTo` is in the rollups. */
export const drawRollupMarks = pgTable('draw_rollup_marks', {
  name: text('name').primaryKey(),
  foldedTo: timestamp('folded_to', { withTimezone: true }).notNull(),
});

// ── The winners feed (当選履歴, docs/decisions/036) ─────────────────────────────────────────────
// Written after a draw has committed (the live recount of the pack, and a catch-up job), never by
// the draw itself: the draw's transaction stays as it was.

/** One top-tier prize won (PRIZE_HIGHLIGHT_COINS or S賞-class effects), the public feed's row. */
export const drawWins = pgTable(
  'draw_wins',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    prizeId: uuid('prize_id').notNull(),
    drawId: uuid('draw_id').notNull(),
    memberId: text('member_id').notNull(),
    gachaId: text('gacha_id').notNull(),
    tierId: text('tier_id').notNull(),
    /** When the prize was won (the prize row's time), the feed's order. */
    wonAt: timestamp('won_at', { withTimezone: true }).notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('draw_wins_prize_idx').on(t.prizeId),
    index('draw_wins_won_idx').on(t.wonAt, t.id),
    index('draw_wins_gacha_idx').on(t.gachaId, t.wonAt, t.id),
    index('draw_wins_draw_idx').on(t.drawId),
  ],
);

// ── Beacon-settled draws (docs/decisions/081) ──────────────────────────────────────────────────
// A beacon pack's draw is accepted first (coins, slots, this receipt, in the draw's transaction) and settled
// later by the drand round its receipt names: the prizes are written then, once, by draw_settle_round.

/** A beacon draw's receipt: what the shop signs (oripa-receipt-v1) and where its settlement stands. */
export const drawReceipts = pgTable(
  'draw_receipts',
  {
    drawId: uuid('draw_id').primaryKey(),
    gachaId: text('gacha_id').notNull(),
    memberId: text('member_id').notNull(),
    /** The slots claimed, ascending (the receipt's `slots`). */
    slots: integer('slots').array().notNull(),
    /** The database's clock when the draw was accepted, after the pack's round lock (the receipt's `accepted`). */
    acceptedAt: timestamp('accepted_at', { withTimezone: true, precision: 3 }).notNull(),
    /** The drand round the receipt targets: the first whose close is after acceptedAt. */
    round: bigint('round', { mode: 'number' }).notNull(),
    /** The pack's latest head before acceptance ('' and 0 when there was none). */
    afterHead: text('after_head').notNull(),
    afterRound: bigint('after_round', { mode: 'number' }).notNull(),
    /** SHA-256 of the receipt's document, written when its round is closed (the chain reads it). */
    receiptHash: text('receipt_hash'),
    /** When the prizes were written (null: 抽選中). */
    settledAt: timestamp('settled_at', { withTimezone: true }),
    /** The member was told by mail that a late settlement has arrived. */
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
  },
  (t) => [
    index('draw_receipts_open_idx')
      .on(t.gachaId, t.round)
      .where(sql`${t.receiptHash} is null`),
    // A round's receipts (settlement, the phone's proof, the public draw log), settled or not.
    index('draw_receipts_round_idx').on(t.gachaId, t.round),
    index('draw_receipts_member_idx').on(t.memberId, t.acceptedAt),
  ],
);

/**
 * A closed round of a beacon pack: its head in the pack's chain (oripa-chain-v1), published before the round's
 * randomness exists, the round that settles it, and that round's verified beacon once settled. A row is
 * written once by the close and completed once by the settlement; (gacha, round) is unique, so a second
 * instance closing or settling the same round changes nothing.
 */
export const drawBeaconHeads = pgTable(
  'draw_beacon_heads',
  {
    gachaId: text('gacha_id').notNull(),
    round: bigint('round', { mode: 'number' }).notNull(),
    head: text('head').notNull(),
    prevHead: text('prev_head').notNull(),
    receipts: integer('receipts').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true, precision: 3 }).notNull(),
    /** The round whose randomness settles this head: `round`, or a later one when it was published late. */
    settleRound: bigint('settle_round', { mode: 'number' }).notNull(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    /** The settling round's beacon as verified (BLS signature and randomness, hex). */
    beaconSignature: text('beacon_signature'),
    beaconRandomness: text('beacon_randomness'),
  },
  (t) => [
    primaryKey({ columns: [t.gachaId, t.round] }),
    uniqueIndex('draw_beacon_heads_head_idx').on(t.head),
    index('draw_beacon_heads_unsettled_idx')
      .on(t.settleRound)
      .where(sql`${t.settledAt} is null`),
  ],
);
