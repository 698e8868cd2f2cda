// D1: the coin ledger cannot be rewritten: UPDATE, DELETE and TRUNCATE are refused on both engines.
import { describe, it, expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMemberWithCoins } from '#tests/fixtures';

/** The rows of a db.execute answer (both engines answer { rows }). */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const handle = useTestDatabase('append_only', { poolSize: 2 });

/** The database's own message (Drizzle wraps it as the cause of "Failed query"). */
async function refusal(query: Promise<unknown>): Promise<string> {
  try {
    await query;
  } catch (error) {
    const messages: string[] = [];
    for (let e: unknown = error; e instanceof Error; e = e.cause) messages.push(e.message);
    return messages.join(' / ');
  }
  return 'accepted';
}

const ledgerRows = async () =>
  Number(rowsOf<{ n: number }>(await handle.db.execute(sql`select count(*)::int as n from coin_ledger`))[0]!.n);

describe('coin_ledger is append-only', () => {
  it('refuses UPDATE, DELETE and TRUNCATE, and keeps every row', async () => {
    await createMemberWithCoins(handle.db, { paid: 500, free: 100 });
    const before = await ledgerRows();
    expect(before).toBeGreaterThan(0);
    expect(await refusal(handle.db.execute(sql`update coin_ledger set amount = amount + 1`))).toMatch(/append-only/);
    expect(await refusal(handle.db.execute(sql`delete from coin_ledger`))).toMatch(/append-only/);
    expect(await refusal(handle.db.execute(sql`truncate coin_ledger`))).toMatch(/append-only/);
    expect(await ledgerRows()).toBe(before);
  });
});
