// The database handle: node-postgres when DATABASE_URL is set, otherwise embedded PGlite; one per process.
import path from 'node:path';
import fs from 'node:fs';
import { projectRootOf } from './project-root';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql, type SQL } from 'drizzle-orm';
import * as schema from './schema';
import { applyModuleSql, type SqlConnection } from './module-sql';
import { migratePostgres } from './postgres-migration';
import { observePglite, observePool, type ConnectionUse, type DatabaseObserver } from './observe';

export type { ConnectionUse, DatabaseObserver } from './observe';
import { copyEmbeddedDatabase, type EmbeddedCopy } from './embedded-copy';

export type Schema = typeof schema;
/** The shape both engines share; module code is written against this and never against an engine. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

/**
 * The rows of a raw SQL query (a function call, a report): both engines answer `{ rows }`, and
 * this is the one place that says so.
 * @example const [row] = await queryRows<{ n: number }>(db, sql`select wallet_expire_due(now(), 500) as n`)
 */
export async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}

export { isDatabaseUnavailable } from './unavailable';

/**
 * A PostgreSQL text[] literal, every element quoted: one parameter however many values (an `in (…)` list
 * would take one parameter each, and PostgreSQL allows 65,535).
 * @example sql`… = any(${pgTextArray(ids)}::text[])`
 */
export const pgTextArray = (values: readonly string[]) =>
  `{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;

/** Each engine's Drizzle instance, seen as the shared shape (their query-result types differ only in name). */
const asDatabase = (db: object) => db as Database;

export interface DatabaseHandle {
  db: Database;
  engine: 'postgres' | 'pglite';
  /**
   * Applies the SQL migrations in db/migrations, then the modules' SQL (db/module-sql.ts); idempotent.
   * On PostgreSQL it runs on a connection of its own (as `migrationUrl` when given: the owner role), as
   * one transaction under a transaction-scoped advisory lock, so instances that start together take
   * turns, and it works through a transaction-pooling pgbouncer too (db/postgres-migration.ts).
   */
  migrate(): Promise<void>;
  /** Answers true when a trivial query succeeds. */
  ping(): Promise<boolean>;
  /**
   * LISTENs on a channel (PostgreSQL: a dedicated connection that reconnects, to `sessionUrl` when given;
   * PGlite: in process). Resolves to a function that stops listening.
   */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  /** How the connections are used now (the metrics read it at each scrape). */
  connections(): ConnectionUse;
  close(): Promise<void>;
  /**
   * The embedded database only: a consistent copy of its folder into a new folder under `into`, taken
   * while it stays open (db/embedded-copy.ts). PostgreSQL is copied by pgBackRest and pg_dump instead.
   */
  copyEmbedded?: (into: string) => Promise<EmbeddedCopy>;
}

const migrationsFolder = path.join(projectRootOf(import.meta.url), 'db', 'migrations');

/**
 * Opens the database. PGlite does not create its folder's parents, so DATA_DIR is created first.
 * @example const handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: '.data' })
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  /** PostgreSQL only: migrate as this URL's role (the owner), serve as databaseUrl's (docs/decisions/010). */
  migrationUrl?: string;
  /**
   * PostgreSQL only: LISTEN on this URL, whose connections keep their session (the primary itself, or a
   * session-mode pool), when `databaseUrl` goes through a transaction-mode pool: a LISTEN there is
   * registered on a server connection the pool hands to someone else, and no notification comes back
   * (docs/decisions/074). Unset: `databaseUrl`.
   */
  sessionUrl?: string;
  dataDir: string;
  poolSize?: number;
  /** Who watches the connections and statements (the server's metrics and traces); none by default. */
  observer?: DatabaseObserver;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const { Pool } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const pool = new Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle client that loses its connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    if (options.observer) observePool(pool, options.observer);
    const db = drizzle(pool, { schema });
    const listeners = new Set<() => Promise<void>>();
    return {
      db: asDatabase(db),
      engine: 'postgres',
      migrate: async () => {
        const { Client } = await import('pg');
        const client = new Client({ connectionString: options.migrationUrl ?? options.databaseUrl });
        await client.connect();
        try {
          await migratePostgres(client, migrationsFolder);
        } finally {
          await client.end();
        }
      },
      ping: () => ping(asDatabase(db)),
      listen: async (channel, onMessage) => {
        const stop = await listenOnPostgres(options.sessionUrl ?? options.databaseUrl!, channel, onMessage);
        listeners.add(stop);
        return async () => {
          listeners.delete(stop);
          await stop();
        };
      },
      connections: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max: pool.options.max ?? 10,
      }),
      close: async () => {
        await Promise.all([...listeners].map((stop) => stop()));
        await pool.end();
      },
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const folder = path.join(options.dataDir, 'pglite');
  fs.mkdirSync(folder, { recursive: true });
  const startParams = [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ['-c', setting])];
  // A new folder is created (initdb) in a child process: in this one it would leave a second
  // PGlite's WebAssembly memory and the initdb module behind, about 450 MB (docs/decisions/047).
  if (!fs.existsSync(path.join(folder, 'PG_VERSION'))) await createPgliteFolder(folder, startParams);
  const client = await PGlite.create(folder, { startParams });
  const connections = observePglite(client, options.observer ?? {});
  const db = drizzle(client, { schema });
  return {
    db: asDatabase(db),
    engine: 'pglite',
    // One connection in one process: no lock needed, and no separate roles (docs/decisions/010).
    migrate: async () => {
      await migrate(db, { migrationsFolder });
      await applyModuleSql({
        query: async (text, params) => (await client.query(text, params)).rows as never[],
        exec: async (text) => void (await client.exec(text)),
      } satisfies SqlConnection);
    },
    ping: () => ping(asDatabase(db)),
    listen: async (channel, onMessage) => {
      const unsubscribe = await client.listen(channel, onMessage);
      return async () => {
        if (!client.closed) await unsubscribe();
      };
    },
    connections,
    close: () => client.close(),
    copyEmbedded: (into) => copyEmbeddedDatabase(client, folder, into),
  };
}

/**
 * The embedded database's memory settings, on top of PGlite's own start parameters (docs/decisions/047).
 * PGlite's initdb writes PostgreSQL's defaults (shared_buffers 128MB, maintenance_work_mem 64MB), sized
 * for a server of its own; inside the shop's process shared_buffers is touched at start and stays
 * resident, and WebAssembly memory grows but never shrinks. A small shop's data fits in 16MB of
 * buffers, and the operating system's file cache holds the rest of the folder.
 */
export const PGLITE_SETTINGS = ['shared_buffers=16MB', 'maintenance_work_mem=16MB'] as const;

/** Runs PGlite's initdb for a new folder in a child process of its own, which exits (and frees its memory) when done. */
async function createPgliteFolder(folder: string, startParams: string[]): Promise<void> {
  const { execFile } = await import('node:child_process');
  const { createRequire } = await import('node:module');
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const code =
    `const { PGlite } = require(${JSON.stringify(pglite)});` +
    `PGlite.create(${JSON.stringify(folder)}, { startParams: ${JSON.stringify(startParams)} })` +
    `.then((pg) => pg.close()).then(() => process.exit(0), (error) => { console.error(error); process.exit(1); });`;
  await new Promise<void>((resolve, reject) => {
    execFile(process.execPath, ['-e', code], { maxBuffer: 16 * 2 ** 20 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`PGlite could not create ${folder}: ${stderr || error.message}`, { cause: error }));
      else resolve();
    });
  });
}

/** A LISTEN connection of its own that reconnects (with a pause) after it drops. */
async function listenOnPostgres(
  databaseUrl: string,
  channel: string,
  onMessage: (payload: string) => void,
): Promise<() => Promise<void>> {
  const { Client } = await import('pg');
  const quoted = `"${channel.replaceAll('"', '""')}"`;
  let stopped = false;
  let client: InstanceType<typeof Client> | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    if (stopped) return;
    const next = new Client({ connectionString: databaseUrl });
    next.on('notification', (message) => {
      if (message.channel === channel) onMessage(message.payload ?? '');
    });
    next.on('error', () => {
      next.end().catch(() => {});
      if (!stopped) retry = setTimeout(() => void connect().catch(() => {}), 1000);
    });
    try {
      await next.connect();
      await next.query(`listen ${quoted}`);
      client = next;
    } catch {
      next.end().catch(() => {});
      if (!stopped) retry = setTimeout(() => void connect().catch(() => {}), 1000);
    }
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}

async function ping(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
