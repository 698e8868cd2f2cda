// A shop in the benchmark's own process, as `npm start` runs it: the caller registers React Router's
// production build first (`await import('#server/production')`), so the shop's modules load here, late.
// Jobs and the image warm-up are off: they would compete with what is measured for the two cores.
import type { TestDatabase } from '#tests/database';

export const BENCH_AUTH_SECRET = 'bench-secret-bench-secret-bench-secret-0000';

/** @example const shop = await startBenchShop(database, { PAGE_CACHE_SECONDS: '0' }) */
export async function startBenchShop(database: TestDatabase, settings: Record<string, string> = {}) {
  const { freePort } = await import('#tests/ports');
  const { loadConfig } = await import('#server/config');
  const { startShop } = await import('#server/main');
  const port = await freePort();
  return startShop(
    loadConfig({
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_ORIGIN: `http://localhost:${port}`,
      DATA_DIR: database.dataDir,
      LOG_LEVEL: 'silent',
      JOBS_ENABLED: 'false',
      IMAGE_WARM_UP: 'false',
      AUTH_SECRET: BENCH_AUTH_SECRET,
      ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
      ...settings,
    }),
  );
}
