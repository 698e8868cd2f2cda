// Vitest global setup for the HTTP and browser tests: one built shop on a fresh database, on a free port.
import { freePort } from './ports';
import type { TestProject } from 'vitest/node';
import { createTestDatabase } from './database';
import { loadConfig } from '#server/config';
import { startShop } from '#server/main';

declare module 'vitest' {
  export interface ProvidedContext {
    shopUrl: string;
    shopEngine: string;
    shopDatabaseUrl: string;
    shopDataDir: string;
  }
}

export default async function setup(project: TestProject) {
  const database = await createTestDatabase('shop');
  const port = await freePort();
  const config = loadConfig({
    NODE_ENV: 'production',
    PORT: String(port),
    PUBLIC_ORIGIN: `http://localhost:${port}`,
    HOST: '127.0.0.1',
    DATA_DIR: database.dataDir,
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
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
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123456789',
  });
  const running = await startShop(config);
  project.provide('shopUrl', `http://localhost:${port}`);
  project.provide('shopEngine', database.engine);
  project.provide('shopDatabaseUrl', database.databaseUrl ?? '');
  project.provide('shopDataDir', database.dataDir);
  console.log(`[tests] shop at http://localhost:${port} on ${database.engine}`);
  return async () => {
    await running.stop();
    await database.drop();
  };
}
