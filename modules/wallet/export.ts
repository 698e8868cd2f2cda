// The coin ledger for the operators' CSV export: one batch at a time in id order (keyset), so an
// export of millions of entries never holds more than a batch in memory.
import { asc, gt } from 'drizzle-orm';
import type { Database } from '#db/client';
import { coinLedger } from './schema';

/**
 * Up to `limit` ledger entries after entry `afterId`, oldest first.
 * @example for (let after = 0, rows; (rows = await ledgerExportBatch(db, after, 5000)).length; after = rows.at(-1)!.id) …
 */
export async function ledgerExportBatch(db: Database, afterId: number, limit: number) {
  return db
    .select({
      id: coinLedger.id,
      createdAt: coinLedger.createdAt,
      memberId: coinLedger.memberId,
      kind: coinLedger.kind,
      amount: coinLedger.amount,
      reason: coinLedger.reason,
      counterAccount: coinLedger.counterAccount,
      ref: coinLedger.ref,
      paidAfter: coinLedger.paidAfter,
      freeAfter: coinLedger.freeAfter,
    })
    .from(coinLedger)
    .where(gt(coinLedger.id, afterId))
    .orderBy(asc(coinLedger.id))
    .limit(limit);
}
