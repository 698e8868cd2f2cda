// useTestDatabase(): a fresh migrated database for one *.db.test.ts file, opened before its tests and
// checked (every money and lot invariant), closed and dropped after them.
import { afterAll, afterEach, beforeAll, expect, type TestContext } from 'vitest';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { checkInvariants } from '#modules/wallet';
import { createTestDatabase, type TestDatabase } from './database';

export interface UseTestDatabaseOptions {
  /** Connections in the pool on PostgreSQL (default 2; PGlite has one). */
  poolSize?: number;
  /**
   * When shop_check_invariants() must answer no violation: after all the file's tests (default),
   * after each test, or never (only for a file that breaks them on purpose).
   */
  invariants?: 'afterAll' | 'afterEach' | 'never';
}

/** The opened database, usable from the file's own beforeAll on (the hooks run in the order declared). */
export interface TestDatabaseHandle extends DatabaseHandle {
  /**
   * The engine actually opened: 'pglite' when TEST_DATABASE=pglite, and also when TEST_DATABASE_URL is unset
   * and 127.0.0.1:5432 does not answer (tests/support/database.ts). Decide PostgreSQL-only tests on this,
   * never on the environment (skipUnlessPostgres).
   */
  readonly engine: 'postgres' | 'pglite';
  /** postgres:// URL of the fresh database, or undefined on PGlite. */
  readonly databaseUrl: string | undefined;
  /** A fresh DATA_DIR (PGlite lives in it when there is no PostgreSQL). */
  readonly dataDir: string;
}

/**
 * Declares the hooks and answers a handle that is usable once the file's hooks run.
 * Call it at the top of the file, before the file's own beforeAll, so that the database exists there
 * and outlives the file's afterAll (vitest runs after-hooks in reverse order).
 * @example const handle = useTestDatabase('draw', { poolSize: 4 }); it('…', async () => { await drawLots(handle.db, …) })
 */
export function useTestDatabase(label: string, options: UseTestDatabaseOptions = {}): TestDatabaseHandle {
  let testDb: TestDatabase | undefined;
  let opened: DatabaseHandle | undefined;
  const current = (): DatabaseHandle => {
    if (!opened)
      throw new Error(`useTestDatabase('${label}'): the database opens in beforeAll; use it inside hooks and tests`);
    return opened;
  };

  beforeAll(async () => {
    testDb = await createTestDatabase(label);
    opened = await openDatabase({
      databaseUrl: testDb.databaseUrl,
      dataDir: testDb.dataDir,
      poolSize: options.poolSize ?? 2,
    });
    await opened.migrate();
  });

  const invariants = options.invariants ?? 'afterAll';
  if (invariants === 'afterEach') {
    afterEach(async () => {
      if (opened) expect(await checkInvariants(opened.db)).toEqual([]);
    });
  }

  afterAll(async () => {
    try {
      if (opened && invariants === 'afterAll') expect(await checkInvariants(opened.db)).toEqual([]);
    } finally {
      await opened?.close();
      await testDb?.drop();
    }
  });

  return {
    get db() {
      return current().db;
    },
    get engine() {
      return current().engine;
    },
    get databaseUrl() {
      if (!testDb) current();
      return testDb!.databaseUrl;
    },
    get dataDir() {
      if (!testDb) current();
      return testDb!.dataDir;
    },
    migrate: () => current().migrate(),
    ping: () => current().ping(),
    listen: (channel, onMessage) => current().listen(channel, onMessage),
    connections: () => current().connections(),
    close: () => current().close(),
    get copyEmbedded() {
      return current().copyEmbedded;
    },
  };
}

/**
 * Skips the running test, saying why, unless the file's database is really PostgreSQL: a race needs
 * several connections, and on PGlite's one it would pass without racing. Decided on the engine opened,
 * so a run that fell back to PGlite reports the race as skipped instead of passed.
 * @example it('two at once', async (ctx) => { skipUnlessPostgres(ctx, handle, 'two connections'); … })
 */
export function skipUnlessPostgres(context: Pick<TestContext, 'skip'>, handle: TestDatabaseHandle, why: string): void {
  if (handle.engine !== 'postgres')
    context.skip(`needs PostgreSQL (${why}); this run opened PGlite, which has one connection`);
}
