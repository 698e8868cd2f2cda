// bench/draw/profile.ts: where a draw's cost goes (issue 17). Not a rate benchmark: one client draws
// sequentially in a quiet database and the script counts, per 1-lot and per 10-lot draw,
//   * the SQL statements executed, nested ones included (auto_explain's per-statement notices, and
//     pg_stat_statements with track = all when the cluster preloads it),
//   * the WAL bytes (pg_current_wal_lsn around the draws; by relation and record type with pg_walinspect;
//     and EXPLAIN (ANALYZE, WAL) on single draws, the per-backend figure the CI budget uses),
//   * the time by statement (pg_stat_statements), and each written table's HOT updates and indexes.
// Prints one JSON report and saves it as bench/results/draw-profile.json (unless BENCH_SAVE=0).
//
//   PROFILE_DATABASE_URL=postgres://postgres@127.0.0.1:5439/postgres npx tsx bench/draw/profile.ts
//
// PROFILE_DATABASE_URL is the admin URL of a cluster where this script may create a database; for the
// time table, start a throwaway cluster with shared_preload_libraries = 'pg_stat_statements' and
// pg_stat_statements.track = all (bench/README.md). WAL figures need nobody else writing on that cluster.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { createTestDatabase } from '#tests/database';
import { createSessionMembers } from '#tests/members';
import { publishLoadPack } from '#tests/fixtures';
import { openDatabase } from '#db/client';
import { drawStatementCount, drawWalBytes, type DrawCall } from '#tests/draw-cost';

const adminUrl = process.env.PROFILE_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const DRAWS = Number(process.env.PROFILE_DRAWS ?? 2000);
const MEMBERS = 200;
const log = (message: string) => process.stderr.write(`[profile:draw] ${message}\n`);
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

if (adminUrl) process.env.TEST_DATABASE_URL = adminUrl;
const database = await createTestDatabase('draw_profile');
if (database.engine !== 'postgres' || !database.databaseUrl) {
  console.log(JSON.stringify({ benchmark: 'draw-profile', skipped: 'needs PostgreSQL' }));
  await database.drop();
  process.exit(1);
}
const handle = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, poolSize: 2 });
const client = new pg.Client({ connectionString: database.databaseUrl });
try {
  await handle.migrate();
  const members = await createSessionMembers(handle.db, {
    count: MEMBERS,
    secret: 'profile-secret-profile-secret-0123456789',
    paid: 2_000_000,
    prefix: 'prof',
  });
  await publishLoadPack(handle.db, { id: 'prof-1lot', lots: 100_000, price: 100, name: 'プロファイル' });
  await publishLoadPack(handle.db, { id: 'prof-10lot', lots: 100_000, price: 100, name: 'プロファイル' });
  await client.connect();
  await client.query('VACUUM ANALYZE');
  const q = async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[];
  const [{ pss }] = await q<{ pss: boolean }>(
    `select exists (select 1 from pg_available_extensions where name = 'pg_stat_statements')
        and current_setting('shared_preload_libraries') like '%pg_stat_statements%' as pss`,
  );
  if (pss) await q('create extension if not exists pg_stat_statements');
  await q('create extension if not exists pg_walinspect');

  let seq = 0;
  const call = (pack: string, count: number): DrawCall => {
    const member = members[seq % MEMBERS]!;
    seq += 1;
    return {
      text: `select draw_execute_for_session($1::text, '29 days'::interval, $2::text, $3::int, $4::text, $5::text, 0,
               '14 days'::interval, null::timestamptz) as r`,
      params: [member.token, pack, count, `prof-${seq}`, `hash-${pack}-${count}`],
    };
  };
  const drawMany = async (pack: string, count: number, n: number) => {
    for (let i = 0; i < n; i++) {
      const c = call(pack, count);
      const [row] = await q<{ r: { status: string } }>(c.text, c.params);
      if (row!.r.status !== 'completed') throw new Error(`draw not completed: ${JSON.stringify(row!.r)}`);
    }
  };

  const [{ oid: databaseOid }] = await q<{ oid: string }>(
    'select oid::text as oid from pg_database where datname = current_database()',
  );
  const relationNames = async () => {
    const rows = await q<{ node: string; name: string }>(
      `select pg_relation_filenode(c.oid)::text as node, c.relname as name from pg_class c
        where pg_relation_filenode(c.oid) is not null`,
    );
    return new Map(rows.map((r) => [r.node, r.name]));
  };

  const profile = async (pack: string, count: number) => {
    log(`${count}-lot draws: warm-up, checkpoint, settle`);
    await drawMany(pack, count, 300);
    await q('CHECKPOINT');
    await drawMany(pack, count, 300); // the hot pages' first images after the checkpoint
    const names = await relationNames();
    const tablesBefore = await q<Record<string, string>>(
      `select relname, n_tup_upd, n_tup_hot_upd, n_tup_ins from pg_stat_user_tables`,
    );
    if (pss) await q('select pg_stat_statements_reset()');
    const [{ lsn: lsn0 }] = await q<{ lsn: string }>('select pg_current_wal_lsn() as lsn');
    const started = performance.now();
    log(`${count}-lot draws: ${DRAWS} measured`);
    await drawMany(pack, count, DRAWS);
    const elapsedMs = performance.now() - started;
    const [{ lsn: lsn1, bytes }] = await q<{ lsn: string; bytes: string }>(
      'select pg_current_wal_lsn() as lsn, pg_wal_lsn_diff(pg_current_wal_lsn(), $1) as bytes',
      [lsn0],
    );
    const statements = pss
      ? await q<Record<string, string | number | boolean>>(
          `select toplevel, calls, rows, round(total_exec_time::numeric, 1) as total_ms,
                  wal_records, wal_fpi, wal_bytes::bigint as wal_bytes, regexp_replace(query, '\\s+', ' ', 'g') as query
             from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
              and query not like '%pg_current_wal_lsn%' and query not like '%pg_stat_statements%'
            order by total_exec_time desc`,
        )
      : [];
    const records = await q<{ rmgr: string; type: string; block_ref: string | null; len: number; fpi: number }>(
      `select resource_manager as rmgr, record_type as type, block_ref, record_length as len, fpi_length as fpi
         from pg_get_wal_records_info($1, $2)`,
      [lsn0, lsn1],
    );
    await new Promise((resolve) => setTimeout(resolve, 1500)); // table statistics reach the shared view
    await q('select pg_stat_clear_snapshot()');
    const tablesAfter = await q<Record<string, string>>(
      `select relname, n_tup_upd, n_tup_hot_upd, n_tup_ins from pg_stat_user_tables`,
    );

    // WAL by relation (the first block a record touches) and by record type.
    const byRelation = new Map<string, { records: number; bytes: number; fpiBytes: number }>();
    const byType = new Map<string, { records: number; bytes: number }>();
    for (const r of records) {
      const ref = /rel \d+\/(\d+)\/(\d+)/.exec(r.block_ref ?? '');
      const relation = !ref
        ? `(${r.rmgr} ${r.type})`
        : ref[1] !== databaseOid && ref[1] !== '0'
          ? '(another database)'
          : (names.get(ref[2]!) ?? `filenode ${ref[2]}`);
      const e = byRelation.get(relation) ?? { records: 0, bytes: 0, fpiBytes: 0 };
      e.records += 1;
      e.bytes += r.len;
      e.fpiBytes += r.fpi;
      byRelation.set(relation, e);
      const key = `${r.rmgr}/${r.type}`;
      const t = byType.get(key) ?? { records: 0, bytes: 0 };
      t.records += 1;
      t.bytes += r.len;
      byType.set(key, t);
    }
    const perDraw = (n: number) => round(n / DRAWS, 2);
    const walByRelation = [...byRelation.entries()]
      .map(([relation, e]) => ({
        relation,
        recordsPerDraw: perDraw(e.records),
        bytesPerDraw: perDraw(e.bytes),
        fpiBytesPerDraw: perDraw(e.fpiBytes),
      }))
      .sort((a, b) => b.bytesPerDraw - a.bytesPerDraw);
    const walByRecordType = [...byType.entries()]
      .map(([type, e]) => ({ type, recordsPerDraw: perDraw(e.records), bytesPerDraw: perDraw(e.bytes) }))
      .sort((a, b) => b.bytesPerDraw - a.bytesPerDraw);
    const before = new Map(tablesBefore.map((t) => [t.relname, t]));
    const tables = tablesAfter
      .map((t) => {
        const b = before.get(t.relname!);
        const d = (k: string) => Number(t[k]) - Number(b?.[k] ?? 0);
        return { table: t.relname!, inserts: d('n_tup_ins'), updates: d('n_tup_upd'), hotUpdates: d('n_tup_hot_upd') };
      })
      .filter((t) => t.inserts + t.updates > 0)
      .map((t) => ({
        ...t,
        insertsPerDraw: perDraw(t.inserts),
        updatesPerDraw: perDraw(t.updates),
        hotShare: t.updates ? round(t.hotUpdates / t.updates, 3) : null,
      }));
    const nested = statements.filter((s) => !s.toplevel);
    const statementsPerDraw = pss ? perDraw(statements.reduce((n, s) => n + Number(s.calls), 0)) : null;
    const totalMs = statements.filter((s) => s.toplevel).reduce((n, s) => n + Number(s.total_ms), 0);
    const timeByStatement = statements.map((s) => ({
      toplevel: s.toplevel,
      callsPerDraw: perDraw(Number(s.calls)),
      msPerDraw: round(Number(s.total_ms) / DRAWS, 4),
      shareOfDraw: totalMs ? round(Number(s.total_ms) / totalMs, 3) : null,
      walBytesPerDraw: perDraw(Number(s.wal_bytes)),
      walFpiPerDraw: perDraw(Number(s.wal_fpi)),
      query: String(s.query).slice(0, 240),
    }));

    // The CI budget's per-backend measures, on single draws.
    const explainWal: number[] = [];
    let withImages = 0;
    while (explainWal.length < 21) {
      const measured = await drawWalBytes(client, call(pack, count));
      if (measured.fullPageImages === 0) explainWal.push(measured.bytes);
      else withImages += 1;
    }
    explainWal.sort((a, b) => a - b);
    const counted = await drawStatementCount(client, call(pack, count));

    return {
      lotsPerDraw: count,
      draws: DRAWS,
      clientMsPerDraw: round(elapsedMs / DRAWS, 3),
      walBytesPerDraw: round(Number(bytes) / DRAWS, 1),
      walRecordsPerDraw: perDraw(records.length),
      explainWalBytes: {
        median: explainWal[10],
        min: explainWal[0],
        max: explainWal[20],
        drawsWithFullPageImagesLeftOut: withImages,
      },
      statementsPerDraw: { pgStatStatements: statementsPerDraw, autoExplain: counted.total, nested: nested.length },
      autoExplainStatements: counted.statements,
      walByRelation,
      walByRecordType,
      tables,
      timeByStatement,
    };
  };

  const oneLot = await profile('prof-1lot', 1);
  const tenLot = await profile('prof-10lot', 10);

  const indexes = await q<{ table: string; index: string; definition: string; bytes: string; scans: string }>(
    `select i.relname as table, i.indexrelname as index, pg_get_indexdef(i.indexrelid) as definition,
            pg_relation_size(i.indexrelid) as bytes, i.idx_scan as scans
       from pg_stat_user_indexes i
      where i.relname in ('draws', 'prizes', 'coin_ledger', 'coin_grants', 'wallets', 'gacha_lots', 'member_progress',
                          'gacha_member_draws', 'gachas')
      order by i.relname, i.indexrelname`,
  );
  const [settings] = await q<Record<string, string>>(
    `select current_setting('server_version') as version, current_setting('synchronous_commit') as sync,
            current_setting('full_page_writes') as fpw, current_setting('wal_level') as wal_level`,
  );
  const report = {
    benchmark: 'draw-profile',
    date: new Date().toISOString(),
    database: settings,
    pgStatStatements: pss,
    setup: {
      members: MEMBERS,
      grantsPerMember: 1,
      packLots: 100_000,
      call: 'draw_execute_for_session (the API path), one client, sequential',
    },
    oneLot,
    tenLot,
    indexes,
  };
  const out = JSON.stringify(report, null, 2);
  console.log(out);
  if (process.env.BENCH_SAVE !== '0') {
    fs.mkdirSync(path.join('bench', 'results'), { recursive: true });
    fs.writeFileSync(path.join('bench', 'results', process.env.PROFILE_OUT ?? 'draw-profile.json'), out + '\n');
  }
} finally {
  await client.end().catch(() => undefined);
  await handle.close();
  await database.drop();
}
