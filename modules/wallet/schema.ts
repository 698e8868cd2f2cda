// The wallet's tables: the append-only coin ledger (the truth), the grants coins are spent from
// (each with its own expiry), and a cached balance per member that must always equal the ledger.
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  bigint,
} from 'drizzle-orm/pg-core';

export const coinKinds = ['paid', 'free'] as const;
export type CoinKind = (typeof coinKinds)[number];

/** Cached balances; the ledger is the truth and the invariant check compares the two. */
export const wallets = pgTable(
  'wallets',
  {
    memberId: text('member_id').primaryKey(),
    paid: integer('paid').notNull().default(0),
    free: integer('free').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('wallets_nonnegative', sql`${t.paid} >= 0 and ${t.free} >= 0`)],
);

/** One credit of coins (a purchase, a bonus, a conversion…) with what is left of it and its expiry. */
export const coinGrants = pgTable(
  'coin_grants',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    memberId: text('member_id').notNull(),
    kind: text('kind', { enum: coinKinds }).notNull(),
    amount: integer('amount').notNull(),
    remaining: integer('remaining').notNull(),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    reason: text('reason').notNull(),
    /**
     * remaining > 0, kept by PostgreSQL. The partial indexes select on it rather than on `remaining`, so a
     * spend that leaves coins in the grant changes no indexed column and is a HOT update: no index entries,
     * where a predicate on `remaining` made every spend write three (docs/decisions/046). Queries that want
     * those indexes say `spendable` (and may still say remaining > 0).
     */
    spendable: boolean('spendable').generatedAlwaysAs(sql`remaining > 0`),
  },
  (t) => [
    index('coin_grants_spendable_idx')
      .on(t.memberId, t.kind, t.expiresAt)
      .where(sql`${t.spendable}`),
    index('coin_grants_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.spendable}`),
    check('coin_grants_amounts', sql`${t.amount} > 0 and ${t.remaining} >= 0 and ${t.remaining} <= ${t.amount}`),
  ],
);

/**
 * The ledger: every row is a transfer between a member's account (member:{id}:{kind}) and a shop
 * account (shop:{counterAccount}:{kind}), so each row is both sides of a double entry. `amount` is
 * signed from the member's side (+ credit, − debit). Rows are never updated or deleted (a trigger
 * refuses it); corrections are new rows. (idem_key, seq) is unique: one operation writes once.
 */
export const coinLedger = pgTable(
  'coin_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    memberId: text('member_id').notNull(),
    kind: text('kind', { enum: coinKinds }).notNull(),
    amount: integer('amount').notNull(),
    counterAccount: text('counter_account').notNull(),
    reason: text('reason').notNull(),
    idemKey: text('idem_key').notNull(),
    seq: integer('seq').notNull().default(0),
    grantId: bigint('grant_id', { mode: 'number' }),
    ref: text('ref'),
    memo: text('memo'),
    paidAfter: integer('paid_after').notNull(),
    freeAfter: integer('free_after').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('coin_ledger_idem_idx').on(t.idemKey, t.seq),
    index('coin_ledger_member_idx').on(t.memberId, t.id),
    check('coin_ledger_amount_nonzero', sql`${t.amount} <> 0`),
  ],
);
