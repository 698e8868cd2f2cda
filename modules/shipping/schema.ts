// The shipping module's tables: the members' address books (every address field sealed in one value),
// shipping requests, the prizes in each, and each request's timeline.
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * One address of a member's book (at most MAX_ADDRESSES_PER_MEMBER). No column holds an address
 * field: `sealed` is the whole address as JSON, AES-256-GCM under `key_id`, bound to the member and
 * the row id (docs/decisions/019). `key_id` repeats the key named in `sealed`, so a rotation finds
 * the rows still under an older key without opening them.
 */
export const memberAddresses = pgTable(
  'member_addresses',
  {
    id: uuid('id').primaryKey(),
    memberId: text('member_id').notNull(),
    sealed: text('sealed').notNull(),
    keyId: text('key_id').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('member_addresses_member_idx').on(t.memberId, t.createdAt),
    // One usual address per member at most.
    uniqueIndex('member_addresses_one_default_idx')
      .on(t.memberId)
      .where(sql`${t.isDefault}`),
    index('member_addresses_key_idx').on(t.keyId),
  ],
);

// ── Shipping requests ─────────────────────────────────────────────────────────────────────────

export const shippingStatuses = ['requested', 'preparing', 'shipped', 'delivered', 'returned', 'canceled'] as const;
export type ShippingStatus = (typeof shippingStatuses)[number];

/**
 * A member's request to ship prizes: the address as it was when asked (sealed for this request, see
 * addresses.ts), the fee paid, the promised date and each step's time. Its status moves only as
 * request-states.ts allows, under this row's lock.
 */
export const shippingRequests = pgTable(
  'shipping_requests',
  {
    id: uuid('id').primaryKey(),
    memberId: text('member_id').notNull(),
    /** The member's Idempotency-Key (the API's header, the confirmation page's hidden field). */
    idemKey: text('idem_key').notNull(),
    /** SHA-256 of the prizes and address asked for: the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    status: text('status', { enum: shippingStatuses }).notNull().default('requested'),
    /** The address, sealed for this request alone (AES-256-GCM, bound to the request id). */
    addressSealed: text('address_sealed').notNull(),
    /** The key that sealed it (a key rotation finds the requests still under an older key). */
    addressKeyId: text('address_key_id').notNull(),
    feeCoins: integer('fee_coins').notNull().default(0),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    /** 発送予定日 (a Japanese calendar date). */
    promisedDate: date('promised_date', { mode: 'string' }).notNull(),
    /** 24:00 JST of the promised date: not shipped by then, the member is compensated. */
    shipDeadline: timestamp('ship_deadline', { withTimezone: true }).notNull(),
    carrier: text('carrier'),
    trackingNumber: text('tracking_number'),
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    returnedAt: timestamp('returned_at', { withTimezone: true }),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    compensatedAt: timestamp('compensated_at', { withTimezone: true }),
    compensationCoins: integer('compensation_coins').notNull().default(0),
    /** The desk's note, never shown to the member. */
    internalNote: text('internal_note'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('shipping_requests_idem_idx').on(t.memberId, t.idemKey),
    index('shipping_requests_member_idx').on(t.memberId, t.requestedAt),
    // The desk's queue: open requests by their promise.
    index('shipping_requests_queue_idx').on(t.status, t.promisedDate),
    // The compensation job: requests that have not left (nor ended) and are not compensated, by deadline.
    index('shipping_requests_deadline_idx')
      .on(t.shipDeadline)
      .where(sql`${t.compensatedAt} is null and ${t.shippedAt} is null and ${t.canceledAt} is null`),
    check('shipping_requests_amounts', sql`${t.feeCoins} >= 0 and ${t.compensationCoins} >= 0`),
  ],
);

/**
 * The prizes of a request. A prize is in at most one live request: `released_at` is set when it leaves
 * the request (canceled back to the box, converted after a return), and the partial unique index
 * refuses a second live row for a prize whatever the code above it does.
 */
export const shippingRequestItems = pgTable(
  'shipping_request_items',
  {
    requestId: uuid('request_id')
      .notNull()
      .references(() => shippingRequests.id),
    prizeId: uuid('prize_id').notNull(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.requestId, t.prizeId] }),
    uniqueIndex('shipping_request_items_live_prize_idx')
      .on(t.prizeId)
      .where(sql`${t.releasedAt} is null`),
  ],
);

export const shippingEventKinds = [
  'requested',
  'preparing',
  'shipped',
  'delivered',
  'returned',
  'reshipping',
  'canceled',
  'converted',
  'compensated',
  'substituted',
  'item_compensated',
] as const;
export type ShippingEventKind = (typeof shippingEventKinds)[number];

export const shippingActors = ['member', 'staff', 'system'] as const;
export type ShippingActor = (typeof shippingActors)[number];

/** A request's timeline as the member sees it: each step, its time and a note for the member. */
export const shippingEvents = pgTable(
  'shipping_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => shippingRequests.id),
    kind: text('kind', { enum: shippingEventKinds }).notNull(),
    /** The request's status after the event. */
    status: text('status', { enum: shippingStatuses }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** Shown to the member (Japanese), e.g. the carrier and tracking number. */
    note: text('note'),
    /** Who moved it: the member, the shop's staff (who exactly is in the audit log) or a job. */
    actor: text('actor', { enum: shippingActors }).notNull(),
  },
  (t) => [index('shipping_events_request_idx').on(t.requestId, t.at)],
);

export const missingCardConditions = ['missing', 'damaged'] as const;
export type MissingCardCondition = (typeof missingCardConditions)[number];

/**
 * A prize of a request whose card the desk found missing or damaged, and what the shop did instead:
 * a substitute card of equal or higher value, or coins. One per prize and request (the unique index
 * refuses a second report of the same prize, also from a racing second click).
 */
export const shippingSubstitutions = pgTable(
  'shipping_substitutions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => shippingRequests.id),
    prizeId: uuid('prize_id').notNull(),
    condition: text('condition', { enum: missingCardConditions }).notNull(),
    /** The card that left stock (null: an untracked prize, from before stock existed). */
    originalStockCardId: uuid('original_stock_card_id'),
    /** The card sent instead, or null when the member was compensated in coins. */
    substituteStockCardId: uuid('substitute_stock_card_id'),
    compensationCoins: integer('compensation_coins').notNull().default(0),
    /** The staff member who reported it (null: the command line; the audit log names them either way). */
    operatorId: text('operator_id'),
    operatorLabel: text('operator_label').notNull(),
    noteForMember: text('note_for_member'),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('shipping_substitutions_prize_idx').on(t.requestId, t.prizeId),
    index('shipping_substitutions_prize_only_idx').on(t.prizeId),
    check('shipping_substitutions_coins', sql`${t.compensationCoins} >= 0`),
  ],
);
