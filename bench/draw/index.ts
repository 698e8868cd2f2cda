// bench/draw: draws per second over HTTP from two server instances on one PostgreSQL database, and
// — in the same run, on the same database — pgbench's TPC-B rate, so the figure is a ratio that
// survives a noisy machine (docs/architecture.md, Performance). Prints one JSON report and saves it as
// bench/results/draw.json (unless BENCH_SAVE=0).
//
// Phases (each with BENCH_CONCURRENCY clients, default 64, load generated in a separate process):
//   oneLot   1-lot draws for BENCH_SECONDS (default 20) on a 100,000-lot pack (never sells out)
//   tenLot   10-lot draws for BENCH_SECONDS on another 100,000-lot pack
//   tpcb     pgbench -c 64 -j 2 -T BENCH_SECONDS (full TPC-B), pgbench_* tables in the same database
//   sellOut  a 10,000-lot pack with a ラストワン賞 sold out by 12,000 requests (90 % 1 lot, 10 % 10)
//   sqlOnly  (diagnostic) the same draw function called by pgbench directly, without HTTP
// then every invariant (shop_check_invariants) and the sell-out's exact counts.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { createTestDatabase } from '#tests/database';
import { startInstances, type ShopCluster } from '#tests/instances';
import { createSessionMembers, totalCredited } from '#tests/members';
import { publishLoadPack } from '#tests/fixtures';
import { openDatabase, queryRows, type DatabaseHandle } from '#db/client';
import { checkInvariants } from '#modules/wallet';
import { seededRandom } from './client';
import { CpuMeter } from './cpu';
import { runWorker } from './fork';
import { describeMachine } from '../machine';

const run = promisify(execFile);
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 64);
const scale = Number(process.env.BENCH_PGBENCH_SCALE ?? 64);
const sqlOnly = process.env.BENCH_SQL_ONLY !== '0';
const PRICE = 100;
const MEMBERS = 200;
const GRANT = 2_000_000;
// Issue 17's goals: 1-lot draws over HTTP ≥ 0.40 × TPC-B, the draw function alone ≥ 0.70 × TPC-B, and a
// 10,000-lot pack sold out by 12,000 requests within 3 s, exactly.
const ONE_LOT_GOAL = 0.4;
const SQL_ONLY_GOAL = 0.7;
const SELL_OUT_GOAL_SECONDS = 3;

type PhaseCpu = { msPerRequest?: { servers: number; postgres: number; loadGenerator: number } };
/** CPU milliseconds one request or transaction took in all: servers, PostgreSQL and the load generator. */
const cpuMsPerRequest = (cpu: PhaseCpu) =>
  cpu.msPerRequest ? cpu.msPerRequest.servers + cpu.msPerRequest.postgres + cpu.msPerRequest.loadGenerator : NaN;
/**
 * The ratio to TPC-B the CPU alone allows when both run on the same cores until they are full: TPC-B's CPU
 * per transaction over the draw's CPU per request. A measured ratio close to it says the cores bound the run.
 */
const cpuBound = (draw: PhaseCpu, tpcb: PhaseCpu) => round(cpuMsPerRequest(tpcb) / cpuMsPerRequest(draw));

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;
const log = (message: string) => process.stderr.write(`[bench:draw] ${message}\n`);

// ---------------------------------------------------------------------------------------------

async function psql(databaseUrl: string, statement: string) {
  await run('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-c', statement, databaseUrl]);
}

/** pgbench's summary: tps without connection time, average latency, and percentiles from its log. */
async function pgbench(databaseUrl: string, args: string[], logDir: string) {
  fs.rmSync(logDir, { recursive: true, force: true });
  fs.mkdirSync(logDir, { recursive: true });
  const { stdout, stderr } = await run(
    'pgbench',
    [...args, '--log', `--log-prefix=${path.join(logDir, 'pgb')}`, databaseUrl],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const text = `${stdout}\n${stderr}`;
  const tps = Number(/tps = ([0-9.]+) \(without initial connection time\)/.exec(text)?.[1] ?? NaN);
  const latencyAverageMs = Number(/latency average = ([0-9.]+) ms/.exec(text)?.[1] ?? NaN);
  const failed = Number(/number of failed transactions: (\d+)/.exec(text)?.[1] ?? 0);
  const transactions = Number(/number of transactions actually processed: (\d+)/.exec(text)?.[1] ?? 0);
  const latencies: number[] = [];
  for (const file of fs.readdirSync(logDir)) {
    for (const line of fs.readFileSync(path.join(logDir, file), 'utf8').split('\n')) {
      const microseconds = Number(line.split(' ')[2]);
      if (line && Number.isFinite(microseconds)) latencies.push(microseconds / 1000);
    }
  }
  latencies.sort((a, b) => a - b);
  const at = (p: number) =>
    round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0, 2);
  const aborted = (text.match(/aborted/g) ?? []).length;
  return {
    tps: round(tps, 1),
    transactions,
    failed,
    abortedLines: aborted,
    latencyMs: { average: latencyAverageMs, p50: at(50), p99: at(99), max: round(latencies.at(-1) ?? 0, 2) },
  };
}

const publishBenchPack = (handle: DatabaseHandle, id: string, lots: number) =>
  publishLoadPack(handle.db, { id, lots, price: PRICE, name: 'ベンチ' });

const rowsOf = <T>(handle: DatabaseHandle, query: ReturnType<typeof sql>) => queryRows<T>(handle.db, query);

async function packState(handle: DatabaseHandle, gachaId: string) {
  const [row] = await rowsOf<{ status: string; total: number; claimed: string; distinct: string; last_one: string }>(
    handle,
    sql`
    select g.status, g.total_lots as total,
      (select count(*) from gacha_lots l where l.gacha_id = g.id and l.draw_id is not null) as claimed,
      (select count(distinct position) from prizes p where p.gacha_id = g.id and p.position is not null) as distinct,
      (select count(*) from prizes p join gacha_tiers t on t.id = p.tier_id where p.gacha_id = g.id and t.is_last_one) as last_one
    from gachas g where g.id = ${gachaId}`,
  );
  return {
    status: row!.status,
    totalLots: row!.total,
    claimed: Number(row!.claimed),
    distinctPositions: Number(row!.distinct),
    lastOnePrizes: Number(row!.last_one),
  };
}

// ---------------------------------------------------------------------------------------------

const database = await createTestDatabase('bench_draw');
if (database.engine !== 'postgres' || !database.databaseUrl) {
  console.log(
    JSON.stringify(
      {
        benchmark: 'draw',
        skipped:
          'needs PostgreSQL (TEST_DATABASE_URL or 127.0.0.1:5432) and pgbench: two server instances cannot share PGlite',
      },
      null,
      2,
    ),
  );
  await database.drop();
  process.exit(1);
}
const databaseUrl = database.databaseUrl;
let cluster: ShopCluster | undefined;
let handle: DatabaseHandle | undefined;
let meter: CpuMeter | undefined;
try {
  log(`database ${new URL(databaseUrl).pathname.slice(1)}; starting two instances`);
  // BENCH_SERVER_NODE_ARGS: extra node options for both servers, e.g. '--cpu-prof --cpu-prof-dir=/tmp/p'.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  // The production entry (`npm start`'s build/server-runtime), as a deployment runs it.
  cluster = await startInstances({
    count: 2,
    databaseUrl,
    dataDir: database.dataDir,
    logLevel: 'warn',
    nodeArgs,
    entry: 'runtime',
  });
  handle = await openDatabase({ databaseUrl, dataDir: database.dataDir, poolSize: 4 });
  const instances = cluster.instances;
  meter = new CpuMeter(new URL(databaseUrl).pathname.slice(1), () =>
    instances.flatMap((i) => (i.child?.pid ? [i.child.pid] : [])),
  );
  const [pgInfo] = await rowsOf<{ version: string; sync: string; max: string; buffers: string }>(
    handle,
    sql`select current_setting('server_version') as version,
    current_setting('synchronous_commit') as sync, current_setting('max_connections') as max, current_setting('shared_buffers') as buffers`,
  );

  log(`pgbench -i -s ${scale} into the same database`);
  const initStarted = performance.now();
  await run('pgbench', ['-i', '-q', '-s', String(scale), databaseUrl], { maxBuffer: 64 * 1024 * 1024 });
  const initSeconds = round((performance.now() - initStarted) / 1000, 1);

  log('members and packs');
  const members = await createSessionMembers(handle.db, {
    count: MEMBERS,
    secret: cluster.authSecret,
    paid: GRANT,
    prefix: 'bench',
  });
  const benchMembers = members.map((m) => ({ id: m.id, bearer: m.bearer }));
  const packs = {
    warmUp: 'bench-warmup',
    oneLot: 'bench-1lot',
    tenLot: 'bench-10lot',
    sellOut: 'bench-sellout',
    sqlOnly: 'bench-sql-1lot',
  };
  await publishBenchPack(handle, packs.warmUp, 20_000);
  await publishBenchPack(handle, packs.oneLot, 100_000);
  await publishBenchPack(handle, packs.tenLot, 300_000); // 10-lot draws must not sell it out within the phase
  await publishBenchPack(handle, packs.sellOut, 10_000);
  if (sqlOnly) await publishBenchPack(handle, packs.sqlOnly, 100_000);
  await psql(databaseUrl, 'VACUUM ANALYZE');

  const origins = cluster.urls;
  log('warm-up (3 s, 16 clients)');
  await runWorker({
    kind: 'timed',
    origins,
    members: benchMembers,
    gachaId: packs.warmUp,
    count: 1,
    concurrency: 16,
    seconds: 3,
    keyPrefix: 'warm',
    seed: 1,
  });

  const timed = async (name: string, gachaId: string, count: number, seed: number) => {
    await psql(databaseUrl, 'CHECKPOINT');
    log(`${name}: ${count}-lot draws, ${concurrency} clients, ${seconds} s`);
    const mark = meter!.mark();
    const result = await runWorker({
      kind: 'timed',
      origins,
      members: benchMembers,
      gachaId,
      count,
      concurrency,
      seconds,
      keyPrefix: name,
      seed,
    });
    const cpu = meter!.since(mark, result.requests);
    return { gachaId, lotsPerDraw: count, ...result, cpu, pack: await packState(handle!, gachaId) };
  };
  const oneLot = await timed('oneLot', packs.oneLot, 1, 11);
  const tenLot = await timed('tenLot', packs.tenLot, 10, 12);

  await psql(databaseUrl, 'VACUUM pgbench_branches, pgbench_tellers');
  await psql(databaseUrl, 'CHECKPOINT');
  log(`TPC-B: pgbench -c ${concurrency} -j 2 -T ${seconds}`);
  let mark = meter.mark();
  const tpcbRun = await pgbench(
    databaseUrl,
    ['-c', String(concurrency), '-j', '2', '-T', String(seconds)],
    path.join(database.dataDir, 'pgbench-tpcb'),
  );
  const tpcb = { ...tpcbRun, cpu: meter.since(mark, tpcbRun.transactions) };

  await psql(databaseUrl, 'CHECKPOINT');
  log('sell-out: 12,000 requests for a 10,000-lot pack');
  const random = seededRandom(20261121);
  const counts = Array.from({ length: 12_000 }, () => (random() < 0.1 ? 10 : 1));
  mark = meter.mark();
  const sellOutRun = await runWorker({
    kind: 'list',
    origins,
    members: benchMembers,
    gachaId: packs.sellOut,
    counts,
    concurrency,
    keyPrefix: 'sellout',
  });
  const sellOut = {
    gachaId: packs.sellOut,
    packLots: 10_000,
    ...sellOutRun,
    cpu: meter.since(mark, sellOutRun.requests),
    pack: await packState(handle, packs.sellOut),
  };

  let sqlOnlyResult: (Record<string, unknown> & { ratioToTpcb: number; cpu: PhaseCpu }) | null = null;
  if (sqlOnly) {
    await psql(databaseUrl, 'CHECKPOINT');
    log(`diagnostic: the draw function straight from pgbench (no HTTP), 1 lot, ${concurrency} clients`);
    const script = path.join(database.dataDir, 'draw-1lot.sql');
    fs.writeFileSync(
      script,
      `\\set m random(0, ${MEMBERS - 1})\nSELECT draw_execute('bench_' || lpad(:m::text, 5, '0'), '${packs.sqlOnly}', 1, 'sql-' || gen_random_uuid()::text, 'sql-only', 0, '14 days'::interval, NULL);\n`,
    );
    mark = meter.mark();
    const result = await pgbench(
      databaseUrl,
      ['-n', '-c', String(concurrency), '-j', '2', '-T', String(seconds), '--max-tries=30', '-f', script],
      path.join(database.dataDir, 'pgbench-draw'),
    );
    sqlOnlyResult = {
      ...result,
      drawsPerSecond: result.tps,
      cpu: meter.since(mark, result.transactions),
      ratioToTpcb: round(result.tps / tpcb.tps),
      pack: await packState(handle, packs.sqlOnly),
    };
  }

  log('invariants');
  const violations = await checkInvariants(handle.db);
  const credited = await totalCredited(handle.db);
  const [coins] = await rowsOf<{ wallets: string; debited: string; draw_costs: string }>(
    handle,
    sql`select
    (select coalesce(sum(paid + free), 0) from wallets) as wallets,
    (select coalesce(-sum(amount), 0) from coin_ledger where amount < 0) as debited,
    (select coalesce(sum(cost), 0) from draws where status = 'completed') as draw_costs`,
  );
  const coinBook = {
    credited,
    wallets: Number(coins!.wallets),
    debited: Number(coins!.debited),
    drawCosts: Number(coins!.draw_costs),
  };
  const serverErrorLines = cluster.grepLogs(/"level":(50|60)/);
  const unexpectedExits = cluster.unexpectedExits();

  const sellOutExact =
    sellOut.pack.status === 'sold_out' &&
    sellOut.pack.claimed === 10_000 &&
    sellOut.pack.distinctPositions === 10_000 &&
    sellOut.pack.lastOnePrizes === 1 &&
    sellOut.lastOneAnswers === 1 &&
    sellOut.lots === 10_000;
  const timedPacksOnSale = [oneLot.pack, tenLot.pack].every((p) => p.status === 'on_sale' && p.claimed < p.totalLots);
  const invariantsHold =
    violations.length === 0 &&
    coinBook.credited === coinBook.wallets + coinBook.debited &&
    coinBook.debited === coinBook.drawCosts;
  const noFailures = [oneLot, tenLot, sellOut].every((p) => p.failures === 0);
  const machine = describeMachine();
  const report = {
    benchmark: 'draw',
    date: new Date().toISOString(),
    machine,
    database: {
      engine: 'postgres',
      version: pgInfo!.version,
      synchronousCommit: pgInfo!.sync,
      maxConnections: Number(pgInfo!.max),
      sharedBuffers: pgInfo!.buffers,
    },
    setup: {
      serverInstances: 2,
      poolPerInstance: 10,
      members: MEMBERS,
      clients: concurrency,
      secondsPerPhase: seconds,
      pricePerDraw: PRICE,
      loadGenerator: 'separate Node process, keep-alive HTTP, requests alternate between the two instances',
      pgbenchScale: scale,
      pgbenchInitSeconds: initSeconds,
      note: "one 2-core machine: the two servers, PostgreSQL, the load generator and pgbench share it; each phase says who used the cores (cpu: servers, this database's PostgreSQL backends, PostgreSQL's shared processes, the load generator, other databases' backends — other work on the machine — and the rest)",
    },
    ratio: {
      oneLot: round(oneLot.drawsPerSecond / tpcb.tps),
      tenLot: round(tenLot.drawsPerSecond / tpcb.tps),
      tenLotLots: round(tenLot.lotsPerSecond / tpcb.tps),
      goalOneLot: ONE_LOT_GOAL,
      oneLotMeetsGoal: oneLot.drawsPerSecond / tpcb.tps >= ONE_LOT_GOAL,
      oneLotCpuBound: cpuBound(oneLot.cpu, tpcb.cpu),
      sqlOnly: sqlOnlyResult?.ratioToTpcb ?? null,
      goalSqlOnly: SQL_ONLY_GOAL,
      sqlOnlyMeetsGoal: sqlOnlyResult ? sqlOnlyResult.ratioToTpcb >= SQL_ONLY_GOAL : null,
      sqlOnlyCpuBound: sqlOnlyResult ? cpuBound(sqlOnlyResult.cpu, tpcb.cpu) : null,
    },
    sellOutGoal: {
      goalSeconds: SELL_OUT_GOAL_SECONDS,
      soldOutAfterSeconds: sellOut.soldOutAfterSeconds ?? null,
      met: sellOutExact && (sellOut.soldOutAfterSeconds ?? Infinity) <= SELL_OUT_GOAL_SECONDS,
      coresBusy: sellOut.cpu.coresBusy,
      cpuMsPerRequest: round(cpuMsPerRequest(sellOut.cpu), 2),
    },
    phases: { oneLot, tenLot, tpcb, sellOut },
    diagnostics: { sqlOnlyOneLot: sqlOnlyResult },
    invariants: {
      violations: violations.slice(0, 20),
      violationCount: violations.length,
      coinBook,
      sellOutExact,
      timedPacksOnSale,
      serverErrorLogLines: serverErrorLines.length,
      serverErrorSamples: serverErrorLines.slice(0, 3),
      unexpectedExits,
    },
    allOk:
      invariantsHold &&
      sellOutExact &&
      timedPacksOnSale &&
      noFailures &&
      serverErrorLines.length === 0 &&
      unexpectedExits.length === 0,
  };
  const out = JSON.stringify(report, null, 2);
  console.log(out);
  if (process.env.BENCH_SAVE !== '0') {
    fs.mkdirSync(path.join('bench', 'results'), { recursive: true });
    fs.writeFileSync(path.join('bench', 'results', 'draw.json'), out + '\n');
  }
  process.exitCode = report.allOk ? 0 : 2;
} finally {
  meter?.stop();
  await cluster?.stop();
  await handle?.close();
  await database.drop();
}
