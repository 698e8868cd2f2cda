// bench/ssr: requests per second and latency of the home, genre and pack pages, beside the same
// server's JSON health route, on a fresh database with the demo data. Phases, each on its own shop:
// `rendered` (PAGE_CACHE_SECONDS=0: every page rendered), `cached` (the default: visitors' pages from the
// page cache, decision 048) and `members` (the default cache, BENCH_CONCURRENCY clients each signed in as
// a different member with coins and a draw: the catalogue pages and the members' own pages, mypage, the
// mailbox, the draw history and a result page). Prints one JSON report.
import fs from 'node:fs';
import path from 'node:path';
import { describeMachine } from '../machine';
import { BENCH_AUTH_SECRET as AUTH_SECRET, startBenchShop } from '../shop';

process.env.NODE_ENV = 'production';
// React Router's production build, as `npm start` runs it (server/production-modules.mjs): registered
// before anything imports React Router, so the shop's modules are imported below, dynamically.
await import('#server/production');
const { createTestDatabase } = await import('#tests/database');
const { loadTestInWorker: loadTest } = await import('../load');
const { createSessionMembers } = await import('#tests/members');
const { createDrawClient } = await import('../draw/client');

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const paths = ['/api/health', '/', '/gacha/pokemon', '/gacha/pokemon/stellar-pokemon-001'];
const PACK = { genreId: 'pokemon', id: 'stellar-pokemon-001' };
const SESSION_COOKIE = '__Secure-oripa.session_token';
/**
 * The public catalogue as a member sees it, then the members' own pages (the result page is added per member),
 * then the JSON of two of them as the API answers it: what a page whose body the browser renders (decision
 * 078's option A) would fetch.
 */
const memberPaths = [
  ...paths,
  '/notices',
  '/mypage',
  '/myinbox/alls',
  '/mypage/draws',
  '/api/v1/me/mails?box=broadcast',
  '/api/v1/me/prizes',
];

/** SQL statements sent to PostgreSQL by this process (every pg client's query), for statements per page. */
const { countStatements } = await import('#tests/sql-count');
const sql = countStatements((text) => {
  if (process.env.BENCH_LOG_SQL) process.stderr.write(`[sql] ${text.replace(/\s+/g, ' ').slice(0, 160)}\n`);
});

/** BENCH_PROFILE=dir: a CPU profile of the server per measured path, saved there, its heaviest functions in the report. */
const profileDir = process.env.BENCH_PROFILE;
/** BENCH_PHASES=members,cached: only those phases. */
const only = process.env.BENCH_PHASES?.split(',');
/** BENCH_PATHS=/mypage,result: only those paths (`result`: the result page), beside the health route. */
const onlyPaths = process.env.BENCH_PATHS?.split(',');
/**
 * BENCH_PERF_CONTROL=fifo: `perf record --control=fifo:<fifo> -D -1 -p <this process>` samples only while a
 * path is measured (this process writes enable and disable there): CPU samples, where V8's profiler
 * samples wall time (decision 079).
 */
const perfControl = process.env.BENCH_PERF_CONTROL;
const perf = (command: 'enable' | 'disable') => perfControl && fs.writeFileSync(perfControl, `${command}\n`);

async function startProfile() {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    /** Saves the profile and answers its ten heaviest functions by self time (share of samples). */
    async stop(file: string) {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(profile));
      const selfById = new Map<number, number>();
      for (const id of profile.samples ?? []) selfById.set(id, (selfById.get(id) ?? 0) + 1);
      const total = profile.samples?.length ?? 1;
      const byFunction = new Map<string, number>();
      for (const node of profile.nodes) {
        const { functionName, url, lineNumber } = node.callFrame;
        const where = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(build|server|modules|app)\//, '$1/')}:${lineNumber + 1}`;
        byFunction.set(where, (byFunction.get(where) ?? 0) + (selfById.get(node.id) ?? 0));
      }
      return [...byFunction.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 10)
        .map(([where, samples]) => ({ where, share: Math.round((samples / total) * 1000) / 1000 }));
    },
  };
}

async function phase(name: 'rendered' | 'cached' | 'members', pageCacheSeconds: string) {
  const database = await createTestDatabase(`bench_ssr_${name}`);
  const shop = await startBenchShop(database, { PAGE_CACHE_SECONDS: pageCacheSeconds });
  try {
    const signedIn = name === 'members' ? await signInMembers(shop) : null;
    const measured = (signedIn ? [...memberPaths, signedIn.resultPath] : paths).filter(
      (p, i) =>
        i === 0 || !onlyPaths || onlyPaths.includes(p) || (p === signedIn?.resultPath && onlyPaths.includes('result')),
    );
    const headersFor = (p: string) =>
      p === signedIn?.resultPath ? signedIn.resultClientHeaders : signedIn?.clientHeaders;
    // warm up: JIT, image-free page renders, connection pool
    for (const p of measured)
      await loadTest({ origin: shop.url, path: p, concurrency: 4, seconds: 1, clientHeaders: headersFor(p) });
    const results = [];
    for (const p of measured) {
      // The shop runs in this process and the load generator in its own: this process's CPU is the server's.
      const profile = profileDir ? await startProfile() : null;
      const cpuBefore = process.cpuUsage();
      const statementsBefore = sql.count;
      if (p !== paths[0]) perf('enable');
      const result = await loadTest({ origin: shop.url, path: p, concurrency, seconds, clientHeaders: headersFor(p) });
      perf('disable');
      const cpu = process.cpuUsage(cpuBefore);
      const serverCpuMsPerRequest =
        Math.round(((cpu.user + cpu.system) / 1000 / Math.max(1, result.requests)) * 100) / 100;
      const hot = profile
        ? await profile.stop(path.join(profileDir!, `${name}${p.replace(/\//g, '_')}.cpuprofile`))
        : undefined;
      const sqlStatementsPerRequest = database.databaseUrl
        ? Math.round(((sql.count - statementsBefore) / Math.max(1, result.requests)) * 10) / 10
        : undefined;
      results.push({ ...result, serverCpuMsPerRequest, sqlStatementsPerRequest, ...(hot ? { profileTop: hot } : {}) });
    }
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

/**
 * `concurrency` members with sessions and coins, each with one draw from the demo pack: the cookie each
 * client sends, and the first member's result page with that member's cookie for every client (another
 * member's result is the not-found page).
 */
async function signInMembers(shop: Awaited<ReturnType<typeof startBenchShop>>) {
  const members = await createSessionMembers(shop.services.db, {
    count: concurrency,
    secret: AUTH_SECRET,
    paid: 100_000,
    prefix: 'benchssr',
  });
  const client = createDrawClient([shop.url]);
  const results: string[] = [];
  for (const member of members) {
    const reply = await client.post({
      instance: 0,
      gachaId: PACK.id,
      count: 1,
      memberId: member.id,
      bearer: member.bearer,
      key: `bench-ssr-${member.id}`,
    });
    if (reply.status !== 201 || !reply.body?.id) throw new Error(`a member's draw failed: ${reply.status}`);
    results.push(`/gacha/${PACK.genreId}/${PACK.id}/result/${reply.body.id}`);
  }
  client.close();
  return {
    clientHeaders: members.map((m) => ({ cookie: `${SESSION_COOKIE}=${m.bearer}` })),
    resultPath: results[0]!,
    resultClientHeaders: [{ cookie: `${SESSION_COOKIE}=${members[0]!.bearer}` }],
  };
}

const run = (name: 'rendered' | 'cached' | 'members', pageCacheSeconds: string) =>
  !only || only.includes(name) ? phase(name, pageCacheSeconds) : Promise.resolve(undefined);
const rendered = await run('rendered', '0');
const cached = await run('cached', '5');
const members = await run('members', '5');
const all = [...(rendered?.results ?? []), ...(cached?.results ?? []), ...(members?.results ?? [])];
const report = {
  benchmark: 'ssr',
  date: new Date().toISOString(),
  machine: describeMachine(),
  database: (rendered ?? cached ?? members)?.database,
  concurrency,
  secondsPerPath: seconds,
  acceptEncoding: 'br, gzip',
  phases: { rendered, cached, members },
  allOk: all.every((r) => r.errors === 0 && Object.keys(r.statuses).every((s) => s === '200')),
};
const out = JSON.stringify(report, null, 2);
console.log(out);
if (process.env.BENCH_SAVE !== '0' && !only && !onlyPaths && !profileDir) {
  fs.mkdirSync(path.join('bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join('bench', 'results', 'ssr.json'), out + '\n');
}
process.exit(0);
