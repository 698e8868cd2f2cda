// bench/hot-release (issue 32 item 3): a hot release as it happens. BENCH_MEMBERS signed-in members
// (default 5,000, each with coins and a session) arrive within BENCH_ARRIVAL_SECONDS (default 10) at one
// pack page, and each opens the pack's live stream (its first event) and draws one lot once the page has
// answered. The shop runs in this process, as
// `npm start` runs it (the production build, the page cache on, jobs off); the members in a process of
// their own (bench/hot-release/arrivals.ts). Reported: pages and draws per second, p50/p90/p99 of each (and
// of the stream's opening) from
// the moment a member asked, the time to serve everyone, and the CPU per request of the shop and of
// PostgreSQL. Prints one JSON report and saves it as bench/results/hot-release.json (unless BENCH_SAVE=0).
import fs from 'node:fs';
import path from 'node:path';
import { fork } from 'node:child_process';
import { describeMachine } from '../machine';
import { BENCH_AUTH_SECRET as AUTH_SECRET, startBenchShop } from '../shop';
import type { ArrivalResult, ArrivalSpec } from './arrivals';

process.env.NODE_ENV = 'production';
// React Router's production build, as `npm start` runs it: registered before the shop's modules load.
await import('#server/production');
const { createTestDatabase } = await import('#tests/database');
const { createSessionMembers } = await import('#tests/members');
const { publishLoadPack } = await import('#tests/fixtures');
const { CpuMeter } = await import('../draw/cpu');
const { checkInvariants } = await import('#modules/wallet');

const memberCount = Number(process.env.BENCH_MEMBERS ?? 5000);
const arrivalSeconds = Number(process.env.BENCH_ARRIVAL_SECONDS ?? 10);
const maxSockets = Number(process.env.BENCH_SOCKETS ?? 256);
const PACK = 'hot-release';
const PRICE = 100;
const SESSION_COOKIE = '__Secure-oripa.session_token';
const log = (message: string) => process.stderr.write(`[bench:hot-release] ${message}\n`);

function arrivals(spec: ArrivalSpec): Promise<ArrivalResult> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./arrivals.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
    let result: ArrivalResult | undefined;
    child.once('message', (message) => (result = message as ArrivalResult));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 && result ? resolve(result) : reject(new Error(`the members' process exited with ${code}`)),
    );
    child.send(spec);
  });
}

const database = await createTestDatabase('bench_hot_release');
const shop = await startBenchShop(database);
try {
  log(`publishing a ${memberCount * 2}-lot pack and making ${memberCount} members`);
  await publishLoadPack(shop.services.db, { id: PACK, lots: memberCount * 2, price: PRICE, name: 'ホットリリース' });
  const members = await createSessionMembers(shop.services.db, {
    count: memberCount,
    secret: AUTH_SECRET,
    paid: PRICE * 10,
    prefix: 'hotrelease',
  });
  const spec = (list: typeof members, seconds: number, seed: number): ArrivalSpec => ({
    origin: shop.url,
    pagePath: `/gacha/pokemon/${PACK}`,
    gachaId: PACK,
    members: list.map((m) => ({ id: m.id, bearer: m.bearer })),
    cookieName: SESSION_COOKIE,
    arrivalSeconds: seconds,
    maxSockets,
    seed,
  });
  // Warm-up: the code compiled and the pools filled by a few members before the release.
  log('warming up');
  await arrivals(spec(members.slice(0, 50), 2, 1));
  const released = members.slice(50);
  const databaseName = database.databaseUrl ? new URL(database.databaseUrl).pathname.slice(1) : '';
  const meter = new CpuMeter(databaseName, () => [process.pid]);
  log(`${released.length} members arrive within ${arrivalSeconds} s`);
  const start = meter.mark();
  const result = await arrivals(spec(released, arrivalSeconds, 2));
  const requests = result.pages.answered + result.streams.opened + result.draws.answered;
  const cpu = meter.since(start, requests);
  meter.stop();
  const problems = await checkInvariants(shop.services.db);
  const report = {
    benchmark: 'hot-release',
    date: new Date().toISOString(),
    machine: describeMachine(),
    database: database.engine,
    arrivalSeconds,
    sockets: maxSockets,
    ...result,
    cpu: {
      coresBusy: cpu.coresBusy,
      shop: cpu.servers,
      postgres: cpu.postgresThisDatabase + cpu.postgresShared,
      loadGenerator: cpu.loadGenerator,
      // CPU per request (pages, stream openings and draws together): the shop's process and PostgreSQL's.
      msPerRequest: cpu.msPerRequest,
    },
    invariants: problems,
    allOk:
      problems.length === 0 &&
      result.pages.statuses['200'] === released.length &&
      result.streams.opened === released.length &&
      result.draws.statuses['201'] === released.length,
  };
  const out = JSON.stringify(report, null, 2);
  console.log(out);
  if (process.env.BENCH_SAVE !== '0') {
    fs.mkdirSync(path.join('bench', 'results'), { recursive: true });
    fs.writeFileSync(path.join('bench', 'results', 'hot-release.json'), out + '\n');
  }
} finally {
  await shop.stop();
  await database.drop();
}
process.exit(0);
