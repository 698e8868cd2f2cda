// Every table of the shop, gathered for Drizzle and drizzle-kit; each module owns its own file.
import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export * from '../modules/identity/schema';
export * from '../modules/gacha/schema';
export * from '../modules/content/schema';
export * from '../modules/wallet/schema';
export * from '../modules/draw/schema';
export * from '../modules/progression/schema';
export * from '../modules/idempotency/schema';
export * from '../modules/payments/schema';

/** Facts about the installation itself, such as whether demo data was loaded. */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
