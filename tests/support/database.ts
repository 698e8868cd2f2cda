// Test databases: a fresh PostgreSQL database when TEST_DATABASE_URL is set or 127.0.0.1:5432
// answers, otherwise a fresh PGlite folder. Each caller gets its own, dropped afterwards.
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

async function postgresAnswers(adminUrl: string): Promise<boolean> {
  // Generous: on a busy machine a slow answer must not silently switch the tests to PGlite.
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: scaledTimeout(5_000) });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** @example const testDb = await createTestDatabase('http'); ...; await testDb.drop() */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `oripa-${label}-`));
  const adminUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_ADMIN_URL;
  const usePostgres = process.env.TEST_DATABASE !== 'pglite' && (await postgresAnswers(adminUrl));
  if (!usePostgres) {
    return { dataDir, engine: 'pglite', drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
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
