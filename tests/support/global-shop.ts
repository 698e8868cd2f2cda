// Vitest global setup for the HTTP and browser tests: one built shop per integration worker, each a child
// process of the production build (as `npm start` runs it) on a fresh database and a free port. A file
// talks to its worker's shop (tests/support/test-shop.ts, decision 069).
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createTestDatabase, type TestDatabase } from './database';
import { startInstances, type ShopCluster } from './instances';
import { testSettings } from './settings';
import type { TestShop } from './test-shop';

/** What every test shop runs with, beyond the production defaults. */
const TEST_SHOP_SETTINGS: Record<string, string> = {
  // Every test signs up and in from 127.0.0.1 (the browser journeys too): roomier limits, which
  // tests/http/auth.test.ts checks from addresses of its own.
  SIGN_UP_ATTEMPTS_PER_MINUTE: '500',
  SIGN_IN_ATTEMPTS_PER_MINUTE: '30',
  // The contact form's posts from 127.0.0.1 (HTTP tests and journeys); tests/http/contact.test.ts
  // reaches the limit from an address of its own.
  CONTACT_POSTS_PER_ADDRESS_PER_HOUR: '60',
  // The image warm-up would take both cores for a minute while the tests run.
  IMAGE_WARM_UP: 'false',
  // The welcome mail carries a sign-up gift (tests/http/mailbox.test.ts, e2e/mailbox-journey.test.ts);
  // it is credited only when claimed, so other tests' balances stay as they were.
  SIGNUP_GIFT_COINS: '100',
  // The farm's clock moves forward on request (POST /dev/farm-clock): tests/http/farm.test.ts and the farm
  // journey grow crops without waiting. Farm tests compare with the farm's own "now", never the wall clock.
  FARM_CLOCK_ADJUSTABLE: 'true',
  // Tests change packs and content in the database and read the visitor's page at once: every page is
  // rendered. The visitors' cache has its own shop in tests/http/page-cache.test.ts.
  PAGE_CACHE_SECONDS: '0',
  // 元に戻す after a conversion (decision 057): a journey taps it on a loaded machine, so its window is
  // roomier than the shop's 10 s; the window's end is tested with a moving clock in the db tests.
  CONVERT_UNDO_SECONDS: '60',
  // Route rules of the shop's own (issue 29 item 15): tests/http/route-rules.test.ts and e2e/route-rules.test.ts.
  ROUTE_REDIRECTS: JSON.stringify({
    '/lp/outside': 'https://campaign.example.jp/oripa?from=stella',
    '/lp/inside': '/gacha/pokemon?tab=new',
    '/old-campaign': '/winter-campaign',
  }),
  // As a shop starts by default: demo data on the first start, the jobs running.
  DEMO_DATA: 'true',
  JOBS_ENABLED: 'true',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
};

const AUTH_SECRET = 'test-secret-test-secret-test-secret-0123456789';

interface RunningShop {
  shop: TestShop;
  database: TestDatabase;
  cluster: ShopCluster;
}

async function startTestShop(index: number): Promise<RunningShop> {
  const database = await createTestDatabase(`shop${index}`);
  try {
    const cluster = await startInstances({
      count: 1,
      databaseUrl: database.databaseUrl ?? '',
      dataDir: database.dataDir,
      authSecret: AUTH_SECRET,
      env: TEST_SHOP_SETTINGS,
      entry: 'runtime',
      // On PGlite the shop migrates its own folder at start (no second process may open it).
      migrate: database.engine === 'postgres',
    });
    const port = cluster.instances[0]!.port;
    const shop: TestShop = {
      url: `http://localhost:${port}`,
      engine: database.engine,
      databaseUrl: database.databaseUrl ?? '',
      dataDir: path.join(database.dataDir, 'instance-0'),
    };
    return { shop, database, cluster };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

export default async function setup(project: TestProject) {
  const running: RunningShop[] = [];
  try {
    // One after the other: two shops migrating and seeding at once would only take turns on two cores.
    for (let index = 0; index < testSettings.workers; index++) running.push(await startTestShop(index));
  } catch (error) {
    await Promise.all(running.map(async (entry) => (await entry.cluster.stop(), await entry.database.drop())));
    throw error;
  }
  project.provide(
    'testShops',
    running.map((entry) => entry.shop),
  );
  for (const { shop } of running) console.log(`[tests] shop at ${shop.url} on ${shop.engine}`);
  return async () => {
    const crashes = running.flatMap((entry) => entry.cluster.unexpectedExits());
    await Promise.all(running.map((entry) => entry.cluster.stop()));
    await Promise.all(running.map((entry) => entry.database.drop()));
    if (crashes.length) throw new Error(`a test shop exited while the tests ran: ${crashes.join('; ')}`);
  };
}
