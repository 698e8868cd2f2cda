// The admin area's CSV export in constant memory (issue 13): a coin ledger of BENCH_ROWS entries
// (1,000,000 by default) is seeded in one statement, then exported through the same stream the
// /admin/exports/ledger.csv route answers with (app/controllers/admin-exports.server.ts), read as a client
// would. It runs with V8's heap capped at 80 MB (package.json), less than the 86 MB of CSV it writes,
// and exports a tenth of the ledger, then all of it: constant memory means the same heap growth for
// both (heapGrowthRatio about 1), never the whole list in memory.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDatabase } from '#db/client';
import { createTestDatabase } from '#tests/database';
import { EXPORT_BATCH_ROWS, EXPORT_KINDS, exportStream } from '~/controllers/admin-exports.server';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

const database = await createTestDatabase('bench_csv_export');
const handle = await openDatabase({
  databaseUrl: database.databaseUrl,
  dataDir: database.dataDir,
  poolSize: 2,
});
try {
  await handle.migrate();
  /** Seeds ledger entries numbered from..to (a thousand members, their entries spread over time). */
  const seed = (from: number, to: number) =>
    handle.db.execute(sql`
      insert into coin_ledger (member_id, kind, amount, counter_account, reason, idem_key, seq, paid_after, free_after, created_at)
      select 'bench-member-' || (n % 1000), case when n % 3 = 0 then 'free' else 'paid' end,
             case when n % 2 = 0 then 500 else -100 end, 'bench', 'operator_grant', 'bench:' || n, 0,
             (n % 10000), (n % 500), now() - make_interval(secs => ${ROWS} - n)
      from generate_series(${from}::int, ${to}::int) as n`);

  /** Exports the whole ledger as a client reads it; the time, the size and the memory it took. */
  async function measure() {
    globalThis.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    }, 20);
    const start = performance.now();
    const reader = exportStream(handle.db, EXPORT_KINDS.ledger).getReader();
    let bytes = 0;
    let lines = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      for (const byte of value) if (byte === 0x0a) lines++;
    }
    const ms = performance.now() - start;
    clearInterval(sampler);
    return {
      rows: lines - 1,
      megabytes: mb(bytes),
      seconds: Math.round(ms / 100) / 10,
      rowsPerSecond: Math.round(((lines - 1) / ms) * 1000),
      rssPeakMb: mb(peakRss),
      heapBeforeMb: mb(before.heapUsed),
      heapPeakMb: mb(peakHeap),
      heapGrowthMb: mb(peakHeap - before.heapUsed),
    };
  }

  // A tenth of the ledger first, then all of it: constant memory means the same peak for both.
  const tenth = Math.floor(ROWS / 10);
  const seedStart = performance.now();
  await seed(1, tenth);
  const small = await measure();
  await seed(tenth + 1, ROWS);
  const seedMs = performance.now() - seedStart;
  const full = await measure();
  const report = {
    benchmark: 'csv-export',
    engine: database.engine,
    when: new Date().toISOString(),
    cores: (await import('node:os')).cpus().length,
    node: process.version,
    list: 'ledger',
    batchRows: EXPORT_BATCH_ROWS,
    /** V8's whole heap limit for the run (npm run bench:csv-export caps old space at 80 MB: less than the CSV itself). */
    heapLimitMb: mb((await import('node:v8')).getHeapStatistics().heap_size_limit),
    seedSeconds: Math.round(seedMs / 100) / 10,
    small,
    full,
    /** The full export's heap growth over the tenth's: about 1 when memory does not grow with the list. */
    heapGrowthRatio: Math.round((full.heapGrowthMb / Math.max(small.heapGrowthMb, 1)) * 100) / 100,
  };
  console.log(JSON.stringify(report, null, 2));
  if (small.rows !== tenth || full.rows !== ROWS) throw new Error(`exported ${small.rows}/${full.rows} rows`);
  if (process.env.BENCH_SAVE !== '0') {
    const file = path.join(import.meta.dirname, '..', 'results', 'csv-export.json');
    fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  }
} finally {
  await handle.close();
  await database.drop();
}
