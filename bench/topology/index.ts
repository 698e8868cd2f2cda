// bench/topology: the shop on the topology of docs/deploy.md (haproxy → shop instances → pgbouncer → a
// pg_auto_failover primary and synchronous standby, Redis), brought up as `npm run topology` brings it up.
// Prints one JSON report and saves it as bench/results/topology.json (unless BENCH_SAVE=0).
//
// Phases, through haproxy, with three, then two, then one shop instance in the rotation (the others
// stopped with SIGTERM, as a deployer takes one out):
//   draws    1-lot draws, BENCH_CONCURRENCY clients (default 32) for BENCH_SECONDS (default 15), load
//            generated in a separate process
//   pages    a signed-in member's home page and a pack page (rendered for them), 16 clients each
// with the machine's busy cores during each, so a figure that stops growing with instances shows what
// bounds it. Then the faults of the failover test (tests/topology/failover.test.ts), one after another,
// under a steady storm, and each one's unavailability: the longest time no draw succeeded.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { topologyPorts } from '#tests/ports';
import { publishLoadPack } from '#tests/fixtures';
import { createSessionMembers } from '#tests/members';
import { openDatabase } from '#db/client';
import { checkInvariants } from '#modules/wallet';
import { missingPrograms, startTopology, type Topology } from '#scripts/topology/topology';
import { createDrawClient } from '../draw/client';
import { runWorker } from '../draw/fork';
import { CpuMeter } from '../draw/cpu';
import { DATABASE } from '#scripts/topology/layout';
import { loadTestInWorker } from '../load';
import { describeMachine } from '../machine';
import { memberDraws, runFaultStorm, topologyFaults } from './fault-storm';

const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
const pageClients = 16;
const PRICE = 100;
const DRAW_PACK = 'bench-topology';
const FAULT_PACK = 'bench-topology-faults';
const SESSION_COOKIE = '__Secure-oripa.session_token';
// Demo pages every shop has (DEMO_DATA): the home page and a pack page.
const PAGES = ['/', '/gacha/pokemon/stellar-pokemon-001'];

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;
const log = (message: string) => process.stderr.write(`[bench:topology] ${message}\n`);

interface Phase {
  instances: number;
  draws: {
    drawsPerSecond: number;
    latencyMs: { p50: number; p90: number; p99: number; max: number };
    statuses: Record<string, number>;
    failures: number;
    coresBusy: number;
    /** CPU milliseconds per draw: the shop instances, PostgreSQL (the shop database's backends and the shared processes, the standby's replay included), the load generator. */
    cpuMsPerDraw?: { servers: number; postgres: number; loadGenerator: number };
    /**
     * Cores used by each: the shop instances; PostgreSQL's backends serving the shop's database; PostgreSQL's
     * other processes (WAL writer, the walsender, the standby's replay, the monitor); the rest (haproxy,
     * pgbouncer, the kernel).
     */
    cores: { servers: number; postgresBackends: number; postgresOther: number; rest: number };
  };
  pages: {
    path: string;
    pagesPerSecond: number;
    latencyMs: { p50: number; p90: number; p99: number; max: number };
    statuses: Record<string, number>;
    coresBusy: number;
  }[];
}

/** Busy and total CPU ticks of the whole machine, from /proc/stat. */
function cpuTicks(): { busy: number; total: number } {
  const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  const total = fields.reduce((sum, n) => sum + n, 0);
  return { busy: total - idle, total };
}

/** Runs `work` and answers its result with how many of the machine's cores were busy meanwhile. */
async function withBusyCores<T>(work: () => Promise<T>): Promise<{ result: T; coresBusy: number }> {
  const before = cpuTicks();
  const result = await work();
  const after = cpuTicks();
  const coresBusy = ((after.busy - before.busy) / (after.total - before.total)) * os.cpus().length;
  return { result, coresBusy: round(coresBusy, 2) };
}

/** Waits until haproxy has exactly `n` instances in its rotation. */
async function rotationOf(topology: Topology, n: number) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const up = (await topology.servers()).shop.filter((s) => s.status.startsWith('UP')).length;
    if (up === n) return;
    if (Date.now() > deadline) throw new Error(`haproxy never had ${n} instances in rotation (has ${up})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

if (missingPrograms().length > 0) {
  console.log(JSON.stringify({ skipped: `the topology needs ${missingPrograms().join('; ')}` }, null, 2));
  process.exit(0);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-bench-topology-'));
const startedAt = new Date().toISOString();
log('bringing the topology up (about a minute)');
const topology = await startTopology({
  dir,
  ports: await topologyPorts(),
  demoData: true,
  logLevel: 'warn',
  shopSettings: { IMAGE_WARM_UP: 'false' },
  stopOnExit: true,
});
try {
  const owner = await openDatabase({ databaseUrl: topology.databaseUrls.owner, dataDir: dir, poolSize: 2 });
  await publishLoadPack(owner.db, { id: DRAW_PACK, lots: 100_000, price: PRICE, name: 'ベンチ' });
  await publishLoadPack(owner.db, { id: FAULT_PACK, lots: 60_000, price: PRICE, name: 'ベンチ障害' });
  const members = await createSessionMembers(owner.db, {
    count: 200,
    secret: topology.authSecret,
    paid: 2_000_000,
    prefix: 'benchtopo',
  });
  const benchMembers = members.map((m) => ({ id: m.id, bearer: m.bearer }));
  /** `concurrency` clients draw one lot at a time for `forSeconds`, in a process of their own. */
  const drawLoad = (forSeconds: number, keyPrefix: string, seed: number) =>
    runWorker({
      kind: 'timed',
      origins: [topology.shopUrl],
      members: benchMembers,
      gachaId: DRAW_PACK,
      count: 1,
      concurrency,
      seconds: forSeconds,
      keyPrefix,
      seed,
    });
  /** `pageClients` clients load a page as one signed-in member, for `forSeconds`, in a process of their own. */
  const memberPage = (page: string, forSeconds: number) =>
    loadTestInWorker({
      origin: topology.shopUrl,
      path: page,
      concurrency: pageClients,
      seconds: forSeconds,
      headers: { cookie: `${SESSION_COOKIE}=${encodeURIComponent(members[0]!.bearer)}` },
    });

  const shopPids = async () =>
    (await topology.status()).filter((part) => part.name.startsWith('shop-') && part.running).map((part) => part.pid!);
  let pids = await shopPids();
  const meter = new CpuMeter(DATABASE.name, () => pids);

  // Warm-up: every instance's code compiled, its pools and caches filled, before anything is measured.
  log('warming up');
  await drawLoad(5, 'topology-warm-up', 0);
  for (const page of PAGES) await memberPage(page, 3);

  const phases: Phase[] = [];
  for (const instances of [3, 2, 1]) {
    if (instances < 3) await topology.killShop(instances, 'SIGTERM');
    await rotationOf(topology, instances);
    pids = await shopPids();
    log(`${instances} instance(s): draws`);
    const cpuStart = meter.mark();
    const draws = await withBusyCores(() => drawLoad(seconds, `topology-${instances}`, instances));
    const cpu = meter.since(cpuStart, draws.result.requests);
    const pages: Phase['pages'] = [];
    for (const page of PAGES) {
      log(`${instances} instance(s): ${page} as a member`);
      const measured = await withBusyCores(() => memberPage(page, seconds));
      pages.push({
        path: page,
        pagesPerSecond: measured.result.requestsPerSecond,
        latencyMs: measured.result.latencyMs,
        statuses: measured.result.statuses,
        coresBusy: measured.coresBusy,
      });
    }
    phases.push({
      instances,
      draws: {
        drawsPerSecond: draws.result.drawsPerSecond,
        latencyMs: draws.result.drawLatencyMs,
        statuses: draws.result.statuses,
        failures: draws.result.failures,
        coresBusy: draws.coresBusy,
        cpuMsPerDraw: cpu.msPerRequest,
        cores: {
          servers: cpu.servers,
          postgresBackends: cpu.postgresThisDatabase,
          postgresOther: round(cpu.postgresShared + cpu.postgresOtherDatabases, 2),
          rest: cpu.rest,
        },
      },
      pages,
    });
  }
  for (const index of [1, 2]) await topology.startShop(index);
  await rotationOf(topology, 3);

  log('faults under a steady storm');
  const client = createDrawClient([topology.shopUrl], { maxSockets: 12 });
  const storm = await runFaultStorm({
    client,
    nextCall: memberDraws(members, FAULT_PACK, 'topology-fault', 31),
    inFlight: 12,
    thinkMs: 100,
    faults: topologyFaults(topology),
    warmUpMs: 5000,
    observeMs: 5000,
    giveUpAfterMs: 180_000,
  });
  client.close();
  meter.stop();
  const unanswered = storm.settled.filter((s) => !s.final).length;
  const invariants = await checkInvariants(owner.db);
  await owner.close();

  const at = (n: number) => phases.find((p) => p.instances === n)!;
  const report = {
    benchmark: 'topology',
    startedAt,
    machine: describeMachine(),
    settings: { seconds, drawClients: concurrency, pageClients },
    topology:
      'haproxy → shop instances → pgbouncer (transaction pool) → haproxy primary finder → pg_auto_failover primary + synchronous standby, Redis',
    phases,
    scaling: {
      drawsTwoOverOne: round(at(2).draws.drawsPerSecond / at(1).draws.drawsPerSecond),
      drawsThreeOverOne: round(at(3).draws.drawsPerSecond / at(1).draws.drawsPerSecond),
      pagesThreeOverOne: PAGES.map((page) =>
        round(
          at(3).pages.find((p) => p.path === page)!.pagesPerSecond /
            at(1).pages.find((p) => p.path === page)!.pagesPerSecond,
        ),
      ),
    },
    // What each part's CPU per draw allows once it has cores of its own (the next step of docs/scaling.md):
    // the instances scale out, one primary does not.
    perCore: (() => {
      const cpu = at(1).draws.cpuMsPerDraw;
      return cpu
        ? { drawsPerServerCore: round(1000 / cpu.servers, 0), drawsPerDatabaseCore: round(1000 / cpu.postgres, 0) }
        : null;
    })(),
    faults: {
      undisturbed: { drawsPerSecond: round(storm.baselineRate, 1), longestGapMs: storm.baselineGapMs },
      each: storm.faults.map((f) => ({
        fault: f.name,
        tookSeconds: round(f.tookMs / 1000, 1),
        unavailableSeconds: round(f.unavailableMs / 1000, 2),
        toldToComeBack: f.comeBack,
        improperAnswers: f.improper,
        drawsDuring: f.drawn,
      })),
      requests: storm.settled.length,
      unanswered,
    },
    invariants,
  };
  console.log(JSON.stringify(report, null, 2));
  if (process.env.BENCH_SAVE !== '0') {
    const file = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'results', 'topology.json');
    fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    log(`saved ${path.relative(process.cwd(), file)}`);
  }
  if (unanswered > 0 || invariants.length > 0) process.exitCode = 1;
} finally {
  await topology.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
