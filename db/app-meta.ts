// The database's own table: facts about the installation itself (demo data loaded, applied SQL steps).
import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Facts about the installation itself, such as whether demo data was loaded. */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
