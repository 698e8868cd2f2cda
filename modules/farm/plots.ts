// A member's own plots (decision 044): planting, watering, harvesting (capped per day) and clearing, each
// in the frame of play.ts (the day's lock, then the plot's).
import { and, eq, sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';
import { refuse } from '#modules/kernel';
import { farmActions, farmDays, farmPlots, farmSeeds } from './schema';
import { canWaterAt, cappedCoins, nextWaterAtOf, plotCountFor, plotStateAt, wateredReadyAt } from './rules';
import { type FarmContext, act, lockDay, lockPlot, logAction, grantFarmCoins } from './play';
import { memberLevel, emptyPlot } from './farm-view';

/**
 * Plants a seed on an empty, open plot.
 * @example await plantSeed(db, memberId, { plotNo: 1, seedId: 'radish' }, { now, lifetimeDays })
 */
export async function plantSeed(
  db: Database,
  memberId: string,
  input: { plotNo: number; seedId: string },
  context: FarmContext,
) {
  const { now } = context;
  return act(db, memberId, context, async (tx, rules, day) => {
    const level = await memberLevel(tx, memberId);
    if (
      !Number.isInteger(input.plotNo) ||
      input.plotNo < 1 ||
      input.plotNo > plotCountFor(rules.plotUnlockLevels, level)
    )
      return refuse('FARM_PLOT_LOCKED', { plotNo: input.plotNo });
    const [seed] = await tx
      .select()
      .from(farmSeeds)
      .where(and(eq(farmSeeds.id, input.seedId), eq(farmSeeds.active, true)))
      // Shared: an operator's delete (which locks the seed first) waits for this planting, or this sees it gone.
      .for('share');
    if (!seed) return refuse('FARM_SEED_UNKNOWN');
    if (seed.unlockLevel > level) return refuse('FARM_SEED_LOCKED', { unlockLevel: seed.unlockLevel });
    await lockDay(tx, memberId, day);
    const plot = await lockPlot(tx, memberId, input.plotNo);
    if (plot.plantingId != null) return refuse('FARM_PLOT_NOT_EMPTY', { plotNo: input.plotNo });
    const [next] = await queryRows<{ id: string | number }>(tx, sql`select nextval('farm_planting_seq') as id`);
    const planting = Number(next!.id);
    await tx
      .update(farmPlots)
      .set({
        plantingId: planting,
        seedId: seed.id,
        rewardCoins: seed.rewardCoins,
        plantedAt: now,
        readyAt: new Date(now.getTime() + seed.growMinutes * 60_000),
        lastWateredAt: null,
        waterings: 0,
        updatedAt: now,
      })
      .where(and(eq(farmPlots.memberId, memberId), eq(farmPlots.plotNo, input.plotNo)));
    await logAction(tx, {
      memberId,
      kind: 'plant',
      jstDay: day,
      plotNo: input.plotNo,
      plantingId: planting,
      seedId: seed.id,
      at: now,
    });
    return { ok: true as const, action: 'plant' as const, plotNo: input.plotNo, coins: 0, cappedCoins: 0 };
  });
}

/**
 * Waters a growing plot: once per `waterCooldownMinutes`, it takes `waterSpeedupPercent` off the time left.
 * @example await waterPlot(db, memberId, { plotNo: 1 }, { now, lifetimeDays })
 */
export async function waterPlot(db: Database, memberId: string, input: { plotNo: number }, context: FarmContext) {
  const { now } = context;
  return act(db, memberId, context, async (tx, rules, day) => {
    await lockDay(tx, memberId, day);
    const plot = await lockPlot(tx, memberId, input.plotNo);
    if (plotStateAt(plot, rules, now) !== 'growing') return refuse('FARM_NOTHING_TO_WATER', { plotNo: input.plotNo });
    if (!canWaterAt(plot, rules, now))
      return refuse('FARM_WATER_TOO_SOON', {
        nextWaterAt: nextWaterAtOf(plot, rules)!.toISOString(),
        cooldownMinutes: rules.waterCooldownMinutes,
      });
    const readyAt = wateredReadyAt(plot.readyAt!, rules, now);
    await tx
      .update(farmPlots)
      .set({ readyAt, lastWateredAt: now, waterings: plot.waterings + 1, updatedAt: now })
      .where(and(eq(farmPlots.memberId, memberId), eq(farmPlots.plotNo, input.plotNo)));
    await tx
      .update(farmDays)
      .set({ waterings: sql`${farmDays.waterings} + 1` })
      .where(and(eq(farmDays.memberId, memberId), eq(farmDays.jstDay, day)));
    await logAction(tx, {
      memberId,
      kind: 'water',
      jstDay: day,
      plotNo: input.plotNo,
      plantingId: plot.plantingId,
      seedId: plot.seedId,
      detail: { readyAtBefore: plot.readyAt!.toISOString(), readyAt: readyAt.toISOString() },
      at: now,
    });
    return { ok: true as const, action: 'water' as const, plotNo: input.plotNo, coins: 0, cappedCoins: 0 };
  });
}

/**
 * Harvests a ripe plot: its seed's coins, within what today's cap leaves (the harvest happens even when
 * the cap is reached; the coins it could not give are recorded as capped). Once per planting.
 * @example await harvestPlot(db, memberId, { plotNo: 1 }, { now, lifetimeDays }) // { coins: 3, … }
 */
export async function harvestPlot(db: Database, memberId: string, input: { plotNo: number }, context: FarmContext) {
  const { now } = context;
  return act(db, memberId, context, async (tx, rules, day) => {
    const dayRow = await lockDay(tx, memberId, day);
    const plot = await lockPlot(tx, memberId, input.plotNo);
    const state = plotStateAt(plot, rules, now);
    if (state === 'empty') return refuse('FARM_NOTHING_TO_HARVEST', { plotNo: input.plotNo });
    if (state === 'growing') return refuse('FARM_NOT_RIPE', { readyAt: plot.readyAt!.toISOString() });
    if (state === 'withered') return refuse('FARM_WITHERED', { plotNo: input.plotNo });
    const wanted = plot.rewardCoins ?? 0;
    const coins = cappedCoins(wanted, dayRow.coins, rules.dailyCoinCap);
    const logged = await logAction(tx, {
      memberId,
      kind: 'harvest',
      jstDay: day,
      plotNo: input.plotNo,
      plantingId: plot.plantingId,
      seedId: plot.seedId,
      coins,
      cappedCoins: wanted - coins,
      at: now,
    });
    if (!logged) return refuse('FARM_NOTHING_TO_HARVEST', { plotNo: input.plotNo });
    const grantId = await grantFarmCoins(
      tx,
      memberId,
      coins,
      `farm:harvest:${plot.plantingId}`,
      `畑${input.plotNo}の収穫`,
      context,
    );
    if (grantId)
      await tx
        .update(farmActions)
        .set({ grantId })
        .where(and(eq(farmActions.plantingId, plot.plantingId!), eq(farmActions.kind, 'harvest')));
    await tx
      .update(farmDays)
      .set({ coins: sql`${farmDays.coins} + ${coins}`, harvests: sql`${farmDays.harvests} + 1` })
      .where(and(eq(farmDays.memberId, memberId), eq(farmDays.jstDay, day)));
    await tx
      .update(farmPlots)
      .set({ ...emptyPlot, updatedAt: now })
      .where(and(eq(farmPlots.memberId, memberId), eq(farmPlots.plotNo, input.plotNo)));
    return { ok: true as const, action: 'harvest' as const, plotNo: input.plotNo, coins, cappedCoins: wanted - coins };
  });
}

/**
 * Clears a withered crop (it gives nothing) so the plot can be planted again.
 * @example await clearPlot(db, memberId, { plotNo: 2 }, { now, lifetimeDays })
 */
export async function clearPlot(db: Database, memberId: string, input: { plotNo: number }, context: FarmContext) {
  const { now } = context;
  return act(db, memberId, context, async (tx, rules, day) => {
    await lockDay(tx, memberId, day);
    const plot = await lockPlot(tx, memberId, input.plotNo);
    if (plotStateAt(plot, rules, now) !== 'withered') return refuse('FARM_NOTHING_TO_CLEAR', { plotNo: input.plotNo });
    await logAction(tx, {
      memberId,
      kind: 'clear',
      jstDay: day,
      plotNo: input.plotNo,
      plantingId: plot.plantingId,
      seedId: plot.seedId,
      cappedCoins: 0,
      at: now,
    });
    await tx
      .update(farmPlots)
      .set({ ...emptyPlot, updatedAt: now })
      .where(and(eq(farmPlots.memberId, memberId), eq(farmPlots.plotNo, input.plotNo)));
    return { ok: true as const, action: 'clear' as const, plotNo: input.plotNo, coins: 0, cappedCoins: 0 };
  });
}
