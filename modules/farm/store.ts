// Reading the farm's rules and seed table (decision 044). The rules row is written by the migration,
// so it is always there; the operators change it in /admin/farm (modules/farm/operators.ts).
import { asc, eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { farmRules, farmSeeds } from './schema';
import type { FarmRules, FarmSeed } from './rules';

/** The row's id: one row of rules for the whole shop. */
export const FARM_RULES_ID = 1;

/**
 * The farm's rules now (read in the caller's transaction when one is given).
 * @example const rules = await readFarmRules(db) // { paused: false, dailyCoinCap: 30, … }
 */
export async function readFarmRules(db: Database): Promise<FarmRules & { updatedAt: Date; updatedBy: string | null }> {
  const [row] = await db.select().from(farmRules).where(eq(farmRules.id, FARM_RULES_ID));
  if (!row) throw new Error('farm_rules has no row 1: run the migrations (npm start does)');
  return { ...farmRulesOf(row), updatedAt: row.updatedAt, updatedBy: row.updatedBy };
}

/** The rules a stored row holds (the one mapping from the table to FarmRules). */
export const farmRulesOf = (row: typeof farmRules.$inferSelect): FarmRules => ({
  paused: row.paused,
  plotUnlockLevels: row.plotUnlockLevels,
  waterCooldownMinutes: row.waterCooldownMinutes,
  waterSpeedupPercent: row.waterSpeedupPercent,
  witherAfterMinutes: row.witherAfterMinutes,
  dailyCoinCap: row.dailyCoinCap,
  friendWaterCoins: row.friendWaterCoins,
});

/**
 * The seed table in its order (`sort`, then name); inactive seeds only when asked (operators).
 * @example const seeds = await listFarmSeeds(db) // [{ id: 'radish', growMinutes: 30, … }, …]
 */
export async function listFarmSeeds(db: Database, options: { includeInactive?: boolean } = {}): Promise<FarmSeed[]> {
  const rows = await db
    .select()
    .from(farmSeeds)
    .where(options.includeInactive ? undefined : eq(farmSeeds.active, true))
    .orderBy(asc(farmSeeds.sort), asc(farmSeeds.name));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    art: r.art,
    growMinutes: r.growMinutes,
    rewardCoins: r.rewardCoins,
    unlockLevel: r.unlockLevel,
    active: r.active,
    sort: r.sort,
  }));
}
