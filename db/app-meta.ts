// The database's own tables: facts about the installation (demo data loaded) and the module SQL applied.
import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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
