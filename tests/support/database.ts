// Test databases: a fresh PostgreSQL database when TEST_DATABASE_URL is set or 127.0.0.1:5432
// answers, otherwise a fresh PGlite folder. Each caller gets its own, dropped afterwards.
// Only the default address may fall back: a TEST_DATABASE_URL that does not answer is an error
// (CI sets it, and a run meant for PostgreSQL must not pass its races on PGlite; decision 004).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { scaledTimeout } from './settings';

export const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  /** postgres:// URL of the fresh database, or undefined for PGlite. */
  databaseUrl?: string;
  /** A fresh DATA_DIR (PGlite lives in it when there is no PostgreSQL). */
  dataDir: string;
  engine: 'postgres' | 'pglite';
  drop(): Promise<void>;
}

/** Undefined when PostgreSQL answers at adminUrl, else why it did not. */
async function postgresRefusal(adminUrl: string): Promise<string | undefined> {
  // Generous: on a busy machine a slow answer must not silently switch the tests to PGlite.
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: scaledTimeout(5_000) });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The URL without its password, for an error message. */
function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}

/** @example const testDb = await createTestDatabase('http'); ...; await testDb.drop() */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `oripa-${label}-`));
  const explicitUrl = process.env.TEST_DATABASE_URL || undefined;
  const adminUrl = explicitUrl ?? DEFAULT_ADMIN_URL;
  const pglite = {
    dataDir,
    engine: 'pglite' as const,
    drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
  if (process.env.TEST_DATABASE === 'pglite') return pglite;
  const refusal = await postgresRefusal(adminUrl);
  if (refusal !== undefined) {
    if (explicitUrl) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      throw new Error(
        `TEST_DATABASE_URL is set (${redacted(explicitUrl)}) but PostgreSQL does not answer there: ${refusal}. ` +
          'Start PostgreSQL, or unset TEST_DATABASE_URL to use 127.0.0.1:5432 or PGlite, or set TEST_DATABASE=pglite.',
      );
    }
    return pglite;
  }
  const name = `oripa_test_${label.replace(/\W/g, '_')}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    dataDir,
    engine: 'postgres',
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
