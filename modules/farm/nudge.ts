// The home page's nudge (issue 29 item 10, decision 060): how many of a member's crops are ripe now, in one
// statement over the member's plots (primary key prefix) and the one rules row, so a signed-in member's home
// page pays one small read for it and a visitor's none.
import { and, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { farmPlots, farmRules } from './schema';
import { FARM_RULES_ID } from './store';

/**
 * Ripe crops (ready, not yet withered) on the member's plots at `now`; 0 while the farm is paused.
 * @example await ripeCropCount(db, memberId, farmNow()) // 2
 */
export async function ripeCropCount(db: Database, memberId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ ripe: sql<number>`count(*)::int` })
    .from(farmPlots)
    .innerJoin(farmRules, eq(farmRules.id, FARM_RULES_ID))
    .where(
      and(
        eq(farmPlots.memberId, memberId),
        isNotNull(farmPlots.plantingId),
        lte(farmPlots.readyAt, now),
        sql`${farmPlots.readyAt} + make_interval(mins => ${farmRules.witherAfterMinutes}) > ${now}`,
        eq(farmRules.paused, false),
      ),
    );
  return row?.ripe ?? 0;
}
