// bench/ssr: requests per second and latency of the home, genre and pack pages, beside the same
// server's JSON health route, on a fresh database with the demo data. Two phases, each on its own shop:
// `rendered` (PAGE_CACHE_SECONDS=0: every page rendered, as for a member) and `cached` (the default:
// visitors' pages from the page cache, decision 048). Prints one JSON report.
import fs from 'node:fs';
import path from 'node:path';
import { describeMachine } from '../machine';

process.env.NODE_ENV = 'production';
// React Router's production build, as `npm start` runs it (server/production-modules.mjs): registered
// before anything imports React Router, so the shop's modules are imported below, dynamically.
await import('#server/production');
const { createTestDatabase } = await import('#tests/database');
const { freePort } = await import('#tests/ports');
const { loadConfig } = await import('#server/config');
const { startShop } = await import('#server/main');
const { loadTestInWorker: loadTest } = await import('../load');

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const paths = ['/api/health', '/', '/gacha/pokemon', '/gacha/pokemon/stellar-pokemon-001'];

async function phase(name: 'rendered' | 'cached', pageCacheSeconds: string) {
  const database = await createTestDatabase(`bench_ssr_${name}`);
  const port = await freePort();
  const shop = await startShop(
    loadConfig({
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_ORIGIN: `http://localhost:${port}`,
      DATA_DIR: database.dataDir,
      LOG_LEVEL: 'silent',
      // Jobs would compete with the measured pages for the two cores.
      JOBS_ENABLED: 'false',
      IMAGE_WARM_UP: 'false',
      PAGE_CACHE_SECONDS: pageCacheSeconds,
      AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-0000',
      ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    }),
  );
  try {
    // warm up: JIT, image-free page renders, connection pool
    for (const p of paths) await loadTest({ origin: shop.url, path: p, concurrency: 4, seconds: 1 });
    const results = [];
    for (const p of paths) results.push(await loadTest({ origin: shop.url, path: p, concurrency, seconds }));
    const health = results[0]!.requestsPerSecond;
    return {
      pageCacheSeconds: Number(pageCacheSeconds),
      results: results.map((r) => ({
        ...r,
        relativeToHealth: Math.round((r.requestsPerSecond / health) * 1000) / 1000,
      })),
      database: database.engine,
    };
  } finally {
    await shop.stop();
    await database.drop();
  }
}

const rendered = await phase('rendered', '0');
const cached = await phase('cached', '5');
const all = [...rendered.results, ...cached.results];
const report = {
  benchmark: 'ssr',
  date: new Date().toISOString(),
  machine: describeMachine(),
  database: rendered.database,
  concurrency,
  secondsPerPath: seconds,
  acceptEncoding: 'br, gzip',
  phases: { rendered, cached },
  allOk: all.every((r) => r.errors === 0 && Object.keys(r.statuses).every((s) => s === '200')),
};
const out = JSON.stringify(report, null, 2);
console.log(out);
if (process.env.BENCH_SAVE !== '0') {
  fs.mkdirSync(path.join('bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join('bench', 'results', 'ssr.json'), out + '\n');
}
process.exit(0);
