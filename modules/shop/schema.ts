// The shop module's table: one row of shop-wide state (maintenance mode for now). Private to the module.
import { boolean, check, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
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
