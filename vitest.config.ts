// Vitest: unit tests beside the code; HTTP and browser tests against one built shop (tests/support).
import { defineConfig } from 'vitest/config';
import path from 'node:path';

const alias = { '~': path.resolve(import.meta.dirname, 'app') };

export default defineConfig({
  resolve: { alias },
  test: {
    // The JSON report lets CI print one plain 'N passed, N failed' line.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['app/**/*.test.{ts,tsx}', 'modules/**/*.test.ts', 'server/**/*.test.ts', 'db/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['tests/http/**/*.test.ts', 'e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-shop.ts'],
          // One shop, one browser at a time: the machine has two cores.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          // Two server instances of the build on one PostgreSQL database (tests/support/instances.ts):
          // one file at a time, after the parallel unit tests, beside nothing else.
          name: 'storm',
          include: ['tests/storm/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 240_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
