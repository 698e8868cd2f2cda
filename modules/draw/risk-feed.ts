// What the fraud signals (modules/risk) read from the draws: each member's completed draws and coins
// spent since an instant (the last 24 hours), only for members above a threshold.
import { and, eq, gte, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { draws } from './schema';

export interface DrawVelocity {
  memberId: string;
  draws: number;
  coins: number;
}

/**
 * Members whose completed draws since `since` reach `minDraws` lots or `minCoins` coins.
 * Reads the completed-draws index over one window (a day), never the whole table.
 * @example await drawVelocitySince(db, new Date(Date.now() - 86_400_000), { minDraws: 300, minCoins: 300_000 })
 */
export async function drawVelocitySince(
  db: Database,
  since: Date,
  thresholds: { minDraws: number; minCoins: number },
): Promise<DrawVelocity[]> {
  const lots = sql<number>`sum(${draws.count})::int`;
  const coins = sql<number>`sum(${draws.cost})::bigint`;
  const rows = await db
    .select({ memberId: draws.memberId, draws: lots, coins })
    .from(draws)
    .where(and(eq(draws.status, 'completed'), gte(draws.createdAt, since)))
    .groupBy(draws.memberId)
    .having(sql`sum(${draws.count}) >= ${thresholds.minDraws} or sum(${draws.cost}) >= ${thresholds.minCoins}`);
  return rows.map((r) => ({ memberId: r.memberId, draws: Number(r.draws), coins: Number(r.coins) }));
}
