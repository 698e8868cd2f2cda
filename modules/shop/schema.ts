// The shop module's tables: one row of shop-wide state (maintenance mode), and the shop's closure (decision 085:
// the sales stop, the notices to members with a balance, and the 払戻し of unused paid coins). Private to the module.
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/**
 * The shop-wide switches, one row (id 1; written by upsert, so a shop migrated without the row is
 * simply open). Every instance reads it through a short cache; the draw and the checkout read it in
 * their own transaction (docs/decisions/025).
 */
export const shopState = pgTable(
  'shop_state',
  {
    id: smallint('id').primaryKey().default(1),
    maintenance: boolean('maintenance').notNull().default(false),
    /** What members are shown (the banner, the API's details); null: the default text. */
    maintenanceMessage: text('maintenance_message'),
    /** The planned end, shown in Japan time; null: not announced. Nothing switches off by itself. */
    maintenanceEndsAt: timestamp('maintenance_ends_at', { withTimezone: true }),
    /** Who switched it last: the staff member's email or `cli:<user>@<host>`. */
    changedBy: text('changed_by'),
    changedAt: timestamp('changed_at', { withTimezone: true }),
  },
  (t) => [check('shop_state_one_row', sql`${t.id} = 1`)],
);

/**
 * The shop's closure (decision 085, 資金決済法 第20条): announced (the public notice), sales stop at
 * `sales_stop_at`, unused paid coins are refunded on application until `refund_deadline` (at least 60 days
 * after the notice). At most one live closure (a partial unique index); a cancelled one stays, with who and when.
 */
export const shopClosures = pgTable(
  'shop_closures',
  {
    id: serial('id').primaryKey(),
    announcedAt: timestamp('announced_at', { withTimezone: true }).notNull(),
    salesStopAt: timestamp('sales_stop_at', { withTimezone: true }).notNull(),
    refundDeadline: timestamp('refund_deadline', { withTimezone: true }).notNull(),
    /** The public notice (公告) as members read it on /closure and in the mails. */
    notice: text('notice').notNull(),
    /** The staff member's email or `cli:<user>@<host>`. */
    announcedBy: text('announced_by').notNull(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: text('cancelled_by'),
  },
  (t) => [
    uniqueIndex('shop_closures_one_live_idx')
      .on(sql`(true)`)
      .where(sql`${t.cancelledAt} is null`),
    check('shop_closures_order', sql`${t.salesStopAt} >= ${t.announcedAt}`),
    check('shop_closures_refund_period', sql`${t.refundDeadline} >= ${t.announcedAt} + interval '60 days'`),
  ],
);

/**
 * Who was told of the closure (one row per member and closure, written in the same transaction as the mailbox
 * mail and the e-mail, so each member is told exactly once whatever retries or instances do), with the balances
 * the notice stated.
 */
export const shopClosureNotices = pgTable(
  'shop_closure_notices',
  {
    closureId: integer('closure_id')
      .notNull()
      .references(() => shopClosures.id),
    memberId: text('member_id').notNull(),
    paidCoins: integer('paid_coins').notNull(),
    freeCoins: integer('free_coins').notNull(),
    keptPrizes: integer('kept_prizes').notNull(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.closureId, t.memberId] })],
);

/**
 * A member's application for the 払戻し of their unused paid coins (one per member and closure): the bank
 * account sealed like an address (decision 019), and, once an operator recorded the transfer, the paid coins
 * debited (reason `closure_refund`), the yen sent and the transfer's reference.
 */
export const shopClosureRefunds = pgTable(
  'shop_closure_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    closureId: integer('closure_id')
      .notNull()
      .references(() => shopClosures.id),
    memberId: text('member_id').notNull(),
    /** The bank account as sealed JSON (`a1.<keyId>.…`, bound to `closure-refund:<member>:<id>`). */
    sealedAccount: text('sealed_account').notNull(),
    keyId: text('key_id').notNull(),
    appliedAt: timestamp('applied_at', { withTimezone: true }).notNull(),
    paidCoins: integer('paid_coins'),
    refundJpy: bigint('refund_jpy', { mode: 'number' }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    transferReference: text('transfer_reference'),
    paidBy: text('paid_by'),
  },
  (t) => [
    uniqueIndex('shop_closure_refunds_member_idx').on(t.closureId, t.memberId),
    index('shop_closure_refunds_applied_idx').on(t.closureId, t.appliedAt),
    check(
      'shop_closure_refunds_paid_whole',
      sql`(${t.paidAt} is null and ${t.paidCoins} is null and ${t.refundJpy} is null and ${t.transferReference} is null)
        or (${t.paidAt} is not null and ${t.paidCoins} > 0 and ${t.refundJpy} = ${t.paidCoins} and ${t.transferReference} is not null)`,
    ),
  ],
);
