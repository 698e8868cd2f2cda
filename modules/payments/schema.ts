// The coin shop's tables: coin packs on sale, orders (one per checkout), the provider events that
// arrived by webhook (each stored once), members' age declarations, and the sandbox provider's
// own payments (the sandbox is a provider like the others, only hosted inside the shop).
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** A coin pack: what a member buys for a price in JPY. */
export const coinPacks = pgTable(
  'coin_packs',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    priceJpy: integer('price_jpy').notNull(),
    paidCoins: integer('paid_coins').notNull(),
    bonusCoins: integer('bonus_coins').notNull().default(0),
    firstPurchaseOnly: boolean('first_purchase_only').notNull().default(false),
    /** 人気, おすすめ… shown on the card. */
    badge: text('badge'),
    sortOrder: integer('sort_order').notNull().default(0),
    active: boolean('active').notNull().default(true),
    /** Optional sale window (docs/decisions/031): on sale while starts_at <= now < ends_at; null edges are open. */
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('coin_packs_amounts', sql`${t.priceJpy} > 0 and ${t.paidCoins} > 0 and ${t.bonusCoins} >= 0`),
    check('coin_packs_window', sql`${t.endsAt} is null or ${t.startsAt} is null or ${t.endsAt} > ${t.startsAt}`),
  ],
);

export const orderStatuses = [
  'pending',
  'paid',
  'failed',
  'canceled',
  'expired',
  'refunded',
  'charged_back',
  'review',
] as const;
export type OrderStatus = (typeof orderStatuses)[number];

/**
 * One checkout. Prices, coins and bonuses are copied from the pack and the member's rank when the
 * order is made, so what the confirmation screen showed is what is credited.
 */
export const paymentOrders = pgTable(
  'payment_orders',
  {
    id: uuid('id').primaryKey(),
    memberId: text('member_id').notNull(),
    coinPackId: text('coin_pack_id').notNull(),
    method: text('method').notNull(),
    /** web or app (the native app's web view). */
    channel: text('channel').notNull().default('web'),
    status: text('status', { enum: orderStatuses }).notNull().default('pending'),
    amountJpy: integer('amount_jpy').notNull(),
    paidCoins: integer('paid_coins').notNull(),
    bonusCoins: integer('bonus_coins').notNull(),
    rankBonusPercent: integer('rank_bonus_percent').notNull().default(0),
    rankBonusCoins: integer('rank_bonus_coins').notNull().default(0),
    firstPurchaseOnly: boolean('first_purchase_only').notNull().default(false),
    packName: text('pack_name').notNull(),
    providerRef: text('provider_ref'),
    /** The provider's hosted page for this order (a second press of the confirm button goes back to it). */
    checkoutUrl: text('checkout_url'),
    providerPaymentId: text('provider_payment_id'),
    failureReason: text('failure_reason'),
    /**
     * The draw the member was short of coins for (pack id and count), checked by the shop's pages
     * when the order was made and again when the return page offers 「続けて…を引く」. Kept on the
     * order so that it survives every provider's round trip, whatever return URL the provider allows.
     */
    drawGachaId: text('draw_gacha_id'),
    drawCount: integer('draw_count'),
    creditedAt: timestamp('credited_at', { withTimezone: true }),
    paidGrantId: bigint('paid_grant_id', { mode: 'number' }),
    bonusGrantId: bigint('bonus_grant_id', { mode: 'number' }),
    refundedJpy: integer('refunded_jpy').notNull().default(0),
    reversedPaid: integer('reversed_paid').notNull().default(0),
    reversedFree: integer('reversed_free').notNull().default(0),
    /** Coins of a refunded/charged-back order that were already spent and could not be taken back. */
    unrecoveredCoins: integer('unrecovered_coins').notNull().default(0),
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    /** Receipt number shown to the member (also on the provider's statement where supported). */
    receiptNo: text('receipt_no').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** A pending order holds its amount against the monthly cap until it expires. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('payment_orders_member_idx').on(t.memberId, t.createdAt),
    // The operators' order list: newest first, optionally of one status (the review queue).
    index('payment_orders_created_idx').on(t.createdAt),
    index('payment_orders_status_created_idx').on(t.status, t.createdAt),
    uniqueIndex('payment_orders_provider_ref_idx').on(t.method, t.providerRef),
    uniqueIndex('payment_orders_receipt_idx').on(t.receiptNo),
    index('payment_orders_pending_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'pending'`),
    index('payment_orders_credited_idx')
      .on(t.creditedAt)
      .where(sql`${t.creditedAt} is not null`),
    check(
      'payment_orders_amounts',
      sql`${t.amountJpy} > 0 and ${t.paidCoins} > 0 and ${t.bonusCoins} >= 0 and ${t.rankBonusCoins} >= 0`,
    ),
  ],
);

/** Each webhook delivery that passed verification, stored once per (provider, event id). */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    orderId: uuid('order_id'),
    providerRef: text('provider_ref'),
    hint: text('hint').notNull(),
    payload: jsonb('payload').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    outcome: text('outcome'),
    /** A worker processing the event holds it until then (the table is the queue). */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  (t) => [
    uniqueIndex('payment_events_unique_idx').on(t.provider, t.eventId),
    // An order's page lists its events.
    index('payment_events_order_idx').on(t.orderId),
    index('payment_events_unprocessed_idx')
      .on(t.receivedAt)
      .where(sql`${t.processedAt} is null`),
  ],
);

/** A member's age declaration (required before the first purchase; minors have a lower cap). */
export const purchaseProfiles = pgTable('purchase_profiles', {
  memberId: text('member_id').primaryKey(),
  declaredMinor: boolean('declared_minor').notNull(),
  declaredAt: timestamp('declared_at', { withTimezone: true }).notNull().defaultNow(),
  /**
   * False while the row exists only to carry an operator's hold on a member who has not answered yet
   * (decision 026): the member is still asked, and their answer is taken.
   */
  ageDeclared: boolean('age_declared').notNull().default(true),
  /** Set when a chargeback left coins unrecovered: purchases are refused until an operator clears it. */
  holdReason: text('hold_reason'),
  holdAt: timestamp('hold_at', { withTimezone: true }),
});

/** The sandbox provider's payments (development and tests; disabled on https origins by default). */
export const sandboxPayments = pgTable(
  'sandbox_payments',
  {
    id: text('id').primaryKey(),
    merchantReference: text('merchant_reference').notNull(),
    amountJpy: integer('amount_jpy').notNull(),
    description: text('description').notNull(),
    returnUrl: text('return_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    webhookUrl: text('webhook_url').notNull(),
    status: text('status').notNull().default('requires_action'),
    refundedJpy: integer('refunded_jpy').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sandbox_payments_reference_idx').on(t.merchantReference)],
);

// ── Rollups for the operators' dashboard (docs/decisions/028), kept by a job ──────────────────────

/** Orders credited per Japan-time day and payment method, in yen (gross: a later refund stays counted). */
export const salesDailyRollups = pgTable(
  'sales_daily_rollups',
  {
    day: date('day', { mode: 'string' }).notNull(),
    method: text('method').notNull(),
    orders: integer('orders').notNull(),
    amountJpy: bigint('amount_jpy', { mode: 'number' }).notNull(),
  },
  (t) => [uniqueIndex('sales_daily_rollups_pk').on(t.day, t.method)],
);

/** How far credited orders have been folded into sales_daily_rollups (one row, name 'sales'). */
export const salesRollupMarks = pgTable('sales_rollup_marks', {
  name: text('name').primaryKey(),
  foldedTo: timestamp('folded_to', { withTimezone: true }).notNull(),
});

/**
 * The 資金決済法 figure for the next base date as last computed by the job (unusedPaidBalanceReport over
 * the ledger is too slow for a page load with millions of entries): one row per base date, replaced.
 */
export const unusedPaidSnapshots = pgTable('unused_paid_snapshots', {
  baseDate: date('base_date', { mode: 'string' }).primaryKey(),
  unusedPaidCoins: bigint('unused_paid_coins', { mode: 'number' }).notNull(),
  membersWithBalance: integer('members_with_balance').notNull(),
  issuedInPeriod: bigint('issued_in_period', { mode: 'number' }).notNull(),
  computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
});
