// The modules' SQL (functions and triggers in modules/<name>/sql and db/sql), applied after the
// migrations as one repeatable step: a fixed order, one transaction under an advisory lock, and
// files whose checksum is unchanged are skipped (docs/decisions/010).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { projectRootOf } from './project-root';

/**
 * The order the modules' SQL is applied in: a module comes after the modules its SQL calls
 * (draw calls identity, gacha, progression, wallet, limits and waitingroom; waitingroom calls gacha; progression calls mailbox; payments calls wallet). The shop-wide
 * invariants (db/sql) come last. Files of one module go in name order.
 */
export const MODULE_SQL_ORDER = [
  'shop',
  'identity',
  'mailbox',
  'gacha',
  'progression',
  'wallet',
  'limits',
  'waitingroom',
  'draw',
  'payments',
  'admin',
] as const;

/**
 * One advisory lock for the whole migration (drizzle's migrations and this step): instances started together
 * take turns. Always transaction-scoped: a session lock taken through a transaction-pooling pgbouncer stays
 * with a pooled server connection after the client leaves, and the next start waits for it forever (074).
 */
export const MIGRATION_LOCK: readonly [number, number] = [20261123, 10];

const projectRoot = projectRootOf(import.meta.url);

export interface ModuleSqlFile {
  /** Path from the project root, e.g. modules/wallet/sql/spend.sql; the key in the module_sql table. */
  file: string;
  text: string;
  /** SHA-256 of the last migration's tag and the text: a new migration re-applies every file once. */
  checksum: string;
}

/** One connection (not a pool: the transaction must stay on it) of either engine. */
export interface SqlConnection {
  /** One statement, with parameters; answers its rows. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** A script of several statements, without parameters. */
  exec(text: string): Promise<void>;
}

/**
 * Every module SQL file in the order they are applied.
 * @example listModuleSqlFiles().map((f) => f.file) // ['modules/identity/sql/members.sql', …, 'db/sql/shop_check_invariants.sql']
 */
export function listModuleSqlFiles(root = projectRoot): ModuleSqlFile[] {
  const known = new Set<string>(MODULE_SQL_ORDER);
  // A module with a sql/ folder missing from the order would silently never be applied.
  for (const name of fs.readdirSync(path.join(root, 'modules'))) {
    if (!known.has(name) && fs.existsSync(path.join(root, 'modules', name, 'sql'))) {
      throw new Error(`modules/${name}/sql is not in MODULE_SQL_ORDER (db/module-sql.ts)`);
    }
  }
  const journal = JSON.parse(fs.readFileSync(path.join(root, 'db', 'migrations', 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const lastMigration = journal.entries.at(-1)?.tag ?? '';
  const folders = [...MODULE_SQL_ORDER.map((name) => `modules/${name}/sql`), 'db/sql'];
  return folders.flatMap((folder) => {
    const absolute = path.join(root, folder);
    if (!fs.existsSync(absolute)) return [];
    return fs
      .readdirSync(absolute)
      .filter((name) => name.endsWith('.sql'))
      .sort()
      .map((name) => {
        const text = fs.readFileSync(path.join(absolute, name), 'utf8');
        const checksum = crypto.createHash('sha256').update(`${lastMigration}\n${text}`).digest('hex');
        return { file: `${folder}/${name}`, text, checksum };
      });
  });
}

/**
 * Applies the module SQL files whose checksum differs from the one recorded, in one transaction
 * holding the migration's advisory lock (safe when instances migrate at the same moment; a
 * restart with nothing changed replaces nothing under a running peer). Answers the files applied.
 * Runs on the connection that ran the migrations (the owner role where roles are separated).
 * @example const applied = await applyModuleSql(connection)
 */
export async function applyModuleSql(connection: SqlConnection, files = listModuleSqlFiles()): Promise<string[]> {
  await connection.query('begin');
  try {
    const applied = await applyModuleSqlInTransaction(connection, files);
    await connection.query('commit');
    return applied;
  } catch (error) {
    // Nothing of this step is kept: the functions stay as the previous start left them.
    await connection.query('rollback').catch(() => undefined);
    throw error;
  }
}

/**
 * The same step inside a transaction the caller opened and ends: on PostgreSQL the migrations and this
 * step are one transaction under one transaction-scoped lock (db/postgres-migration.ts, decision 074).
 * @example await client.query('begin'); await applyModuleSqlInTransaction(connection); await client.query('commit')
 */
export async function applyModuleSqlInTransaction(
  connection: SqlConnection,
  files = listModuleSqlFiles(),
): Promise<string[]> {
  const applied: string[] = [];
  let current = '(before the first file)';
  try {
    await connection.query('select pg_advisory_xact_lock($1, $2)', [...MIGRATION_LOCK]);
    const recorded = new Map(
      (await connection.query<{ file: string; checksum: string }>('select file, checksum from module_sql')).map(
        (row) => [row.file, row.checksum],
      ),
    );
    for (const file of files) {
      if (recorded.get(file.file) === file.checksum) continue;
      current = file.file;
      await connection.exec(file.text);
      await connection.query(
        `insert into module_sql (file, checksum, applied_at) values ($1, $2, now())
         on conflict (file) do update set checksum = excluded.checksum, applied_at = excluded.applied_at`,
        [file.file, file.checksum],
      );
      applied.push(file.file);
    }
  } catch (error) {
    throw new Error(`The modules' SQL could not be applied, at ${current}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return applied;
}
