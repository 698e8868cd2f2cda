// Correctness storm: node storm.js <mech a..e> [requests=12000] [lots=10000]
// 10,000-lot pack, 12,000 draw requests (90% k=1, 10% k=10) over a pool of 64,
// plus: ~5% client retries re-using an earlier key (must replay the same draw),
//       ~3% "client rollback" (BEGIN; SELECT draw_x(); ROLLBACK) -> must leave nothing,
//       members 1..20 only have 500 coins -> insufficient_balance refusals.
// Then SQL invariant checks, then the 50-concurrent-duplicates test.
const { Pool } = require('pg');
const mech = process.argv[2] || 'd';
const NREQ = +(process.argv[3] || 12000);
const NLOTS = +(process.argv[4] || 10000);
const PRICE = 100,
  MEMBERS = 200,
  POOR = 20,
  POOR_BAL = 500,
  RICH_BAL = 1000000000;
const fn = `draw_${mech}`;
const pool = new Pool({ host: '127.0.0.1', user: 'postgres', database: 'drawlab', max: 64 });

let seed = 12345;
const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;

async function main() {
  const c0 = await pool.connect();
  await c0.query(`CALL reset_all(1, $1, $2, $3, $4, $5)`, [NLOTS, PRICE, mech.toUpperCase(), MEMBERS, RICH_BAL]);
  await c0.query(`UPDATE members SET balance = $1 WHERE id <= $2`, [POOR_BAL, POOR]);
  await c0.query(`DROP TABLE IF EXISTS storm_initial;
                  CREATE TABLE storm_initial AS SELECT id, balance FROM members`);
  c0.release();

  // build request list
  const reqs = [];
  const issued = []; // earlier (member,key,k) for retries
  for (let i = 0; i < NREQ; i++) {
    const r = rnd();
    if (r < 0.05 && issued.length > 0) {
      const p = issued[Math.floor(rnd() * issued.length)];
      reqs.push({ ...p, kind: 'retry' });
    } else {
      const member = 1 + Math.floor(rnd() * MEMBERS);
      const k = rnd() < 0.9 ? 1 : 10;
      const key = `storm-${i}`;
      const kind = rnd() < 0.03 ? 'rollback' : 'normal';
      const q = { member, k, key, kind };
      reqs.push(q);
      if (kind === 'normal') issued.push({ member, k, key });
    }
  }

  const results = new Array(reqs.length);
  let next = 0,
    errors = 0;
  const t0 = Date.now();
  async function worker() {
    while (true) {
      const i = next++;
      if (i >= reqs.length) return;
      const q = reqs[i];
      try {
        if (q.kind === 'rollback') {
          const c = await pool.connect();
          try {
            await c.query('BEGIN');
            const r = await c.query(`SELECT ${fn}($1, 1, $2, $3) AS j`, [q.member, q.k, q.key]);
            await c.query('ROLLBACK');
            results[i] = { q, j: r.rows[0].j, rolledBack: true };
          } finally {
            c.release();
          }
        } else {
          const r = await pool.query(`SELECT ${fn}($1, 1, $2, $3) AS j`, [q.member, q.k, q.key]);
          results[i] = { q, j: r.rows[0].j };
        }
      } catch (e) {
        errors++;
        results[i] = { q, err: e.message };
      }
    }
  }
  await Promise.all(Array.from({ length: 64 }, worker));
  const ms = Date.now() - t0;

  // ---- client-side tallies
  const tally = {};
  const firstByKey = new Map(); // member|key -> draw_id of committed draw
  let replayMismatch = 0,
    okCommitted = 0,
    lotsReturned = 0;
  for (const r of results) {
    if (r.err) {
      tally['error:' + r.err] = (tally['error:' + r.err] || 0) + 1;
      continue;
    }
    const tag = r.rolledBack ? 'rolledback' : r.j.ok ? (r.j.replay ? 'ok_replay' : 'ok_new') : 'refused_' + r.j.reason;
    tally[tag] = (tally[tag] || 0) + 1;
    if (!r.rolledBack && r.j.ok) {
      const id = `${r.q.member}|${r.q.key}`;
      if (firstByKey.has(id) && firstByKey.get(id) !== r.j.draw_id) replayMismatch++;
      firstByKey.set(id, r.j.draw_id);
      if (!r.j.replay) {
        okCommitted++;
        lotsReturned += r.j.lots.length;
      }
    }
  }

  // ---- SQL checks
  const Q = async (sql) => (await pool.query(sql)).rows[0];
  const checks = {
    claimed_lots: await Q(`SELECT count(*)::int AS v FROM lots WHERE draw_id IS NOT NULL`),
    pack_counter: await Q(`SELECT next_position AS v FROM packs WHERE id=1`),
    result_rows: await Q(`SELECT count(*)::int AS v FROM draw_results`),
    distinct_result_lots: await Q(`SELECT count(DISTINCT (pack_id, position))::int AS v FROM draw_results`),
    results_not_matching_lots: await Q(
      `SELECT count(*)::int AS v FROM draw_results r JOIN lots l USING (pack_id, position) WHERE l.draw_id IS DISTINCT FROM r.draw_id`,
    ),
    lots_claimed_without_result: await Q(
      `SELECT count(*)::int AS v FROM lots l WHERE draw_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM draw_results r WHERE r.pack_id=l.pack_id AND r.position=l.position)`,
    ),
    draws: await Q(`SELECT count(*)::int AS v FROM draws`),
    draws_with_wrong_lot_count: await Q(
      `SELECT count(*)::int AS v FROM draws d WHERE d.k <> (SELECT count(*) FROM lots l WHERE l.draw_id=d.id) OR d.k <> (SELECT count(*) FROM draw_results r WHERE r.draw_id=d.id)`,
    ),
    draws_without_exactly_one_debit: await Q(
      `SELECT count(*)::int AS v FROM draws d WHERE (SELECT count(*) FROM ledger g WHERE g.draw_id=d.id AND g.amount<0) <> 1`,
    ),
    ledger_rows: await Q(`SELECT count(*)::int AS v FROM ledger`),
    ledger_debit_sum: await Q(`SELECT -sum(amount)::bigint AS v FROM ledger`),
    claimed_times_price: await Q(`SELECT (count(*)*${PRICE})::bigint AS v FROM lots WHERE draw_id IS NOT NULL`),
    wallet_decrease: await Q(
      `SELECT (sum(i.balance) - sum(m.balance))::bigint AS v FROM members m JOIN storm_initial i USING (id)`,
    ),
    members_balance_mismatch: await Q(
      `SELECT count(*)::int AS v FROM members m JOIN storm_initial i USING (id) WHERE i.balance - m.balance <> coalesce((SELECT sum(d.cost) FROM draws d WHERE d.member_id=m.id),0) OR i.balance - m.balance <> -coalesce((SELECT sum(amount) FROM ledger g WHERE g.member_id=m.id),0)`,
    ),
    negative_balances: await Q(`SELECT count(*)::int AS v FROM members WHERE balance < 0`),
    min_balance: await Q(`SELECT min(balance)::bigint AS v FROM members`),
    ledger_balance_after_mismatch: await Q(
      `SELECT count(*)::int AS v FROM (SELECT member_id, balance_after, lead(balance_after) OVER w AS nxt, lead(amount) OVER w AS nxt_amt FROM ledger WINDOW w AS (PARTITION BY member_id ORDER BY id)) s WHERE nxt IS NOT NULL AND nxt <> balance_after + nxt_amt`,
    ),
  };
  const flat = Object.fromEntries(Object.entries(checks).map(([k, v]) => [k, v.v === null ? null : Number(v.v)]));

  // refused / rolled-back requests left nothing: their (member,key) must have no draw row
  // unless some other (committed) request with the same key succeeded
  const committedKeys = new Set([...firstByKey.keys()]);
  const leftovers = [];
  for (const r of results) {
    if (r.err) continue;
    if (r.rolledBack || !r.j.ok) {
      const id = `${r.q.member}|${r.q.key}`;
      if (!committedKeys.has(id)) leftovers.push([r.q.member, r.q.key]);
    }
  }
  let refusedLeftTrace = 0;
  for (let i = 0; i < leftovers.length; i += 500) {
    const chunk = leftovers.slice(i, i + 500);
    const r = await pool.query(
      `SELECT count(*)::int AS v FROM draws d JOIN unnest($1::bigint[], $2::text[]) u(m,k) ON d.member_id=u.m AND d.idem_key=u.k`,
      [chunk.map((x) => x[0]), chunk.map((x) => x[1])],
    );
    refusedLeftTrace += r.rows[0].v;
  }

  const ok =
    flat.claimed_lots === NLOTS &&
    flat.result_rows === NLOTS &&
    flat.distinct_result_lots === NLOTS &&
    flat.results_not_matching_lots === 0 &&
    flat.lots_claimed_without_result === 0 &&
    flat.draws === okCommitted &&
    flat.draws_with_wrong_lot_count === 0 &&
    flat.draws_without_exactly_one_debit === 0 &&
    flat.ledger_rows === flat.draws &&
    flat.ledger_debit_sum === flat.claimed_times_price &&
    flat.wallet_decrease === flat.claimed_times_price &&
    flat.members_balance_mismatch === 0 &&
    flat.negative_balances === 0 &&
    flat.ledger_balance_after_mismatch === 0 &&
    refusedLeftTrace === 0 &&
    replayMismatch === 0 &&
    lotsReturned === NLOTS &&
    errors === 0;

  console.log(
    JSON.stringify(
      {
        mech,
        requests: NREQ,
        ms,
        tally,
        okCommitted,
        lotsReturned,
        replayMismatch,
        refused_or_rolledback_checked: leftovers.length,
        refusedLeftTrace,
        errors,
        checks: flat,
      },
      null,
      1,
    ),
  );
  console.log(`STORM ${mech}: ${ok ? 'PASS' : 'FAIL'}`);

  // ---- 50 concurrent duplicates with the SAME (member, key)
  const dupRes = await Promise.all(
    Array.from({ length: 50 }, () =>
      pool.query(`SELECT ${fn}(150, 1, 1, 'dup-key') AS j`).then(
        (r) => r.rows[0].j,
        (e) => ({ err: e.message }),
      ),
    ),
  );
  // pack is sold out now -> use a fresh pack for the dup test
  await pool.query(`CALL reset_all(1, 1000, ${PRICE}, '${mech.toUpperCase()}')`);
  const before = (await pool.query(`SELECT balance FROM members WHERE id=150`)).rows[0].balance;
  const dup = await Promise.all(
    Array.from({ length: 50 }, () =>
      pool.query(`SELECT ${fn}(150, 1, 10, 'dup-key') AS j`).then(
        (r) => r.rows[0].j,
        (e) => ({ err: e.message }),
      ),
    ),
  );
  const ids = new Set(dup.map((j) => j.draw_id));
  const news = dup.filter((j) => j.ok && !j.replay).length;
  const after = (await pool.query(`SELECT balance FROM members WHERE id=150`)).rows[0].balance;
  const dbDraws = (await pool.query(`SELECT count(*)::int AS v FROM draws WHERE member_id=150 AND idem_key='dup-key'`))
    .rows[0].v;
  const dbLots = (await pool.query(`SELECT count(*)::int AS v FROM lots WHERE draw_id IS NOT NULL`)).rows[0].v;
  const sameLots = new Set(dup.map((j) => JSON.stringify(j.lots))).size;
  const dupOk =
    ids.size === 1 &&
    news === 1 &&
    dbDraws === 1 &&
    dbLots === 10 &&
    BigInt(before) - BigInt(after) === 1000n &&
    sameLots === 1 &&
    dup.every((j) => j.ok);
  console.log(
    JSON.stringify({
      soldOutDupTest: [...new Set(dupRes.map((j) => JSON.stringify(j)))],
      dup50: {
        distinctDrawIds: [...ids],
        newDraws: news,
        replays: dup.filter((j) => j.replay).length,
        errors: dup.filter((j) => j.err).length,
        dbDrawRows: dbDraws,
        lotsClaimed: dbLots,
        debited: (BigInt(before) - BigInt(after)).toString(),
        distinctLotLists: sameLots,
      },
    }),
  );
  console.log(`DUP50 ${mech}: ${dupOk ? 'PASS' : 'FAIL'}`);
  await pool.end();
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
