// The operators' dashboard with a million draws (issue 13, decision 028): BENCH_DRAWS draws (1,000,000
// by default) over 60 Japan-time days, with members, packs and credited orders, are seeded in bulk
// SQL into a fresh database; the rollup job's folds run once over all of it (the first fold after a
// deploy), then over a minute's worth of new draws (the job's steady state); then the dashboard's
// loader (app/controllers/admin-dashboard.server.ts, every section, as an admin sees it) is timed. For
// comparison, the same draw figures are taken once by scanning `draws` (what the rollups avoid).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { percentile, timed } from '../timing';
import { openDatabase } from '#db/client';
import { createTestDatabase } from '#tests/database';
import { commandLineOperator } from '#modules/admin';
import { foldDrawRollups } from '#modules/draw';
import { ROLLUP_BATCH_ROWS } from '#server/jobs/dashboard';
import { foldMemberRollups } from '#modules/identity';
import { foldSalesRollups, refreshUnusedPaidSnapshot } from '#modules/payments';
import { loadDashboard } from '~/controllers/admin-dashboard.server';

const DRAWS = Number(process.env.BENCH_DRAWS ?? 1_000_000);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 50_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const PACKS = 200;
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const DAYS = 60;
const TARGET_MS = 300;

const database = await createTestDatabase('bench_dashboard');
const handle = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, poolSize: 2 });
try {
  await handle.migrate();
  const db = handle.db;
  // Rows older than this are settled (the job's lag); the seed spreads everything over the 60 days before it.
  const spread = sql`now() - interval '5 minutes' - make_interval(secs => (random() * ${DAYS} * 86400)::int)`;
  const seed = await timed(async () => {
    await db.execute(sql`insert into genres (id, name) values ('bench', 'ベンチ') on conflict do nothing`);
    await db.execute(sql`
      insert into gachas (id, genre_id, title, image_path, price_per_draw, total_lots, remaining_lots, status)
      select 'bench-pack-' || n, 'bench', 'ベンチパック ' || n, '/bench.png', 100, 10000, 10000, 'on_sale'
        from generate_series(1, ${PACKS}) as n`);
    await db.execute(sql`
      insert into users (id, name, email, created_at, updated_at)
      select 'bench-member-' || n, '会員' || n, 'bench-' || n || '@example.test', ${spread}, now()
        from generate_series(1, ${MEMBERS}) as n`);
    // Draws in batches of 250,000 (one statement each), 1 or 10 lots, 3 % refused.
    for (let from = 1; from <= DRAWS; from += 250_000) {
      const to = Math.min(DRAWS, from + 249_999);
      await db.execute(sql`
        insert into draws (member_id, idem_key, request_hash, gacha_id, count, cost, status, created_at)
        select 'bench-member-' || (1 + (random() * (${MEMBERS} - 1))::int), 'bench:' || n, 'x',
               'bench-pack-' || (1 + (power(random(), 2) * (${PACKS} - 1))::int),
               c, c * 100, case when n % 33 = 0 then 'refused' else 'completed' end, ${spread}
          from generate_series(${from}::int, ${to}::int) as n, lateral (select case when n % 4 = 0 then 10 else 1 end as c) k`);
    }
    await db.execute(sql`
      insert into payment_orders (id, member_id, coin_pack_id, method, status, amount_jpy, paid_coins, bonus_coins,
                                  pack_name, receipt_no, expires_at, credited_at, created_at)
      select gen_random_uuid(), 'bench-member-' || (1 + n % ${MEMBERS}), 'coin-3000',
             (array['stripe','paypay','paidy','merpay','amazonpay'])[1 + n % 5], 'paid', 3000, 3000, 60,
             '3,000コイン', 'B' || n, now(), t, t
        from generate_series(1, ${ORDERS}) as n, lateral (select ${spread} + make_interval(secs => n % 2) as t) k`);
    await db.execute(sql`analyze`);
  });

  const rules = { settleSeconds: 120 };
  /** Folds draws as the job does: batch after batch until caught up. */
  const foldDraws = async (settleSeconds: number) => {
    let folded = 0;
    for (;;) {
      const step = await foldDrawRollups(db, { settleSeconds, batchRows: ROLLUP_BATCH_ROWS });
      folded += step.folded;
      if (step.caughtUp) return folded;
    }
  };
  const firstFold = await timed(async () => ({
    draws: await foldDraws(120),
    orders: await foldSalesRollups(db, rules),
    members: await foldMemberRollups(db, rules),
  }));
  // A busy minute: 2,000 new draws, then the next run of the job (the steady state: only new rows are
  // read). Made now, so they lie after the watermark; folded without the lag, which only waits, not works.
  await db.execute(sql`
    insert into draws (member_id, idem_key, request_hash, gacha_id, count, cost, status)
    select 'bench-member-' || (1 + n % ${MEMBERS}), 'bench:new:' || n, 'x', 'bench-pack-' || (1 + n % ${PACKS}), 1, 100,
           'completed'
      from generate_series(1, 2000) as n`);
  const nextFold = await timed(() => foldDraws(0));
  const snapshot = await timed(() => refreshUnusedPaidSnapshot(db, new Date()));

  const operator = commandLineOperator();
  for (let i = 0; i < 10; i++) await loadDashboard(db, operator, new Date()); // warm up
  const times: number[] = [];
  let last: Awaited<ReturnType<typeof loadDashboard>> | undefined;
  for (let i = 0; i < RUNS; i++) {
    const run = await timed(() => loadDashboard(db, operator, new Date()));
    times.push(run.ms);
    last = run.value;
  }
  times.sort((a, b) => a - b);
  // The alternative the rollups replace: the draw chart's figures by scanning draws for 30 days.
  const scan = await timed(() =>
    db.execute(sql`
      select (created_at at time zone 'Asia/Tokyo')::date as day, count(*), sum(count), count(distinct member_id)
        from draws where status = 'completed' and created_at >= now() - interval '30 days' group by 1`),
  );
  const shownDraws = last!.draws!.draws.reduce((sum, d) => sum + d.value, 0);
  const report = {
    benchmark: 'dashboard',
    engine: database.engine,
    when: new Date().toISOString(),
    cores: os.cpus().length,
    node: process.version,
    seeded: { draws: DRAWS, members: MEMBERS, orders: ORDERS, packs: PACKS, days: DAYS },
    seedSeconds: Math.round(seed.ms / 100) / 10,
    firstFold: { ...firstFold.value, ms: firstFold.ms },
    nextFold: { draws: nextFold.value, ms: nextFold.ms },
    unusedPaidSnapshotMs: snapshot.ms,
    dashboard: {
      runs: RUNS,
      p50Ms: percentile(times, 0.5),
      p95Ms: percentile(times, 0.95),
      maxMs: times.at(-1)!,
      targetMs: TARGET_MS,
      drawsShownIn30Days: shownDraws,
    },
    /** One scan of draws for the same 30-day draw chart, without rollups (for comparison). */
    scanAlternativeMs: scan.ms,
  };
  console.log(JSON.stringify(report, null, 2));
  if (firstFold.value.draws < DRAWS * 0.9) throw new Error(`folded only ${firstFold.value.draws} draws`);
  if (nextFold.value !== 2000) throw new Error(`the next fold took ${nextFold.value} draws, not 2,000`);
  if (report.dashboard.p95Ms >= TARGET_MS) throw new Error(`p95 ${report.dashboard.p95Ms} ms ≥ ${TARGET_MS} ms`);
  if (process.env.BENCH_SAVE !== '0') {
    const file = path.join(import.meta.dirname, '..', 'results', 'dashboard.json');
    fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  }
} finally {
  await handle.close();
  await database.drop();
}
