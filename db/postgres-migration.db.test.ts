// PostgreSQL's migration as one transaction (decision 074): it records the migrations exactly as drizzle's
// own migrator does, so a database drizzle migrated goes on from where it is, and it leaves no lock behind
// its transaction; the LISTEN connections go to DATABASE_SESSION_URL's address when one is given.
// PostgreSQL only: PGlite keeps drizzle's migrator and listens in process.
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '#tests/database';
import { scaledTimeout } from '#tests/settings';
import { openDatabase, queryRows } from './client';
import { projectRootOf } from './project-root';
import { listModuleSqlFiles } from './module-sql';

const migrationsFolder = path.join(projectRootOf(import.meta.url), 'db', 'migrations');
const databases: TestDatabase[] = [];
let onPostgres = false;

beforeAll(async () => {
  const probe = await createTestDatabase('migration_probe');
  onPostgres = probe.engine === 'postgres';
  await probe.drop();
  if (!onPostgres)
    console.warn('[postgres-migration] skipped: these tests need PostgreSQL (PGlite keeps drizzle’s migrator)');
});
afterAll(async () => {
  for (const database of databases) await database.drop();
});

async function freshDatabase(label: string): Promise<string> {
  const database = await createTestDatabase(label);
  databases.push(database);
  return database.databaseUrl!;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const recordedMigrations = (url: string) =>
  withClient(
    url,
    async (client) =>
      (
        await client.query<{ hash: string; created_at: string }>(
          'select hash, created_at from drizzle.__drizzle_migrations order by created_at',
        )
      ).rows,
  );

describe('PostgreSQL migration in one transaction', () => {
  it('records the migrations as drizzle’s migrator does, and goes on from a database drizzle migrated', async (context) => {
    if (!onPostgres) return context.skip();
    const ours = await freshDatabase('migration_ours');
    const theirs = await freshDatabase('migration_drizzle');
    const handle = await openDatabase({ databaseUrl: ours, dataDir: '', poolSize: 1 });
    await handle.migrate().finally(() => handle.close());
    await withClient(theirs, (client) => migrate(drizzle(client), { migrationsFolder }));

    const expected = readMigrationFiles({ migrationsFolder }).map((m) => ({
      hash: m.hash,
      created_at: String(m.folderMillis),
    }));
    expect(await recordedMigrations(ours)).toEqual(expected);
    expect(await recordedMigrations(theirs)).toEqual(expected);

    // drizzle's database: nothing to migrate again, the modules' SQL applied, every invariant holds.
    const continued = await openDatabase({ databaseUrl: theirs, dataDir: '', poolSize: 1 });
    try {
      await continued.migrate();
      expect(await recordedMigrations(theirs)).toEqual(expected);
      const [files] = await queryRows<{ n: number }>(continued.db, sql`select count(*)::int as n from module_sql`);
      expect(files!.n).toBe(listModuleSqlFiles().length);
      const [check] = await queryRows<{ v: unknown[] }>(continued.db, sql`select shop_check_invariants() as v`);
      expect(check!.v).toEqual([]);
    } finally {
      await continued.close();
    }
  });

  it('leaves no advisory lock on its session once it has committed', async (context) => {
    if (!onPostgres) return context.skip();
    const url = await freshDatabase('migration_lock');
    // A transaction-mode pool hands the migration's server session to the next client without ending it.
    // Here one connection stands for that session: the migration runs on it, then (on the same session) we
    // look for an advisory lock still held, which a session-level lock would be, blocking every other start.
    await withClient(url, async (client) => {
      const { migratePostgres } = await import('./postgres-migration');
      await migratePostgres(client, migrationsFolder);
      const held = await client.query(
        "select objid from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()",
      );
      expect(held.rows).toEqual([]);
    });
  });

  it('listens on DATABASE_SESSION_URL’s address when it is given, and hears a notification sent through the pool', async (context) => {
    if (!onPostgres) return context.skip();
    const url = await freshDatabase('migration_listen');
    const sessionUrl = new URL(url);
    sessionUrl.searchParams.set('application_name', 'oripa-session-probe');
    const handle = await openDatabase({
      databaseUrl: url,
      sessionUrl: sessionUrl.toString(),
      dataDir: '',
      poolSize: 1,
    });
    try {
      const heard: string[] = [];
      const stop = await handle.listen('topology_probe', (payload) => heard.push(payload));
      const listeners = await queryRows<{ query: string }>(
        handle.db,
        sql`select query from pg_stat_activity where application_name = 'oripa-session-probe' and datname = current_database()`,
      );
      expect(listeners.map((row) => row.query)).toEqual(['listen "topology_probe"']);
      await handle.db.execute(sql`select pg_notify('topology_probe', 'drawn')`);
      const deadline = Date.now() + scaledTimeout(10_000);
      while (heard.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(heard).toEqual(['drawn']);
      await stop();
    } finally {
      await handle.close();
    }
  });
});
