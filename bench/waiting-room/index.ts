// bench/waiting-room (issue 34 item 4, decision 087): a hot release through its waiting room. BENCH_MEMBERS
// signed-in members with verified phones (default 10,000) arrive within BENCH_ARRIVAL_SECONDS (default 2),
// BENCH_LEAD_SECONDS (default 45) before the start of a BENCH_LOTS-lot pack (default 1,000; cap BENCH_CAP = 2
// lots a member, windows of BENCH_WINDOW_SECONDS = 60 s, BENCH_BATCH = 100 at a time), through two shop instances
// on one PostgreSQL database behind haproxy (or, without haproxy, alternated by the members). They join, read their place as
// the page does, and draw when admitted (bench/waiting-room/members.ts, a process of its own). Reported: the
// time to serve everyone, lots sold, the most lots any member got (≤ the cap), whether admissions followed
// the drawn order (no window opened for a place before an earlier place's), that no lot was drawn outside its
// member's window, the bots' refused extra draws, p50/p90/p99 of every kind of request, and every invariant.
// Prints one JSON report and saves it as bench/results/waiting-room.json (unless BENCH_SAVE=0).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, fork, type ChildProcess } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { createTestDatabase } from '#tests/database';
import { startInstances, type ShopCluster } from '#tests/instances';
import { createSessionMembers } from '#tests/members';
import { createPublishedPack } from '#tests/fixtures';
import { freePort } from '#tests/ports';
import { openDatabase, queryRows, type DatabaseHandle } from '#db/client';
import { checkInvariants } from '#modules/wallet';
import { describeMachine } from '../machine';
import type { MembersResult, MembersSpec } from './members';

const memberCount = Number(process.env.BENCH_MEMBERS ?? 10_000);
const lots = Number(process.env.BENCH_LOTS ?? 1_000);
const cap = Number(process.env.BENCH_CAP ?? 2);
const windowSeconds = Number(process.env.BENCH_WINDOW_SECONDS ?? 60);
const batch = Number(process.env.BENCH_BATCH ?? 100);
const arrivalSeconds = Number(process.env.BENCH_ARRIVAL_SECONDS ?? 2);
// The arrivals come this long before the start, so the shop can take every join before it and the drawn order
// places them all (with 0, joins still queued at the start are later arrivals: the first run placed 224 of 10,000).
const leadSeconds = Number(process.env.BENCH_LEAD_SECONDS ?? 45);
const maxSockets = Number(process.env.BENCH_SOCKETS ?? 256);
const botShare = Number(process.env.BENCH_BOT_SHARE ?? 0.05);
const PACK = 'bench-waiting-room';
const PRICE = 100;
const log = (message: string) => process.stderr.write(`[bench:waiting-room] ${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** haproxy in front of the instances, round robin, as docs/deploy.md runs it; null when it is not installed. */
async function startHaproxy(urls: string[], dir: string): Promise<{ url: string; child: ChildProcess } | null> {
  const binary = ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'].find((p) => fs.existsSync(p));
  if (!binary) return null;
  const port = await freePort();
  const config = [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 5s',
    '  timeout client 300s',
    '  timeout server 300s',
    '  option http-keep-alive',
    'frontend shop',
    `  bind 127.0.0.1:${port}`,
    '  default_backend instances',
    'backend instances',
    '  balance roundrobin',
    ...urls.map((u, i) => `  server shop${i} ${new URL(u).host} maxconn 256`),
    '',
  ].join('\n');
  const file = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(file, config);
  const child = spawn(binary, ['-f', file, '-db'], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return { url: `http://127.0.0.1:${port}`, child };
    await sleep(100);
  }
  child.kill('SIGKILL');
  return null;
}

function runMembers(spec: MembersSpec): Promise<MembersResult> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./members.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
    let result: MembersResult | undefined;
    child.once('message', (message) => (result = message as MembersResult));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 && result ? resolve(result) : reject(new Error(`the members' process exited with ${code}`)),
    );
    child.send(spec);
  });
}

/** What the database says happened: lots, caps, the order, windows. */
async function audit(handle: DatabaseHandle) {
  const db = handle.db;
  const [sold] = await queryRows<{ lots: number; draws: number; members: number; max_lots: number }>(
    db,
    sql`select coalesce(sum(count), 0)::int as lots, count(*)::int as draws, count(distinct member_id)::int as members,
               coalesce(max(per_member), 0)::int as max_lots
          from draws d
          join (select member_id as m, sum(count) as per_member from draws
                 where gacha_id = ${PACK} and status = 'completed' group by member_id) pm on pm.m = d.member_id
         where d.gacha_id = ${PACK} and d.status = 'completed'`,
  );
  const [room] = await queryRows<{
    entries: number;
    ordered: number;
    admitted: number;
    ordered_at: string | null;
    inversions: number;
    late_before_drawn: number;
    outside_window: number;
    arrival_place_correlation: number | null;
  }>(
    db,
    sql`with e as (select * from waiting_room_entries where gacha_id = ${PACK}),
             r as (select * from waiting_rooms where gacha_id = ${PACK}),
             opened as (select place, window_opened_at from e where window_opened_at is not null),
             drawn as (select * from e where order_key is not null)
        select (select count(*) from e)::int as entries,
               (select ordered_count from r)::int as ordered,
               (select count(*) from opened)::int as admitted,
               (select ordered_at from r) as ordered_at,
               -- a window opened for a place before the window of an earlier place: the order broken
               (select count(*) from opened a join opened b on a.place < b.place
                 where a.window_opened_at > b.window_opened_at)::int as inversions,
               -- a later arrival admitted before a drawn place that was still waiting
               (select count(*) from e l join drawn d on d.window_opened_at > l.window_opened_at
                 where l.order_key is null and l.window_opened_at is not null)::int as late_before_drawn,
               -- a lot drawn outside its member's window
               (select count(*) from draws x join e on e.member_id = x.member_id
                 where x.gacha_id = ${PACK} and x.status = 'completed'
                   and not (x.created_at >= e.window_opened_at
                            and x.created_at <= coalesce(e.window_ended_at, e.window_closes_at)))::int as outside_window,
               (select corr(extract(epoch from arrived_at), place) from drawn)::float as arrival_place_correlation`,
  );
  const [refusals] = await queryRows<{ codes: Record<string, number> | null }>(
    db,
    sql`select jsonb_object_agg(error_code, n) as codes from (select error_code, count(*)::int as n from draws
          where gacha_id = ${PACK} and status = 'refused' group by error_code) x`,
  );
  return { sold: sold!, room: room!, refusals: refusals?.codes ?? {} };
}

const database = await createTestDatabase('bench_waiting_room');
if (!database.databaseUrl) throw new Error('bench:waiting-room needs PostgreSQL (two instances on one database)');
const databaseUrl = database.databaseUrl;
let cluster: ShopCluster | undefined;
let haproxy: { url: string; child: ChildProcess } | null = null;
let handle: DatabaseHandle | undefined;
try {
  cluster = await startInstances({
    count: 2,
    databaseUrl,
    dataDir: database.dataDir,
    logLevel: 'warn',
    entry: 'runtime',
  });
  handle = await openDatabase({ databaseUrl, dataDir: database.dataDir, poolSize: 4 });
  const db = handle.db;
  log(`publishing a ${lots}-lot pack (cap ${cap}, windows of ${windowSeconds} s, ${batch} at a time)`);
  await createPublishedPack(db, {
    id: PACK,
    lots,
    price: PRICE,
    drawOptions: [1, 2],
    perMemberLimit: cap,
    waitingRoom: { windowSeconds, batch },
  });
  log(`making ${memberCount} members with sessions and verified phones`);
  const members = await createSessionMembers(db, {
    count: memberCount,
    secret: cluster.authSecret,
    paid: PRICE * (cap + 1),
    prefix: 'waitroom',
  });
  await db.execute(sql`update users set phone_number = '+8170' || lpad(substr(id, 10), 8, '0'),
                         phone_number_verified = true where id like 'waitroom\\_%'`);
  haproxy = await startHaproxy(cluster.urls, database.dataDir);
  const origins = haproxy ? [haproxy.url] : cluster.urls;
  log(
    haproxy ? `through haproxy (${haproxy.url})` : 'haproxy not found: the members alternate between the two instances',
  );
  // The start: the members' process needs a few seconds to begin; every member arrives within the window before it.
  const startsAt = Date.now() + 8_000 + (arrivalSeconds + leadSeconds) * 1000;
  await db.execute(
    sql`update gachas set sale_starts_at = ${new Date(startsAt).toISOString()}::timestamptz where id = ${PACK}`,
  );
  log(`${memberCount} members arrive within ${arrivalSeconds} s, ${leadSeconds} s before the start`);
  const began = Date.now();
  const result = await runMembers({
    origins,
    gachaId: PACK,
    members: members.map((m) => ({ id: m.id, bearer: m.bearer })),
    startsAt,
    arrivalSeconds,
    leadSeconds,
    cap,
    botShare,
    maxSockets,
    seed: 87,
  });
  log(`served in ${result.servedAllSeconds} s; auditing`);
  const checked = await audit(handle);
  const problems = await checkInvariants(db);
  const { joinedAtMs: _joined, ...members_ } = result;
  const report = {
    benchmark: 'waiting-room',
    at: new Date().toISOString(),
    machine: describeMachine(),
    loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
    setup: {
      members: memberCount,
      arrivalSeconds,
      leadSeconds,
      lots,
      capPerMember: cap,
      windowSeconds,
      batch,
      instances: 2,
      balancer: haproxy ? 'haproxy (round robin)' : 'the members alternate between the two instances',
      botShare,
      sockets: maxSockets,
      database: 'PostgreSQL 15 (one database, two instances)',
    },
    result: {
      timeToServeEveryoneSeconds: result.servedAllSeconds,
      timeToServeEveryoneAfterStartSeconds: result.servedAllAfterStartSeconds,
      wallSeconds: Math.round((Date.now() - began) / 100) / 10,
      lotsSold: checked.sold.lots,
      completedDraws: checked.sold.draws,
      membersWithLots: checked.sold.members,
      maxLotsPerMember: checked.sold.max_lots,
      capHeld: checked.sold.max_lots <= cap,
      queue: {
        entries: checked.room.entries,
        placedByTheDrawnOrder: checked.room.ordered,
        laterArrivals: checked.room.entries - checked.room.ordered,
        admitted: checked.room.admitted,
        orderDrawnAt: checked.room.ordered_at,
        admissionsOutOfOrder: checked.room.inversions,
        laterArrivalsAdmittedBeforeADrawnPlace: checked.room.late_before_drawn,
        orderHeld: checked.room.inversions === 0 && checked.room.late_before_drawn === 0,
        arrivalToPlaceCorrelation: checked.room.arrival_place_correlation,
        drawsOutsideTheirWindow: checked.room.outside_window,
      },
      refusedDraws: checked.refusals,
      invariantViolations: problems.length,
    },
    members: members_,
  };
  const text = JSON.stringify(report, null, 2);
  process.stdout.write(`${text}\n`);
  if (process.env.BENCH_SAVE !== '0') {
    const file = path.resolve(import.meta.dirname, '../results/waiting-room.json');
    fs.writeFileSync(file, `${text}\n`);
    log(`saved ${path.relative(process.cwd(), file)}`);
  }
  if (problems.length) log(`invariant violations: ${JSON.stringify(problems.slice(0, 5))}`);
} finally {
  haproxy?.child.kill('SIGTERM');
  await handle?.close();
  await cluster?.stop();
  await database.drop();
}
