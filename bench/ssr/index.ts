// bench/ssr: requests per second and latency of the home, genre and pack pages, beside the same
// server's JSON health route, on a fresh database with the demo data. Prints one JSON report.
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { createTestDatabase } from '#tests/database';
import { freePort } from '#tests/ports';
import { loadConfig } from '#server/config';
import { startShop } from '#server/main';
import { loadTestInWorker as loadTest } from '../load';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const paths = ['/api/health', '/', '/gacha/pokemon', '/gacha/pokemon/stellar-pokemon-001'];

const database = await createTestDatabase('bench_ssr');
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
  const report = {
    benchmark: 'ssr',
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model ?? 'unknown',
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
    },
    database: database.engine,
    concurrency,
    secondsPerPath: seconds,
    results: results.map((r) => ({ ...r, relativeToHealth: Math.round((r.requestsPerSecond / health) * 1000) / 1000 })),
    allOk: results.every((r) => r.errors === 0 && Object.keys(r.statuses).every((s) => s === '200')),
  };
  const out = JSON.stringify(report, null, 2);
  console.log(out);
  if (process.env.BENCH_SAVE !== '0') {
    fs.mkdirSync(path.join('bench', 'results'), { recursive: true });
    fs.writeFileSync(path.join('bench', 'results', 'ssr.json'), out + '\n');
  }
} finally {
  await shop.stop();
  await database.drop();
}
