// Vitest in tiers: `unit` (pure, beside the code), `db` (*.db.test.ts against PostgreSQL or PGlite),
// `integration` (HTTP and browser tests against a built shop per worker), `storm` (two instances of the
// build) and `topology` (the deployment of docs/deploy.md on loopback ports).
import { defineConfig } from 'vitest/config';
import path from 'node:path';
import { scaledTimeout, testSettings } from '#tests/settings';

const alias = { '~': path.resolve(import.meta.dirname, 'app') };

/** Where tests sit beside the code; a file that needs a database is named *.db.test.ts (docs/testing.md). */
const besideTheCode = ['app', 'modules', 'server', 'db', 'scripts', 'tests/support'];
const DB_TESTS = besideTheCode.map((dir) => `${dir}/**/*.db.test.ts`);
/** Tests that run a Node process of their own (a script, a server in another time zone): not pure, not quick. */
const PROCESS_TESTS = besideTheCode.map((dir) => `${dir}/**/*.process.test.ts`);
const UNIT_TESTS = besideTheCode.map((dir) => `${dir}/**/*.test.{ts,tsx}`);

export default defineConfig({
  resolve: { alias },
  test: {
    // The JSON report keeps every result; the tiers reporter records each tier's files, tests and span
    // (test-results/tiers.json), which CI prints (.ci/report.mjs).
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }], './tests/support/tiers-reporter.ts'],
    projects: [
      {
        resolve: { alias },
        test: {
          // Pure functions, components rendered to strings, in-process stand-ins: no database, no build.
          name: 'unit',
          maxWorkers: testSettings.workers,
          sequence: { groupOrder: 0 },
          include: UNIT_TESTS,
          exclude: [...DB_TESTS, ...PROCESS_TESTS],
          environment: 'node',
          // One module graph per worker instead of one per file: it halves the tier's time. So a unit test
          // leaves nothing behind (globals it sets are removed in afterAll, servers it starts are closed).
          isolate: false,
          setupFiles: ['tests/support/property-seed.ts'],
          testTimeout: scaledTimeout(30_000),
          hookTimeout: scaledTimeout(60_000),
        },
      },
      {
        resolve: { alias },
        test: {
          // Child processes (scripts run as an operator runs them, the shop's date rules under another TZ).
          name: 'process',
          maxWorkers: testSettings.workers,
          sequence: { groupOrder: 0 },
          include: PROCESS_TESTS,
          environment: 'node',
          testTimeout: scaledTimeout(120_000),
          hookTimeout: scaledTimeout(60_000),
        },
      },
      {
        resolve: { alias },
        test: {
          // Module tests, each file on its own fresh database (tests/support/use-test-database.ts).
          name: 'db',
          maxWorkers: testSettings.workers,
          sequence: { groupOrder: 0 },
          include: DB_TESTS,
          // One module graph per worker, as in the unit tier: the database client, the schema and the
          // modules are imported once per worker instead of once for each of a hundred files. A db test
          // leaves nothing behind (its database is its own; useTestDatabase closes it).
          isolate: false,
          setupFiles: ['tests/support/property-seed.ts'],
          environment: 'node',
          // Migrating a fresh database and the jobs' pg-boss take a while on a busy 2-core machine.
          testTimeout: scaledTimeout(120_000),
          hookTimeout: scaledTimeout(180_000),
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          // After the unit, process and db tiers, TEST_WORKERS files at once, each on its worker's own shop
          // (tests/support/global-shop.ts, decision 069): files running side by side share no shop state.
          sequence: { groupOrder: 1 },
          maxWorkers: testSettings.workers,
          include: ['tests/http/**/*.test.ts', 'e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-shop.ts'],
          // Each file in a fresh worker (isolate, Vitest's default): a worker's pool id is then held by one
          // file at a time, which is what picks the file's shop, and nothing a file left running (a
          // connection, a timer) reaches the next file. Tried without: two journeys met on one shop.
          // A journey is many steps in one test: on a busy 2-core machine beside another file (or another
          // run) it takes several times its idle 10–30 s. The limit catches a hang, not slowness.
          testTimeout: scaledTimeout(120_000),
          hookTimeout: scaledTimeout(120_000),
          // expect.poll waits for a page or the server to catch up: Vitest's 1 s was shorter than one
          // answer of a loaded shop (the farm journey's wallet after a harvest, beside another run).
          expect: { poll: { timeout: scaledTimeout(15_000), interval: 100 } },
        },
      },
      {
        resolve: { alias },
        test: {
          // Two server instances of the build on one PostgreSQL database (tests/support/instances.ts):
          // one file at a time, beside nothing else: group 2 starts only once every other tier (groups 0
          // and 1) has finished, so the storm never shares the two cores or the database with a browser test.
          name: 'storm',
          sequence: { groupOrder: 2 },
          include: ['tests/storm/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: scaledTimeout(240_000),
          hookTimeout: scaledTimeout(180_000),
        },
      },
      {
        resolve: { alias },
        test: {
          // The topology (scripts/topology, docs/deploy.md): haproxy, three instances of the build, pgbouncer,
          // a pg_auto_failover primary and standby, Redis, on loopback ports. After the storm (group 3), alone:
          // it starts eleven processes of its own.
          name: 'topology',
          sequence: { groupOrder: 3 },
          include: ['tests/topology/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: scaledTimeout(180_000),
          // Bringing it up is the hook: about two minutes on a busy 2-core machine (docs/deploy.md).
          hookTimeout: scaledTimeout(600_000),
        },
      },
    ],
  },
});
