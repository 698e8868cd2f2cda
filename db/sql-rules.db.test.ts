// Rules the SQL and the TypeScript share, checked against the functions installed in a migrated
// database: a test here fails when the two disagree (issue 10, docs/decisions/010). Lifetimes and
// windows live in the settings and reach the SQL as parameters; the SQL holds none of its own.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '#tests/database';
import { createMember, createMemberWithCoins, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { loadConfig } from '#server/config';
import { PAID_COIN_DAYS, FREE_COIN_DAYS, LEDGER_REASON_LABELS, getBalance, grantCoins } from '#modules/wallet';
import {
  PRIZE_DECISION_DAYS,
  KEPT_PRIZE_STORAGE_DAYS,
  DRAW_REFUSAL_CODES,
  PRIZE_CONVERT_SQL_REFUSAL_CODES,
  CONVERSION_UNDO_REFUSAL_CODES,
  drawLots,
  convertPrizes,
  type DrawRefusalCode,
} from '#modules/draw';
import { describeRefusal } from '#modules/refusals';
import { isStaff } from '#server/api/v1/auth';
import { DAY, FREE_COIN_MS, KEPT_PRIZE_STORAGE_MS, PAID_COIN_MS, PRIZE_DECISION_MS } from '#tests/model';
import { listModuleSqlFiles } from './module-sql';

/** The rows of a db.execute answer (both engines answer { rows }). */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

let testDb: TestDatabase;
let handle: DatabaseHandle;

beforeAll(async () => {
  testDb = await createTestDatabase('sql_rules');
  handle = await openDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir, poolSize: 2 });
  await handle.migrate();
});
afterAll(async () => {
  await handle?.close();
  await testDb?.drop();
});

/** The installed body of a function (all overloads joined). */
async function bodyOf(name: string): Promise<string> {
  const rows = rowsOf<{ prosrc: string }>(
    await handle.db.execute(
      sql`select prosrc from pg_proc where proname = ${name} and pronamespace = 'public'::regnamespace`,
    ),
  );
  expect(rows.length, `function ${name} is installed`).toBeGreaterThan(0);
  return rows.map((r) => r.prosrc).join('\n');
}

const all = (text: string, pattern: RegExp) =>
  [...text.matchAll(pattern)].map((m) => m.slice(1).filter(Boolean)).flat();

describe('rules shared by the SQL and the TypeScript', () => {
  it('keeps no lifetime or window in the SQL: every interval comes from the caller', async () => {
    const functions = listModuleSqlFiles().flatMap((f) =>
      [...f.text.matchAll(/CREATE OR REPLACE FUNCTION (\w+)\(/g)].map((m) => m[1]!),
    );
    const literal =
      /'\s*\d+\s*(?:second|minute|hour|day|week|month|year)s?\s*'|\binterval\s+'|\bmake_interval\s*\([^)]*\d|\d+\s*\*\s*interval/i;
    const holding: string[] = [];
    for (const name of new Set(functions)) if (literal.test(await bodyOf(name))) holding.push(name);
    expect(holding).toEqual([]);
    // …and the check itself sees one.
    expect(literal.test("v_now + '90 days'::interval")).toBe(true);
    expect(literal.test('v_now + make_interval(days => 30)')).toBe(true);
    // A length read from a settings table (the level-up claim days, decision 037) is the caller's, not a literal.
    expect(literal.test('p_at + make_interval(days => l.claim_days)')).toBe(false);
  });

  it('has one default per lifetime and window: the settings, the modules and the test model agree', () => {
    const defaults = loadConfig({ DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-rules-')) });
    expect(defaults.PAID_COIN_EXPIRY_DAYS).toBe(PAID_COIN_DAYS);
    expect(defaults.FREE_COIN_EXPIRY_DAYS).toBe(FREE_COIN_DAYS);
    expect(defaults.PRIZE_DECISION_DAYS).toBe(PRIZE_DECISION_DAYS);
    expect(defaults.KEPT_PRIZE_STORAGE_DAYS).toBe(KEPT_PRIZE_STORAGE_DAYS);
    expect([PAID_COIN_MS, FREE_COIN_MS, PRIZE_DECISION_MS, KEPT_PRIZE_STORAGE_MS]).toEqual([
      PAID_COIN_DAYS * DAY,
      FREE_COIN_DAYS * DAY,
      PRIZE_DECISION_DAYS * DAY,
      KEPT_PRIZE_STORAGE_DAYS * DAY,
    ]);
  });

  it('uses the lifetimes and the decision window the TypeScript passes', async () => {
    const db = handle.db;
    const now = new Date('2030-01-10T00:00:00Z');
    const member = await createMemberWithCoins(db, {});
    await grantCoins(db, {
      memberId: member,
      kind: 'paid',
      amount: 1000,
      reason: 'purchase',
      counterAccount: 'purchase',
      idempotencyKey: `rules:${member}`,
      now,
      lifetimeDays: { paid: 150, free: TEST_RULES.coinLifetimes.free },
    });
    const gachaId = await createPublishedPack(db, { lots: 20, price: 100 });
    const drawn = await drawLots(db, {
      memberId: member,
      gachaId,
      count: 1,
      idempotencyKey: `rules-draw:${member}`,
      decisionDays: 7,
      now,
    });
    expect(drawn.ok).toBe(true);
    if (!drawn.ok) return;
    expect(drawn.result.items[0]!.decideBy).toBe(new Date(now.getTime() + 7 * DAY).toISOString());
    const converted = await convertPrizes(db, member, [drawn.result.items[0]!.prizeId], { freeCoinDays: 30, now });
    expect(converted.ok).toBe(true);
    const grants = rowsOf<{ kind: string; expires_at: string | Date }>(
      await db.execute(sql`select kind, expires_at from coin_grants where member_id = ${member} order by id`),
    );
    expect(grants.map((g) => [g.kind, new Date(g.expires_at).toISOString()])).toEqual([
      ['paid', new Date(now.getTime() + 150 * DAY).toISOString()],
      ['free', new Date(now.getTime() + 30 * DAY).toISOString()],
    ]);
  });

  it('expires coins at the same instant in the balance (TypeScript) and in the spend (SQL)', async () => {
    const db = handle.db;
    const expiresAt = new Date('2031-05-01T00:00:00Z');
    const member = await createMemberWithCoins(db, {});
    await grantCoins(db, {
      lifetimeDays: TEST_RULES.coinLifetimes,
      memberId: member,
      kind: 'free',
      amount: 300,
      reason: 'operator_grant',
      counterAccount: 'promotion',
      idempotencyKey: `edge:${member}`,
      expiresAt,
      now: new Date('2031-04-01T00:00:00Z'),
    });
    for (const at of [new Date(expiresAt.getTime() - 1), expiresAt]) {
      const balance = await getBalance(db, member, at);
      const [row] = rowsOf<{ n: number }>(
        await db.execute(sql`select wallet_lock_available(${member}::text, ${at.toISOString()}::timestamptz) as n`),
      );
      expect([at.toISOString(), balance.total]).toEqual([at.toISOString(), Number(row!.n)]);
    }
  });

  it('answers only draw refusals the TypeScript knows, with a status and a Japanese message', async () => {
    const body = (await bodyOf('draw_execute')) + (await bodyOf('draw_execute_for_session'));
    const codes = new Set(all(body, /'code', '([A-Z_]+)'|draw_refuse\(v_draw, '([A-Z_]+)'/g));
    expect(codes.size).toBeGreaterThanOrEqual(10);
    for (const code of codes) {
      expect(DRAW_REFUSAL_CODES, code).toContain(code);
      const described = describeRefusal({ ok: false, code: code as DrawRefusalCode, details: {} });
      expect(described?.status, code).toBeGreaterThanOrEqual(400);
      expect(described?.message, code).toMatch(/[ぁ-んァ-ン一-龥]/);
    }
  });

  it('answers only conversion refusals the TypeScript maps', async () => {
    const body = await bodyOf('prize_convert');
    const codes = new Set(all(body, /'code', '([A-Z_]+)'/g));
    expect([...codes].sort()).toEqual([...PRIZE_CONVERT_SQL_REFUSAL_CODES].sort());
    // …and an undo's (decision 057).
    const undoCodes = new Set(all(await bodyOf('prize_convert_undo'), /'code', '([A-Z_]+)'/g));
    expect([...undoCodes].sort()).toEqual([...CONVERSION_UNDO_REFUSAL_CODES].sort());
  });

  it('refuses a draw to exactly the members the pages and the API treat as staff', async () => {
    const gachaId = await createPublishedPack(handle.db, { lots: 20, price: 100 });
    for (const role of ['user', 'admin'] as const) {
      const member = await createMember(handle.db, { role });
      const outcome = await drawLots(handle.db, {
        decisionDays: TEST_RULES.prizeDecisionDays,
        memberId: member,
        gachaId,
        count: 1,
        idempotencyKey: `staff:${member}`,
      });
      expect([role, !outcome.ok && outcome.code === 'STAFF_CANNOT_DRAW']).toEqual([
        role,
        isStaff({ role } as Parameters<typeof isStaff>[0]),
      ]);
    }
  });

  it('writes only ledger reasons the coin history can name', async () => {
    const reasons = [
      ...all(await bodyOf('draw_execute'), /wallet_spend\([^,]+,[^,]+,\s*'(\w+)'/g),
      ...all(await bodyOf('prize_convert'), /THEN '(\w+)' ELSE '(\w+)' END/g),
      ...all(await bodyOf('prize_convert_undo'), /wallet_revoke_grant\([^,]+,\s*'(\w+)'/g),
      ...all(await bodyOf('wallet_expire_member'), /'expired', '(\w+)'/g),
      ...all(await bodyOf('payments_check_invariants'), /reason = '(\w+)'/g),
    ];
    expect(new Set(reasons)).toEqual(
      new Set([
        'draw',
        'prize_conversion',
        'prize_auto_conversion',
        'prize_conversion_undo',
        'expiry',
        'purchase',
        'purchase_bonus',
        'purchase_reversal',
      ]),
    );
    expect(reasons.filter((reason) => !(reason in LEDGER_REASON_LABELS))).toEqual([]);
  });
});
