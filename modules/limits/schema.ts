// The self-limits' tables (docs/decisions/035): one row per member who set a limit or an exclusion, and
// the append-only record of every change a member made.
import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const instant = (name: string) => timestamp(name, { withTimezone: true });

/**
 * The member's own limits. A limit is NULL when none is set. A raise (or a removal) waits: `*_pending_at` is
 * when it takes effect and `*_pending_*` the value it brings (NULL there = no limit). Readers fold a due
 * pending change in (limitsInForce, limits_draw_terms), so no job has to apply it on time.
 */
export const memberLimits = pgTable('member_limits', {
  memberId: text('member_id').primaryKey(),
  /** JPY of coin purchases per calendar month (Japan time). */
  purchaseLimitJpy: integer('purchase_limit_jpy'),
  purchasePendingJpy: integer('purchase_pending_jpy'),
  purchasePendingAt: instant('purchase_pending_at'),
  /** Coins spent on draws per calendar month (Japan time). */
  drawLimitCoins: integer('draw_limit_coins'),
  drawPendingCoins: integer('draw_pending_coins'),
  drawPendingAt: instant('draw_pending_at'),
  /** Self-exclusion: no purchase and no draw before this instant (00:00 JST of the day after the last day). */
  excludedUntil: instant('excluded_until'),
  excludedAt: instant('excluded_at'),
  updatedAt: instant('updated_at').notNull().defaultNow(),
});

/** Every change the member asked for, as it was decided (a record for support; never updated). */
export const memberLimitChanges = pgTable(
  'member_limit_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    memberId: text('member_id').notNull(),
    /** purchase | draw | exclusion */
    kind: text('kind').notNull(),
    /** lowered (at once) | raise_requested (after the wait) | raise_canceled | excluded */
    action: text('action').notNull(),
    /** The new limit (NULL: no limit) or, for an exclusion, its months. */
    value: integer('value'),
    effectiveAt: instant('effective_at').notNull(),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [index('member_limit_changes_member_idx').on(t.memberId, t.createdAt)],
);
