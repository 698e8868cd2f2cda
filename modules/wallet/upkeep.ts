// The expiry job and the invariant check.
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';

/**
 * The expiry job: writes an expiry entry for every grant past its date (in batches of members).
 * @example await expireDueCoins(db) // → number of grants expired
 */
export async function expireDueCoins(db: Database, now = new Date(), batch = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`select wallet_expire_due(${now.toISOString()}::timestamptz, ${batch}::int) as n`,
    );
    const n = Number(row!.n);
    total += n;
    if (n === 0) return total;
  }
}

/** Every invariant of docs/architecture.md the data can show; an empty list means all hold. */
export async function checkInvariants(db: Database): Promise<Record<string, unknown>[]> {
  const [row] = await queryRows<{ v: Record<string, unknown>[] }>(db, sql`select shop_check_invariants() as v`);
  return row!.v;
}
