// A shop of a test file's own, in the test's process (production build, its own fresh database), for
// settings the shared test shop does not have: a long page cache, no page cache, Prismic as the source…
// Jobs and the image warm-up are off, so nothing but the test's requests queries or encodes.
import { createTestDatabase, type TestDatabase } from './database';
import { freePort } from './ports';
import { loadConfig } from '#server/config';
import { startShop } from '#server/main';

/** The own shop's AUTH_SECRET, for sessions made in its database (createSessionMembers). */
export const OWN_SHOP_AUTH_SECRET = 'test-secret-test-secret-test-secret-0123456789';

export interface OwnShop {
  database: TestDatabase;
  shop: Awaited<ReturnType<typeof startShop>>;
  /** http://localhost:<port>, also the shop's PUBLIC_ORIGIN. */
  base: string;
  stop(): Promise<void>;
}

/**
 * @example
 * const own = await startOwnShop('page_cache', { PAGE_CACHE_SECONDS: '60' });
 * afterAll(() => own?.stop());
 */
export async function startOwnShop(name: string, settings: Record<string, string> = {}): Promise<OwnShop> {
  const database = await createTestDatabase(name);
  const port = await freePort();
  const base = `http://localhost:${port}`;
  let shop: OwnShop['shop'];
  try {
    shop = await startShop(
      loadConfig({
        NODE_ENV: 'production',
        PORT: String(port),
        PUBLIC_ORIGIN: base,
        HOST: '127.0.0.1',
        DATA_DIR: database.dataDir,
        ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
        LOG_LEVEL: 'error',
        IMAGE_WARM_UP: 'false',
        JOBS_ENABLED: 'false',
        AUTH_SECRET: OWN_SHOP_AUTH_SECRET,
        ...settings,
      }),
    );
  } catch (error) {
    await database.drop();
    throw error;
  }
  return {
    database,
    shop,
    base,
    async stop() {
      await shop.stop();
      await database.drop();
    },
  };
}
