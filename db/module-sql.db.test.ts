// The repeatable step after the migrations on a real database: every module function is in place,
// a second start replaces nothing, a changed file is applied alone, and (PostgreSQL) instances
// that migrate a fresh database at the same moment take turns.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '#tests/database';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { listModuleSqlFiles } from './module-sql';

/** The rows of a db.execute answer (both engines answer { rows }). */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

let testDb: TestDatabase;
let handle: DatabaseHandle;

beforeAll(async () => {
  testDb = await createTestDatabase('module_sql');
  handle = await openDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir, poolSize: 2 });
  await handle.migrate();
});
afterAll(async () => {
  await handle?.close();
  await testDb?.drop();
});

const recorded = async () =>
  new Map(
    rowsOf<{ file: string; checksum: string; at: string }>(
      await handle.db.execute(sql`select file, checksum, applied_at::text as at from module_sql`),
    ).map((row) => [row.file, row]),
  );

/** Function names each file defines (CREATE OR REPLACE FUNCTION name(…)). */
const definedFunctions = (text: string) => [...text.matchAll(/CREATE OR REPLACE FUNCTION (\w+)\(/g)].map((m) => m[1]!);

describe('the modules’ SQL step', () => {
  it('records every file with its checksum and defines every function it names, replacing the migrations’ versions', async () => {
    const files = listModuleSqlFiles();
    const rows = await recorded();
    expect([...rows.keys()].sort()).toEqual(files.map((f) => f.file).sort());
    for (const file of files) expect(rows.get(file.file)?.checksum, file.file).toBe(file.checksum);
    const names = files.flatMap((f) => definedFunctions(f.text));
    expect(names).toEqual(
      expect.arrayContaining([
        'draw_execute',
        'gacha_claim_lots',
        'wallet_spend',
        'prize_convert',
        'shop_check_invariants',
        'payments_check_invariants',
        'identity_session_member',
      ]),
    );
    const present = new Set(
      rowsOf<{ proname: string }>(
        await handle.db.execute(sql`select proname from pg_proc where pronamespace = 'public'::regnamespace`),
      ).map((r) => r.proname),
    );
    expect(names.filter((name) => !present.has(name))).toEqual([]);
    // The draw now claims lots through the gacha module: the step replaced 0002's definition.
    const [draw] = rowsOf<{ prosrc: string }>(
      await handle.db.execute(sql`select prosrc from pg_proc where proname = 'draw_execute'`),
    );
    expect(draw!.prosrc).toContain('gacha_claim_lots');
    expect(draw!.prosrc).not.toMatch(/UPDATE gacha_lots/i);
    // Every prize_convert call exists: 057's seven-argument one (an undo window), the six-argument one and
    // 0007's five-argument wrapper (rolling deploys).
    const [converts] = rowsOf<{ n: number }>(
      await handle.db.execute(sql`select count(*)::int as n from pg_proc where proname = 'prize_convert'`),
    );
    expect(converts!.n).toBe(3);
  });

  it('replaces nothing on a second start, and only a changed file after a change', async () => {
    const before = await recorded();
    await handle.migrate();
    expect(await recorded()).toEqual(before);

    const changed = 'modules/wallet/sql/spend.sql';
    await handle.db.execute(sql`update module_sql set checksum = 'an older version' where file = ${changed}`);
    await handle.db
      .execute(sql`create or replace function wallet_spend(p_member text, p_amount int, p_reason text, p_counter text,
      p_idem text, p_ref text, p_now timestamptz) returns jsonb language sql as $$ select '{}'::jsonb $$`);
    await handle.migrate();
    const after = await recorded();
    for (const [file, row] of after) {
      if (file === changed) expect(row.at, file).not.toBe(before.get(file)!.at);
      else expect(row, file).toEqual(before.get(file));
    }
    expect(after.get(changed)!.checksum).toBe(before.get(changed)!.checksum);
    const [spend] = rowsOf<{ prosrc: string }>(
      await handle.db.execute(sql`select prosrc from pg_proc where proname = 'wallet_spend'`),
    );
    expect(spend!.prosrc).toContain('coin_grants');
  });

  it('lets two instances migrate a fresh database at the same moment (PostgreSQL: several connections)', async (context) => {
    if (testDb.engine !== 'postgres') {
      console.warn('skipped: concurrent migrations need PostgreSQL (PGlite admits one connection)');
      context.skip();
    }
    const fresh = await createTestDatabase('module_sql_race');
    const handles = await Promise.all(
      [0, 1].map(() => openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir, poolSize: 1 })),
    );
    try {
      await Promise.all(handles.map((h) => h.migrate()));
      const [row] = rowsOf<{ n: number }>(await handles[0]!.db.execute(sql`select count(*)::int as n from module_sql`));
      expect(row!.n).toBe(listModuleSqlFiles().length);
      const [check] = rowsOf<{ v: unknown[] }>(await handles[1]!.db.execute(sql`select shop_check_invariants() as v`));
      expect(check!.v).toEqual([]);
    } finally {
      await Promise.all(handles.map((h) => h.close()));
      await fresh.drop();
    }
  });
});
