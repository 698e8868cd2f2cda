// Which test shop a browser or HTTP test file talks to. The integration tier runs TEST_WORKERS files at once
// and starts one shop per worker (tests/support/global-shop.ts): each shop, with its own database, serves
// one file at a time, so no file ever shares a shop's state (rate limits, the farm clock, settings,
// lists it counts) with a file running beside it (decision 069).
import { inject } from 'vitest';

export interface TestShop {
  /** http://localhost:<port>, also the shop's PUBLIC_ORIGIN. */
  url: string;
  engine: 'postgres' | 'pglite';
  /** postgres:// URL of the shop's database, '' on PGlite. */
  databaseUrl: string;
  /** The shop's DATA_DIR (PGlite's folder when there is no PostgreSQL). */
  dataDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    testShops: TestShop[];
  }
}

/**
 * The shop of the worker running this file (VITEST_POOL_ID is 1…workers, never shared by two files at once).
 * @example const { url, databaseUrl, dataDir } = testShop();
 */
export function testShop(): TestShop {
  const shops = inject('testShops');
  if (!shops?.length)
    throw new Error('No test shop: run this file in the integration tier (vitest --project integration).');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  const shop = shops[worker - 1];
  // Two files on one shop would meet each other's state: a worker without a shop of its own stops the file.
  if (!shop)
    throw new Error(
      `Worker ${process.env.VITEST_POOL_ID} has no test shop (${shops.length} started): set TEST_WORKERS, not --maxWorkers.`,
    );
  return shop;
}
