// PostgreSQL's migration as one transaction: drizzle's SQL migrations, then the modules' SQL, under one
// transaction-scoped advisory lock. It holds nothing beyond its transaction, so it runs the same on a
// direct connection and through a transaction-pooling pgbouncer, and a failure keeps neither half
// (docs/decisions/074). PGlite keeps drizzle's own migrator (db/client.ts): one connection, no pooler.
import type pg from 'pg';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { applyModuleSqlInTransaction, MIGRATION_LOCK, type SqlConnection } from './module-sql';

/** drizzle's record of the migrations applied (its defaults: drizzle-kit and the PGlite path read the same table). */
const MIGRATIONS_SCHEMA = 'drizzle';
const MIGRATIONS_TABLE = '__drizzle_migrations';

/**
 * Applies the pending migrations of `migrationsFolder` and the modules' SQL on `client`, in one
 * transaction. The migrations are read and recorded as drizzle's migrator does (the same files, the same
 * table and rows: a database migrated before this change, or by drizzle, goes on from where it is): a
 * migration runs when it is newer than the newest one recorded. Only the lock is different: drizzle's
 * migrator reads the record outside its transaction, so concurrent starts needed a session-level lock.
 * @example await migratePostgres(client, path.join(root, 'db', 'migrations'))
 */
export async function migratePostgres(client: pg.Client, migrationsFolder: string): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder });
  const connection: SqlConnection = {
    query: async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[],
    exec: async (text) => void (await client.query(text)),
  };
  await client.query('begin');
  try {
    // Taken first: a start that waited here reads the record only after the one before it committed.
    await client.query('select pg_advisory_xact_lock($1, $2)', [...MIGRATION_LOCK]);
    await client.query(`create schema if not exists ${MIGRATIONS_SCHEMA}`);
    await client.query(
      `create table if not exists ${MIGRATIONS_SCHEMA}.${MIGRATIONS_TABLE} (id serial primary key, hash text not null, created_at bigint)`,
    );
    const [newest] = (
      await client.query<{ created_at: string }>(
        `select created_at from ${MIGRATIONS_SCHEMA}.${MIGRATIONS_TABLE} order by created_at desc limit 1`,
      )
    ).rows;
    for (const migration of migrations) {
      if (newest && Number(newest.created_at) >= migration.folderMillis) continue;
      for (const statement of migration.sql) await client.query(statement);
      await client.query(`insert into ${MIGRATIONS_SCHEMA}.${MIGRATIONS_TABLE} (hash, created_at) values ($1, $2)`, [
        migration.hash,
        migration.folderMillis,
      ]);
    }
    await applyModuleSqlInTransaction(connection);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  }
}
