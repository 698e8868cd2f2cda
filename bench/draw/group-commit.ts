// bench/draw/group-commit.ts: would grouping draws into one commit pay (issue 17, docs/decisions/046)?
// The database side of application-level group commit, measured with pgbench in one fresh database:
//   single    one draw per transaction (what the shop does)
//   groupK    K draws per transaction, each inside its own SAVEPOINT … RELEASE (so one failed draw
//             could roll back alone), members in ascending order within a group (one lock order,
//             no deadlock between groups: the best case for grouping); 3K + 2 round trips
//   batchK    the same K draws in ONE call and one commit: a PL/pgSQL loop with an exception block
//             (a savepoint) per draw, as an application-level batcher would send them
//   plainK    K draws in one transaction WITHOUT savepoints (not all-or-nothing per draw: only the
//             ceiling of what sharing a commit could give)
//   tpcb      pgbench's TPC-B, the yardstick of bench/draw
// All phases alternate twice; draws/s = transactions/s × K. Prints one JSON report (bench/results/
// draw-group-commit.json unless BENCH_SAVE=0). Needs PostgreSQL and pgbench, like bench/draw.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5438/postgres npx tsx bench/draw/group-commit.ts
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase } from '#tests/database';
import { createSessionMembers } from '#tests/members';
import { publishLoadPack } from '#tests/fixtures';
import { openDatabase } from '#db/client';

const run = promisify(execFile);
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const clients = Number(process.env.BENCH_CONCURRENCY ?? 64);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 200);
const log = (message: string) => process.stderr.write(`[group-commit] ${message}\n`);
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

const database = await createTestDatabase('draw_group_commit');
if (database.engine !== 'postgres' || !database.databaseUrl) {
  console.log(JSON.stringify({ benchmark: 'draw-group-commit', skipped: 'needs PostgreSQL and pgbench' }));
  await database.drop();
  process.exit(1);
}
const url = database.databaseUrl;
const handle = await openDatabase({ databaseUrl: url, dataDir: database.dataDir, poolSize: 4 });
try {
  await handle.migrate();
  log('members, pack, pgbench -i -s 16');
  await createSessionMembers(handle.db, {
    concurrency: 4,
    count: MEMBERS,
    secret: 'group-commit-secret-0123456789',
    paid: 5_000_000,
    prefix: 'gc',
  });
  await publishLoadPack(handle.db, { id: 'gc-pack', lots: 100_000, price: 10, name: 'グループ' });
  await publishLoadPack(handle.db, { id: 'gc-pack-2', lots: 100_000, price: 10, name: 'グループ' });
  await run('pgbench', ['-i', '-q', '-s', '16', url], { maxBuffer: 1 << 26 });
  await run('psql', ['-q', '-c', 'VACUUM ANALYZE', url]);

  const draw = (member: string, pack: string) =>
    `SELECT draw_execute('gc_' || lpad((${member})::text, 5, '0'), '${pack}', 1, 'g-' || gen_random_uuid()::text, 'h', 0, '14 days'::interval, NULL);`;
  await run('psql', [
    '-q',
    '-c',
    `CREATE FUNCTION bench_draw_batch(p_members text[], p_gacha text) RETURNS int LANGUAGE plpgsql AS $$
     DECLARE m text; n int := 0;
     BEGIN
       FOREACH m IN ARRAY p_members LOOP
         BEGIN
           PERFORM draw_execute(m, p_gacha, 1, 'g-' || gen_random_uuid()::text, 'h', 0, '14 days'::interval, NULL);
           n := n + 1;
         EXCEPTION WHEN OTHERS THEN NULL; -- this draw rolled back to its own savepoint
         END;
       END LOOP;
       RETURN n;
     END $$`,
    url,
  ]);
  const script = (k: number, pack: string, kind: 'single' | 'group' | 'batch' | 'plain') => {
    if (kind === 'single') return `\\set m random(0, ${MEMBERS - 1})\n${draw(':m', pack)}\n`;
    const band = Math.floor(MEMBERS / k);
    const lines = [];
    for (let i = 0; i < k; i++) lines.push(`\\set m${i} random(${i * band}, ${(i + 1) * band - 1})`);
    if (kind === 'batch') {
      const ids = Array.from({ length: k }, (_, i) => `'gc_' || lpad(:m${i}::text, 5, '0')`).join(', ');
      lines.push(`SELECT bench_draw_batch(ARRAY[${ids}], '${pack}');`);
      return lines.join('\n') + '\n';
    }
    lines.push('BEGIN;');
    for (let i = 0; i < k; i++)
      lines.push(
        ...(kind === 'group' ? [`SAVEPOINT d;`, draw(`:m${i}`, pack), `RELEASE SAVEPOINT d;`] : [draw(`:m${i}`, pack)]),
      );
    lines.push('COMMIT;');
    return lines.join('\n') + '\n';
  };
  const pgbench = async (name: string, args: string[], drawsPerTransaction: number) => {
    await run('psql', ['-q', '-c', 'CHECKPOINT', url]);
    const started = await run('psql', ['-Atc', 'select pg_current_wal_lsn()', url]);
    const { stdout } = await run('pgbench', [...args, url], { maxBuffer: 1 << 26 });
    const lsn = await run('psql', [
      '-Atc',
      `select pg_wal_lsn_diff(pg_current_wal_lsn(), '${started.stdout.trim()}')`,
      url,
    ]);
    const tps = Number(/tps = ([0-9.]+) \(without initial connection time\)/.exec(stdout)?.[1] ?? NaN);
    const done = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1] ?? 0);
    const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0);
    const retried = Number(/number of transactions retried: (\d+)/.exec(stdout)?.[1] ?? 0);
    const latency = Number(/latency average = ([0-9.]+) ms/.exec(stdout)?.[1] ?? NaN);
    const result = {
      name,
      drawsPerTransaction,
      tps: round(tps),
      drawsPerSecond: round(tps * drawsPerTransaction),
      transactionLatencyMs: latency,
      failed,
      retried,
      walBytesPerDraw: drawsPerTransaction ? round(Number(lsn.stdout) / (done * drawsPerTransaction)) : null,
    };
    log(JSON.stringify(result));
    return result;
  };
  const common = ['-n', '-c', String(clients), '-j', '2', '-T', String(seconds), '--max-tries=50'];
  const phases = [];
  for (const round of [1, 2]) {
    const pack = round === 1 ? 'gc-pack' : 'gc-pack-2';
    const all = [
      ['single', 1],
      ['group', 4],
      ['batch', 4],
      ['batch', 8],
      ['plain', 8],
    ] as const;
    // BENCH_VARIANTS=single,batch8,plain8 runs only those.
    const wanted = process.env.BENCH_VARIANTS?.split(',');
    const variants = all.filter(([kind, k]) => !wanted || wanted.includes(kind === 'single' ? kind : `${kind}${k}`));
    for (const [kind, k] of variants) {
      const name = kind === 'single' ? 'single' : `${kind}${k}`;
      const file = path.join(database.dataDir, `${name}.sql`);
      fs.writeFileSync(file, script(k, pack, kind));
      phases.push({ round, ...(await pgbench(name, [...common, '-f', file], k)) });
    }
    phases.push({ round, ...(await pgbench('tpcb', ['-c', String(clients), '-j', '2', '-T', String(seconds)], 0)) });
  }
  const report = {
    benchmark: 'draw-group-commit',
    date: new Date().toISOString(),
    setup: { clients, secondsPerPhase: seconds, members: MEMBERS, call: 'draw_execute, 1 lot, pgbench (no HTTP)' },
    phases,
  };
  const out = JSON.stringify(report, null, 2);
  console.log(out);
  if (process.env.BENCH_SAVE !== '0')
    fs.writeFileSync(
      path.join('bench', 'results', `draw-group-commit${MEMBERS === 200 ? '' : `-${MEMBERS}-members`}.json`),
      out + '\n',
    );
} finally {
  await handle.close();
  await database.drop();
}
