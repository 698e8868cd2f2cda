// The draw's write path (issue 17, docs/decisions/046): a fresh draw answers from what it wrote instead of
// reading it back, and its cost stays within the committed budget (bench/budgets/draw.json): SQL
// statements per 1-lot and 10-lot draw, nested ones included, and WAL bytes per draw. Counts, not
// timings: both are per-backend figures that other tests on the same cluster cannot disturb
// (tests/support/draw-cost.ts says how each is taken).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMemberWithCoins, createPublishedPack } from '#tests/fixtures';
import { createSessionMembers, type SessionMember } from '#tests/members';
import { canCountStatements, drawPlanCount, drawStatementCount, drawWalBytes, type DrawCall } from '#tests/draw-cost';
import { queryRows } from '#db/client';
import { sqlState } from '#modules/draw';

const handle = useTestDatabase('draw-write-path');

interface Budget {
  statementsPerDraw: { oneLot: number; tenLot: number };
  plansPerDraw: { oneLot: number; tenLot: number };
  walBytesPerDraw: { oneLot: number; tenLot: number };
}
const budget = JSON.parse(fs.readFileSync(new URL('../../bench/budgets/draw.json', import.meta.url), 'utf8')) as Budget;

type Answer = { status: string; drawId: string; [key: string]: unknown };

/** One draw through draw_execute, its raw jsonb answer, and draw_answer's reading of the same draw. */
async function drawAndReadBack(memberId: string, gachaId: string, count: number) {
  const key = randomUUID();
  let fresh: Answer | undefined;
  // As drawLots does: the end of a pack and a キリ番 ask the caller to retry the call (40001).
  for (let attempt = 0; !fresh; attempt++) {
    try {
      const [row] = await queryRows<{ fresh: Answer }>(
        handle.db,
        sql`select draw_execute(${memberId}::text, ${gachaId}::text, ${count}::int, ${key}::text, 'h'::text, 0,
                                '14 days'::interval, null::timestamptz) as fresh`,
      );
      fresh = row!.fresh;
    } catch (error) {
      if (sqlState(error) !== '40001' || attempt > 5) throw error;
    }
  }
  const [back] = await queryRows<{ stored: Answer }>(
    handle.db,
    sql`select draw_answer(${fresh.drawId}::uuid, false) as stored`,
  );
  return { fresh, stored: back!.stored };
}

describe("a fresh draw's answer", () => {
  it('is exactly what draw_answer reads back: 1 and 10 lots, a キリ番賞 and the ラストワン賞', async () => {
    const db = handle.db;
    const member = await createMemberWithCoins(db, { paid: 100_000, free: 300 });
    const gachaId = await createPublishedPack(db, { lots: 40, price: 10, drawOptions: [1, 10] });
    for (const count of [1, 10, 1, 10]) {
      const { fresh, stored } = await drawAndReadBack(member, gachaId, count);
      expect(fresh.status).toBe('completed');
      expect(fresh).toEqual(stored);
    }
    // The rare paths answer through draw_answer itself; they stay the same answer too.
    const special = await createPublishedPack(db, {
      lots: 12,
      price: 10,
      lastOne: true,
      kiribanAt: [2],
      drawOptions: [1, 10],
    });
    for (const count of [1, 1, 10]) {
      const { fresh, stored } = await drawAndReadBack(member, special, count);
      expect(fresh.status).toBe('completed');
      expect(fresh).toEqual(stored);
    }
    const [{ n }] = (await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from prizes p join draws d on d.id = p.draw_id
           where d.gacha_id = ${special} and (p.kiriban_no is not null or p.position is null)`,
    )) as [{ n: number }];
    expect(n).toBe(2); // the キリ番賞 and the ラストワン賞 were both drawn in that pack
  });
});

describe('the draw budget (bench/budgets/draw.json)', () => {
  let client: pg.Client | undefined;
  let members: SessionMember[] = [];
  let gachaId = '';
  let seq = 0;
  const call = (count: number): DrawCall => {
    const member = members[seq % members.length]!;
    seq += 1;
    // The API's call (modules/draw/index.ts, drawLotsForSession), as the server sends it.
    return {
      text: `select draw_execute_for_session($1::text, '29 days'::interval, $2::text, $3::int, $4::text, 'h'::text, 0,
               '14 days'::interval, null::timestamptz) as r`,
      params: [member.token, gachaId, count, `budget-${randomUUID()}`],
    };
  };

  beforeAll(async () => {
    if (handle.engine !== 'postgres' || !handle.databaseUrl) return;
    client = new pg.Client({ connectionString: handle.databaseUrl });
    await client.connect();
    members = await createSessionMembers(handle.db, {
      count: 8,
      secret: 'budget-secret-budget-secret-0123456789',
      paid: 1_000_000,
    });
    // Price 1: a member's experience stays far below level 2 (1,000), so no level-up mail adds statements.
    gachaId = await createPublishedPack(handle.db, { lots: 5_000, price: 1, drawOptions: [1, 10] });
    // Every member has drawn once (their experience row exists), as nearly every draw's member has.
    for (let i = 0; i < members.length; i++) {
      const first = call(1);
      await client.query(first.text, first.params);
    }
    seq = 0;
  });
  afterAll(async () => {
    await client?.end();
  });

  it('runs no more SQL statements per 1-lot and 10-lot draw than the budget', async (ctx) => {
    if (!client) return ctx.skip('PostgreSQL only: PGlite cannot load auto_explain, the statement counter');
    if (!(await canCountStatements(client)))
      return ctx.skip(
        'auto_explain cannot be loaded here (PostgreSQL without its contrib modules, or not a superuser)',
      );
    for (const [name, count] of [
      ['oneLot', 1],
      ['tenLot', 10],
    ] as const) {
      const counted = await drawStatementCount(client, call(count));
      expect((counted.answer as { r: { status: string } }).r.status).toBe('completed');
      expect(
        counted.total,
        `${name}: ${counted.total} statements (budget ${budget.statementsPerDraw[name]}):\n${counted.statements.join('\n')}`,
      ).toBeLessThanOrEqual(budget.statementsPerDraw[name]);
    }
  });

  it('plans no more statements per draw than the budget once its connection has drawn (decision 079)', async (ctx) => {
    if (!client) return ctx.skip('PostgreSQL only: PGlite sends no planner statistics');
    // The connection drew already (beforeAll); these draws find every nested statement's plan cached.
    for (const [name, count] of [
      ['oneLot', 1],
      ['tenLot', 10],
    ] as const) {
      for (let i = 0; i < 3; i++) {
        const counted = await drawPlanCount(client, call(count));
        expect((counted.answer as { r: { status: string } }).r.status).toBe('completed');
        expect(counted.plans, `${name}: planner runs in one draw`).toBeLessThanOrEqual(budget.plansPerDraw[name]);
      }
    }
  });

  it('writes no more WAL per 1-lot and 10-lot draw than the budget (median of draws without full-page images)', async (ctx) => {
    if (!client)
      return ctx.skip(
        'PostgreSQL only: the budget is what a PostgreSQL primary writes; PGlite (PostgreSQL 17 in one WASM process) is the embedded default, not what the budget is for',
      );
    for (const [name, count] of [
      ['oneLot', 1],
      ['tenLot', 10],
    ] as const) {
      // A checkpoint (any test's, or the timed one) makes the next change of each page log the whole
      // page: those draws say so (WAL FPI > 0) and are left out; the rest are the draw's own cost.
      const clean: number[] = [];
      for (let i = 0; i < 40 && clean.length < 9; i++) {
        const measured = await drawWalBytes(client, call(count));
        if (measured.fullPageImages === 0) clean.push(measured.bytes);
      }
      expect(clean.length, `${name}: too few draws without a full-page image`).toBeGreaterThanOrEqual(5);
      clean.sort((a, b) => a - b);
      const median = clean[Math.floor(clean.length / 2)]!;
      expect(
        median,
        `${name}: ${median} WAL bytes per draw (budget ${budget.walBytesPerDraw[name]}), ${clean}`,
      ).toBeLessThanOrEqual(budget.walBytesPerDraw[name]);
    }
  });
});
