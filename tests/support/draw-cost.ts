// Per-backend measures of one draw's cost on PostgreSQL, shared by the draw budget test
// (modules/draw/cost-budget.db.test.ts) and the profile (bench/draw/profile.ts). Both are counts that
// other sessions on the same cluster cannot disturb:
//   * WAL bytes: EXPLAIN (ANALYZE, WAL) on the draw's own statement. The executor's WAL counters are
//     the backend's, and the draw function runs inside the plan's Result node, so every nested
//     statement's WAL is in the figure; the commit record (a few dozen bytes, written after the plan)
//     is not.
//   * Statements: auto_explain, loaded into this session only (LOAD needs a superuser, not a
//     preload), logs every statement the executor runs — nested ones included — as a NOTICE sent to
//     this client. A draw's path through its PL/pgSQL functions is fixed for a given situation, so the
//     count is deterministic: the same set pg_stat_statements (track = all) counts. Simple PL/pgSQL
//     expressions (assignments, IF tests without a table) never reach the executor and are not counted.
import type pg from 'pg';

export interface DrawCall {
  text: string;
  params: unknown[];
}

/**
 * The WAL one execution of `call` writes in this backend (the plan's top node, nested statements included),
 * and how many full-page images are in it (the first change of a page after a checkpoint logs the page).
 */
export async function drawWalBytes(
  client: pg.Client,
  call: DrawCall,
): Promise<{ bytes: number; records: number; fullPageImages: number }> {
  const result = await client.query(
    `EXPLAIN (ANALYZE, WAL, COSTS OFF, TIMING OFF, FORMAT JSON) ${call.text}`,
    call.params,
  );
  const raw = (result.rows[0] as Record<string, unknown>)['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: Record<string, number> }[];
  const top = plan[0]!.Plan;
  if (typeof top['WAL Bytes'] !== 'number') throw new Error('EXPLAIN gave no WAL Bytes');
  return { bytes: top['WAL Bytes'], records: top['WAL Records'] ?? 0, fullPageImages: top['WAL FPI'] ?? 0 };
}

/** Whether this session can load auto_explain (PostgreSQL with its contrib modules, as a superuser). */
export async function canCountStatements(client: pg.Client): Promise<boolean> {
  try {
    await client.query(`LOAD 'auto_explain'`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `call` once and counts the statements the executor ran for it, the top-level one included,
 * with the first line of each (in the order they finished: nested before their callers).
 */
export async function drawStatementCount(
  client: pg.Client,
  call: DrawCall,
): Promise<{ total: number; statements: string[]; answer: unknown }> {
  const statements: string[] = [];
  const onNotice = (notice: { message?: string }) => {
    const message = notice.message ?? '';
    if (!message.startsWith('duration:')) return;
    const text = /Query Text: \s*([^\n]*)/.exec(message)?.[1] ?? '?';
    statements.push(text.replace(/\s+/g, ' ').trim().slice(0, 160));
  };
  await client.query(`LOAD 'auto_explain'`);
  await client.query(`SET auto_explain.log_level = notice`);
  await client.query(`SET auto_explain.log_nested_statements = on`);
  await client.query(`SET auto_explain.log_format = text`);
  await client.query(`SET auto_explain.log_min_duration = 0`);
  client.on('notice', onNotice);
  let answer: unknown;
  try {
    answer = (await client.query(call.text, call.params)).rows[0];
  } finally {
    await client.query(`SET auto_explain.log_min_duration = -1`);
    client.off('notice', onNotice);
  }
  // The SET that switched logging off ran with logging on: it is no statement of the draw. SET is a
  // utility statement and never reaches the executor, so nothing is logged for it; nothing to remove.
  return { total: statements.length, statements, answer };
}

/**
 * Runs `call` once and counts how many times PostgreSQL's planner ran for it, the top-level statement
 * included: `log_planner_stats` (a superuser's setting) reports every planner run, nested ones in PL/pgSQL
 * functions too, as a LOG message, sent to this client while client_min_messages is `log`. A statement
 * whose cached plan is reused plans nothing.
 */
export async function drawPlanCount(client: pg.Client, call: DrawCall): Promise<{ plans: number; answer: unknown }> {
  let plans = 0;
  const onNotice = (notice: { message?: string }) => {
    if ((notice.message ?? '').startsWith('PLANNER STATISTICS')) plans += 1;
  };
  await client.query(`SET client_min_messages = log`);
  await client.query(`SET log_planner_stats = on`);
  client.on('notice', onNotice);
  let answer: unknown;
  try {
    answer = (await client.query(call.text, call.params)).rows[0];
  } finally {
    // SET is a utility statement: the planner does not run for it.
    await client.query(`SET log_planner_stats = off`);
    client.off('notice', onNotice);
    await client.query(`SET client_min_messages = notice`);
  }
  return { plans, answer };
}
