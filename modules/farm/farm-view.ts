// The member's farm as the page shows it (decision 044): plots, seeds, the day's coins, at the server's time.
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { getExp, levelOf, levelTable } from '#modules/progression';
import { farmDays, farmPlots } from './schema';
import {
  canWaterAt,
  farmDayOf,
  growthOf,
  nextFarmDayStart,
  nextWaterAtOf,
  plotCountFor,
  plotStateAt,
  previousFarmDay,
  stageOf,
  witherAtOf,
  type PlotRecord,
} from './rules';
import { listFarmSeeds, readFarmRules } from './store';
import type { FarmPlotView, FarmView } from './view';

export async function memberLevel(db: Database, memberId: string): Promise<number> {
  const [table, exp] = await Promise.all([levelTable(db), getExp(db, memberId)]);
  return levelOf(table, exp).level;
}

export const emptyPlot = {
  plantingId: null,
  seedId: null,
  rewardCoins: null,
  plantedAt: null,
  readyAt: null,
  lastWateredAt: null,
  waterings: 0,
};

/**
 * The member's farm at `now`: plots (locked ones included), seeds, today's earnings against the cap.
 * @example const farm = await farmViewOf(db, memberId, new Date())
 */
export async function farmViewOf(db: Database, memberId: string, now: Date): Promise<FarmView> {
  const day = farmDayOf(now);
  const [rules, allSeeds, level, plotRows, dayRows] = await Promise.all([
    readFarmRules(db),
    // Inactive seeds too: a crop planted before its seed was stopped keeps its name and drawing.
    listFarmSeeds(db, { includeInactive: true }),
    memberLevel(db, memberId),
    db.select().from(farmPlots).where(eq(farmPlots.memberId, memberId)),
    db
      .select()
      .from(farmDays)
      .where(
        and(eq(farmDays.memberId, memberId), sql`${farmDays.jstDay} in (${day}::date, ${previousFarmDay(day)}::date)`),
      ),
  ]);
  const seedById = new Map(allSeeds.map((s) => [s.id, s]));
  const seeds = allSeeds.filter((s) => s.active);
  const open = plotCountFor(rules.plotUnlockLevels, level);
  const byNo = new Map(plotRows.map((p) => [p.plotNo, p]));
  const plots: FarmPlotView[] = rules.plotUnlockLevels.map((unlockLevel, index) => {
    const plotNo = index + 1;
    const stored = byNo.get(plotNo);
    const locked = plotNo > open;
    const record: PlotRecord = stored ?? { plotNo, ...emptyPlot };
    // A locked plot that still holds a crop (a lowered level table) keeps it until harvested.
    const state = locked && !record.plantingId ? 'locked' : plotStateAt(record, rules, now);
    const seed = record.seedId ? seedById.get(record.seedId) : undefined;
    const growth = state === 'locked' || state === 'empty' ? 0 : growthOf(record, now);
    const nextWaterAt = state === 'growing' ? nextWaterAtOf(record, rules) : null;
    return {
      plotNo,
      state,
      unlockLevel: state === 'locked' ? unlockLevel : null,
      seed: record.seedId ? { id: record.seedId, name: seed?.name ?? record.seedId, art: seed?.art ?? 'radish' } : null,
      rewardCoins: record.rewardCoins,
      plantedAt: record.plantedAt?.toISOString() ?? null,
      readyAt: record.readyAt?.toISOString() ?? null,
      witherAt: record.readyAt ? witherAtOf(record.readyAt, rules).toISOString() : null,
      growth,
      stage: state === 'locked' || state === 'empty' ? null : stageOf(state, growth),
      canWater: state === 'growing' && canWaterAt(record, rules, now),
      nextWaterAt: nextWaterAt && nextWaterAt.getTime() > now.getTime() ? nextWaterAt.toISOString() : null,
      waterings: record.waterings,
    };
  });
  const today = dayRows.find((d) => d.jstDay === day);
  const yesterday = dayRows.find((d) => d.jstDay !== day);
  return {
    paused: rules.paused,
    now: now.toISOString(),
    day,
    nextDayAt: nextFarmDayStart(now).toISOString(),
    level,
    plots,
    seeds: seeds.map((s) => ({
      id: s.id,
      name: s.name,
      art: s.art,
      growMinutes: s.growMinutes,
      rewardCoins: s.rewardCoins,
      unlockLevel: s.unlockLevel,
      locked: s.unlockLevel > level,
    })),
    today: {
      coins: today?.coins ?? 0,
      cap: rules.dailyCoinCap,
      harvests: today?.harvests ?? 0,
      waterings: today?.waterings ?? 0,
      friendWaterings: today?.friendWaterings ?? 0,
    },
    streak: today?.streak ?? yesterday?.streak ?? 0,
    rules: {
      waterCooldownMinutes: rules.waterCooldownMinutes,
      waterSpeedupPercent: rules.waterSpeedupPercent,
      witherAfterMinutes: rules.witherAfterMinutes,
      dailyCoinCap: rules.dailyCoinCap,
      friendWaterCoins: rules.friendWaterCoins,
    },
  };
}
