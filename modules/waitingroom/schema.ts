// The waiting room's tables (decision 087): one row per pack that has had a queue (the order's draw and the
// admission counters), and one entry per member who joined it. The settings are the pack's (gacha's editor).
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const instant = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A pack's queue. Locked FOR UPDATE by the order's draw (after every join in flight, through the pack's join
 * lock) and by each admission, so the order is drawn exactly once, over exactly the members who joined before
 * it, and no slot is filled twice, on every instance.
 */
export const waitingRooms = pgTable('waiting_rooms', {
  gachaId: text('gacha_id').primaryKey(),
  /** When the random order was drawn (at or after the start); null before. */
  orderedAt: instant('ordered_at'),
  /** How many members the drawn order placed (places 1…orderedCount). */
  orderedCount: integer('ordered_count').notNull().default(0),
  /** The highest place given so far (later arrivals get theirs when admitted, after this). */
  lastPlace: integer('last_place').notNull().default(0),
  /** The highest place admitted so far: every place at or below it has had its window (or left). */
  admittedThrough: integer('admitted_through').notNull().default(0),
  /**
   * The highest arrival number in the queue's past: the drawn members' at the order, then each later arrival's
   * as it is admitted. A later arrival's count ahead is the numbers between (one subtraction, never a count).
   */
  arrivalsThrough: bigint('arrivals_through', { mode: 'number' }).notNull().default(0),
  createdAt: instant('created_at').notNull().defaultNow(),
});

/**
 * A member's place in a pack's queue: one per member and one per verified phone (its SHA-256, never the
 * number). `orderKey` is the random key the order's draw gave (the order is by it); a later arrival has none
 * and gets its `place` at admission, in arrival order. A window is open while `windowOpenedAt` is set,
 * `windowEndedAt` is null and `windowClosesAt` is in the future.
 */
export const waitingRoomEntries = pgTable(
  'waiting_room_entries',
  {
    gachaId: text('gacha_id').notNull(),
    memberId: text('member_id').notNull(),
    phoneKey: text('phone_key').notNull(),
    arrivedAt: instant('arrived_at').notNull(),
    /** The order of arrival, shop-wide (a sequence: no hot row); later arrivals are admitted by it. */
    arrivalNo: bigserial('arrival_no', { mode: 'number' }).notNull(),
    orderKey: uuid('order_key'),
    place: integer('place'),
    windowOpenedAt: instant('window_opened_at'),
    windowClosesAt: instant('window_closes_at'),
    /** Set when the window ended before its time: the member reached the cap or left. */
    windowEndedAt: instant('window_ended_at'),
    /** Lots drawn in the window (the draw's own count, gacha_member_draws, is the exact cap). */
    lotsDrawn: integer('lots_drawn').notNull().default(0),
    leftAt: instant('left_at'),
  },
  (t) => [
    primaryKey({ name: 'waiting_room_entries_pk', columns: [t.gachaId, t.memberId] }),
    uniqueIndex('waiting_room_entries_phone').on(t.gachaId, t.phoneKey),
    uniqueIndex('waiting_room_entries_place').on(t.gachaId, t.place),
    // The open windows (admission counts them) and the later arrivals in arrival order.
    index('waiting_room_entries_open')
      .on(t.gachaId, t.windowClosesAt)
      .where(sql`${t.windowOpenedAt} is not null and ${t.windowEndedAt} is null`),
    index('waiting_room_entries_late')
      .on(t.gachaId, t.arrivedAt, t.memberId)
      .where(sql`${t.place} is null`),
    index('waiting_room_entries_member').on(t.memberId),
  ],
);
