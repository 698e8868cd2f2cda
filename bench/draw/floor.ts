// bench/draw/floor.ts: what a 1-lot draw costs PostgreSQL at the least (issue 32 item 5). pgbench runs, in
// turns on one database, (a) TPC-B, (b) the draw function (`draw_execute`, every check), and (c) the draw's
// write set alone: one PL/pgSQL call that writes exactly the rows a 1-lot draw writes (the draw row, the
// lot's claim, the prize, the grant, the ledger entry, the wallet, the experience) with no read, no check and
// no answer. (c) is the floor any merging of the draw's functions could reach while it keeps the rows and the
// indexes the invariants need; the CPU per transaction of each comes from /proc (this database's backends
// and PostgreSQL's shared processes). Prints one JSON report, saved as bench/results/draw-floor.json unless
// BENCH_SAVE=0.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:draw-floor
//
// BENCH_SECONDS per run (default 15), BENCH_CONCURRENCY clients (default 64), BENCH_ROUNDS turns (default 3: the median is the middle run).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { createTestDatabase } from '#tests/database';
import { createSessionMembers } from '#tests/members';
import { publishLoadPack } from '#tests/fixtures';
import { openDatabase, queryRows } from '#db/client';
import { checkInvariants } from '#modules/wallet';
import { CpuMeter } from './cpu';
import { describeMachine } from '../machine';

const run = promisify(execFile);
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 64);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const MEMBERS = 200;
const PRICE = 100;
const log = (message: string) => process.stderr.write(`[bench:draw-floor] ${message}\n`);
const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The rows a completed 1-lot draw writes, in the draw's order, and nothing else. Bench-only. */
const WRITES_ONLY = `
CREATE OR REPLACE FUNCTION bench_draw_writes(p_member text, p_gacha text, p_seq regclass) RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_now timestamptz := now(); v_draw uuid; v_pos int; v_tier text; v_grant coin_grants.id%TYPE; v_paid int; v_free int;
BEGIN
  INSERT INTO draws (member_id, idem_key, request_hash, gacha_id, count, cost, status, created_at)
  VALUES (p_member, gen_random_uuid()::text, repeat('0', 64), p_gacha, 1, ${PRICE}, 'completed', v_now)
  RETURNING id INTO v_draw;
  v_pos := nextval(p_seq)::int;
  UPDATE gacha_lots SET draw_id = v_draw, member_id = p_member WHERE gacha_id = p_gacha AND position = v_pos
  RETURNING tier_id INTO v_tier;
  INSERT INTO prizes (member_id, draw_id, gacha_id, tier_id, position, conversion_value, decide_by, created_at)
  VALUES (p_member, v_draw, p_gacha, v_tier, v_pos, 10, v_now + interval '14 days', v_now);
  UPDATE coin_grants SET remaining = remaining - ${PRICE}
   WHERE member_id = p_member AND spendable AND remaining > 0 RETURNING id INTO v_grant;
  UPDATE wallets SET paid = paid - ${PRICE}, updated_at = v_now WHERE member_id = p_member
  RETURNING paid, free INTO v_paid, v_free;
  INSERT INTO coin_ledger (member_id, kind, amount, counter_account, reason, idem_key, seq, grant_id, ref, paid_after,
                           free_after, created_at)
  VALUES (p_member, 'paid', -${PRICE}, 'sales', 'draw', 'draw:' || v_draw, 0, v_grant, v_draw::text, v_paid, v_free, v_now);
  UPDATE member_progress SET exp = exp + ${PRICE}, updated_at = v_now WHERE member_id = p_member;
END $$;`;

async function pgbench(databaseUrl: string, args: string[]) {
  const { stdout, stderr } = await run('pgbench', [...args, databaseUrl], { maxBuffer: 64 * 1024 * 1024 });
  const text = `${stdout}\n${stderr}`;
  return {
    tps: Number(/tps = ([0-9.]+) \(without initial connection time\)/.exec(text)?.[1] ?? NaN),
    transactions: Number(/number of transactions actually processed: (\d+)/.exec(text)?.[1] ?? 0),
    failed: Number(/number of failed transactions: (\d+)/.exec(text)?.[1] ?? 0),
  };
}

const database = await createTestDatabase('bench_draw_floor');
if (database.engine !== 'postgres' || !database.databaseUrl) {
  console.log(JSON.stringify({ benchmark: 'draw-floor', skipped: 'needs PostgreSQL and pgbench' }));
  await database.drop();
  process.exit(1);
}
const databaseUrl = database.databaseUrl;
const handle = await openDatabase({ databaseUrl, dataDir: database.dataDir, poolSize: 2 });
const meter = new CpuMeter(new URL(databaseUrl).pathname.slice(1), () => []);
try {
  await handle.migrate();
  log('members, packs and pgbench -i -s 64');
  const members = await createSessionMembers(handle.db, {
    count: MEMBERS,
    secret: 'floor-secret-floor-secret-0123456789ab',
    paid: 10_000_000,
    prefix: 'floor',
  });
  for (const id of ['floor-warm', 'floor-draw', 'floor-writes'])
    await publishLoadPack(handle.db, { id, lots: id === 'floor-warm' ? 1_000 : 400_000, price: PRICE, name: '下限' });
  await run('pgbench', ['-i', '-q', '-s', '64', databaseUrl], { maxBuffer: 64 * 1024 * 1024 });
  await handle.db.execute(sql.raw(WRITES_ONLY));
  // Every member's first draw creates their experience row, so both ways update it from here on.
  for (const member of members)
    await handle.db.execute(
      sql`select draw_execute(${member.id}, 'floor-warm', 1, ${`warm-${member.id}`}, 'warm', 0, '14 days'::interval, null)`,
    );
  const [{ no } = { no: 0 }] = await queryRows<{ no: number }>(
    handle.db,
    sql`select no from gachas where id = 'floor-writes'`,
  );
  await run('psql', ['-q', '-c', 'VACUUM ANALYZE', databaseUrl]);

  const scripts = {
    draw: `\\set m random(0, ${MEMBERS - 1})\nSELECT draw_execute('floor_' || lpad(:m::text, 5, '0'), 'floor-draw', 1, gen_random_uuid()::text, 'floor', 0, '14 days'::interval, NULL);\n`,
    writes: `\\set m random(0, ${MEMBERS - 1})\nSELECT bench_draw_writes('floor_' || lpad(:m::text, 5, '0'), 'floor-writes', 'gacha_pos_${no}');\n`,
  };
  const ids = new Set((await queryRows<{ id: string }>(handle.db, sql`select id from users`)).map((r) => r.id));
  if (!ids.has('floor_00000'))
    throw new Error(`members are not named floor_00000…: ${[...ids].slice(0, 3).join(', ')}`);
  for (const [name, text] of Object.entries(scripts))
    fs.writeFileSync(path.join(database.dataDir, `${name}.sql`), text);

  const results: Record<string, { tps: number; pgMsPerTransaction: number; cores: number; failed: number }[]> = {
    tpcb: [],
    draw: [],
    writes: [],
  };
  for (let r = 0; r < rounds; r++) {
    for (const name of ['tpcb', 'draw', 'writes'] as const) {
      await run('psql', ['-q', '-c', 'CHECKPOINT', databaseUrl]);
      const args = ['-n', '-c', String(concurrency), '-j', '2', '-T', String(seconds), '--max-tries=30'];
      if (name !== 'tpcb') args.push('-f', path.join(database.dataDir, `${name}.sql`));
      const mark = meter.mark();
      const result = await pgbench(databaseUrl, args);
      const cpu = meter.since(mark, result.transactions);
      results[name].push({
        tps: result.tps,
        pgMsPerTransaction: cpu.msPerRequest!.postgres,
        cores: cpu.coresBusy,
        failed: result.failed,
      });
      log(`${name}: ${result.tps} tps, PostgreSQL ${cpu.msPerRequest!.postgres} ms CPU a transaction`);
    }
  }
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  };
  const summary = Object.fromEntries(
    Object.entries(results).map(([name, runs]) => [
      name,
      { pgMsPerTransaction: median(runs.map((x) => x.pgMsPerTransaction)), tps: median(runs.map((x) => x.tps)) },
    ]),
  );
  const violations = await checkInvariants(handle.db);
  const report = {
    benchmark: 'draw-floor',
    date: new Date().toISOString(),
    machine: describeMachine(),
    setup: { seconds, concurrency, rounds, members: MEMBERS },
    note: "writes: the rows of a 1-lot draw written without any read or check (bench-only function); its wallet/ledger rows are consistent, so the shop's invariants still hold",
    runs: results,
    summary,
    drawOverWrites: round(summary.draw!.pgMsPerTransaction / summary.writes!.pgMsPerTransaction, 2),
    invariantViolations: violations.length,
  };
  console.log(JSON.stringify(report, null, 2));
  if (process.env.BENCH_SAVE !== '0')
    fs.writeFileSync(
      path.join(import.meta.dirname, '..', 'results', 'draw-floor.json'),
      `${JSON.stringify(report, null, 2)}\n`,
    );
} finally {
  meter.stop();
  await handle.close();
  await database.drop();
}
