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

/**
 * The modules' SQL files (functions, triggers) applied after the migrations by db/module-sql.ts, each
 * with the SHA-256 of the text applied: an unchanged file is skipped (docs/decisions/010).
 */
export const moduleSql = pgTable('module_sql', {
  file: text('file').primaryKey(),
  checksum: text('checksum').notNull(),
  appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
});
