// 特典コード: the codes operators hand out and each member's redemption (docs/decisions/032).
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const promoCodes = pgTable(
  'promo_codes',
  {
    id: serial('id').primaryKey(),
    /** Normalised (normalizePromoCode): NFKC, upper case, no spaces or hyphens. Unique. */
    code: text('code').notNull(),
    /** The batch a generated code belongs to (CSV export); null for a single code. */
    batchId: text('batch_id'),
    /** The operators' name for the campaign; shown to the member in the history. */
    label: text('label').notNull(),
    /** Free coins granted per redemption. */
    coins: integer('coins').notNull(),
    /** Valid from startsAt (inclusive) until endsAt (exclusive); operators enter them in JST. */
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    /** Total redemptions allowed, all members together; null: no cap. */
    maxRedemptions: integer('max_redemptions'),
    /** Redemptions so far: raised by a conditional update in the redemption's transaction. */
    redeemedCount: integer('redeemed_count').notNull().default(0),
    /** Only members registered within this many days may redeem; null: anyone. */
    newMemberDays: integer('new_member_days'),
    /** The lowest rank (progression's RANKS.rank) that may redeem; null: any rank. */
    minRank: integer('min_rank'),
    active: boolean('active').notNull().default(true),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('promo_codes_code_unique').on(t.code),
    index('promo_codes_batch_idx').on(t.batchId),
    check('promo_codes_coins_positive', sql`${t.coins} > 0`),
    check('promo_codes_window', sql`${t.endsAt} > ${t.startsAt}`),
    check(
      'promo_codes_count_within_cap',
      sql`${t.redeemedCount} >= 0 and (${t.maxRedemptions} is null or ${t.redeemedCount} <= ${t.maxRedemptions})`,
    ),
  ],
);

export const promoRedemptions = pgTable(
  'promo_redemptions',
  {
    id: serial('id').primaryKey(),
    codeId: integer('code_id')
      .notNull()
      .references(() => promoCodes.id),
    memberId: text('member_id').notNull(),
    coins: integer('coins').notNull(),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Once per member: the unique index is what makes a concurrent second redemption wait and then fail.
  (t) => [
    uniqueIndex('promo_redemptions_once_per_member').on(t.codeId, t.memberId),
    index('promo_redemptions_member_idx').on(t.memberId, t.redeemedAt),
  ],
);
