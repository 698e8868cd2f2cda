// Draws for the operators' CSV export: one batch at a time in id order (keyset), constant memory.
import { asc, gt } from 'drizzle-orm';
import type { Database } from '#db/client';
import { draws } from './schema';

/** Up to `limit` draws after draw `afterId` (id order). @example await drawsExportBatch(db, '', 5000) */
export async function drawsExportBatch(db: Database, afterId: string, limit: number) {
  return db
    .select({
      id: draws.id,
      createdAt: draws.createdAt,
      memberId: draws.memberId,
      gachaId: draws.gachaId,
      count: draws.count,
      cost: draws.cost,
      status: draws.status,
      lastOne: draws.lastOne,
    })
    .from(draws)
    .where(afterId ? gt(draws.id, afterId) : undefined)
    .orderBy(asc(draws.id))
    .limit(limit);
}
