// Playing the farm (decision 044). The member sends an intention ('water plot 3'); the time is the
// server's (`now`, from the shop's clock), the amounts are the rules' and the seed table's.
//
// Locks, always in this order, so two instances, parallel tabs and crossing friend waterings never
// deadlock and never count twice: the day rows of the members involved (farm_days, in member id
// order: the daily cap is counted under them), then the plot rows. A reward is a wallet grant whose key
// names what it pays for (the planting, or the friend and the day), written in the same transaction as
// the farm_actions row whose unique index says it happened once.
import { and, eq, sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';
import { refuse, type Outcome } from '#modules/kernel';
import { grantCoins, type CoinLifetimes } from '#modules/wallet';
import { isStaffRole, memberStandingOf } from '#modules/identity';
import { getExp, levelOf, levelTable } from '#modules/progression';
import { friendOf } from '#modules/friends';
import { farmActions, farmDays, farmPlots, farmSeeds } from './schema';
import {
  canWaterAt,
  cappedCoins,
  farmDayOf,
  growthOf,
  nextFarmDayStart,
  nextWaterAtOf,
  plotCountFor,
  plotStateAt,
  previousFarmDay,
  stageOf,
  wateredReadyAt,
  witherAtOf,
  type FarmRules,
  type PlotRecord,
} from './rules';
import { listFarmSeeds, readFarmRules } from './store';
import type { FarmActionResult, FarmPlotView, FarmView } from './view';

export const FARM_REFUSAL_CODES = [
  'FARM_PAUSED',
  'FARM_NOT_AVAILABLE',
  'FARM_PLOT_LOCKED',
  'FARM_PLOT_NOT_EMPTY',
  'FARM_SEED_UNKNOWN',
  'FARM_SEED_LOCKED',
  'FARM_NOTHING_TO_WATER',
  'FARM_WATER_TOO_SOON',
  'FARM_NOT_RIPE',
  'FARM_NOTHING_TO_HARVEST',
  'FARM_WITHERED',
  'FARM_NOTHING_TO_CLEAR',
  'FARM_NOT_FRIENDS',
  'FARM_FRIEND_ALREADY_WATERED',
  // Answered at the edge (server/farm.ts farmRateLimit): more actions than FARM_ACTIONS_PER_MINUTE.
  'FARM_TOO_FAST',
] as const;
export type FarmRefusalCode = (typeof FARM_REFUSAL_CODES)[number];

/** The wallet's reason for every farm reward (LEDGER_REASON_LABELS: ファーム報酬). */
export const FARM_REASON = 'farm';

/** What the shop passes in: its clock and the free coins' lifetime. */
export interface FarmContext {
  now: Date;
  lifetimeDays: CoinLifetimes;
}

type Tx = Database;

async function memberLevel(db: Database, memberId: string): Promise<number> {
  const [table, exp] = await Promise.all([levelTable(db), getExp(db, memberId)]);
  return levelOf(table, exp).level;
}

/** Makes the member's row for the day (with its streak) if missing, then locks it. */
async function lockDay(tx: Tx, memberId: string, day: string) {
  const yesterday = previousFarmDay(day);
  await tx.execute(sql`
    insert into farm_days (member_id, jst_day, streak)
    values (${memberId}, ${day}::date,
      coalesce((select streak from farm_days where member_id = ${memberId} and jst_day = ${yesterday}::date), 0) + 1)
    on conflict do nothing`);
  const [row] = await tx
    .select()
    .from(farmDays)
    .where(and(eq(farmDays.memberId, memberId), eq(farmDays.jstDay, day)))
    .for('update');
  return row!;
}

async function lockPlot(tx: Tx, memberId: string, plotNo: number): Promise<PlotRecord> {
  await tx.insert(farmPlots).values({ memberId, plotNo }).onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(farmPlots)
    .where(and(eq(farmPlots.memberId, memberId), eq(farmPlots.plotNo, plotNo)))
    .for('update');
  return row!;
}

const emptyPlot = {
  plantingId: null,
  seedId: null,
  rewardCoins: null,
  plantedAt: null,
  readyAt: null,
  lastWateredAt: null,
  waterings: 0,
};

async function standingRefusal(tx: Tx, memberId: string, now: Date) {
  const standing = await memberStandingOf(tx, memberId, now);
  if (!standing || standing.banned || standing.deleted || isStaffRole(standing.role))
    return refuse('FARM_NOT_AVAILABLE' as const);
  return null;
}

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

type Acted = Omit<FarmActionResult, 'farm'>;

/** The common frame of a member's own action: rules, standing, pause, the day's lock, then `act`. */
async function act(
  db: Database,
  memberId: string,
  context: FarmContext,
  body: (tx: Tx, rules: FarmRules, day: string) => Promise<Outcome<Acted & { ok: true }, FarmRefusalCode>>,
): Promise<Outcome<FarmActionResult & { ok: true }, FarmRefusalCode>> {
  const { now } = context;
  const day = farmDayOf(now);
  const outcome = await db.transaction(async (tx) => {
    const rules = await readFarmRules(tx);
    if (rules.paused) return refuse('FARM_PAUSED');
    const refusal = await standingRefusal(tx, memberId, now);
    if (refusal) return refusal;
    return body(tx, rules, day);
  });
  if (!outcome.ok) return outcome;
  return { ...outcome, farm: await farmViewOf(db, memberId, now) };
}

async function logAction(tx: Tx, values: Omit<typeof farmActions.$inferInsert, 'id'>): Promise<boolean> {
  const [row] = await tx.insert(farmActions).values(values).onConflictDoNothing().returning({ id: farmActions.id });
  return !!row;
}

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

/** Grants `coins` (already capped) to the member, keyed by what it pays for. */
async function grantFarmCoins(
  tx: Tx,
  memberId: string,
  coins: number,
  key: string,
  memo: string,
  context: FarmContext,
): Promise<number | null> {
  if (coins <= 0) return null;
  const grant = await grantCoins(tx, {
    memberId,
    kind: 'free',
    amount: coins,
    reason: FARM_REASON,
    counterAccount: 'promotion',
    idempotencyKey: key,
    ref: key,
    memo,
    now: context.now,
    lifetimeDays: context.lifetimeDays,
  });
  return grant.grantId;
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

/**
 * Waters a friend's farm: once per friend per Japan-time day. The friend's growing plot with the most
 * time left is watered (the friend's own watering window is not touched), and each of the two gets
 * `friendWaterCoins` within their own daily cap.
 * @example await waterFriendFarm(db, memberId, { friendshipId: 12 }, { now, lifetimeDays })
 */
export async function waterFriendFarm(
  db: Database,
  memberId: string,
  input: { friendshipId: number },
  context: FarmContext,
) {
  const { now } = context;
  return act(db, memberId, context, async (tx, rules, day) => {
    const friendId = await friendOf(tx, memberId, input.friendshipId);
    if (!friendId) return refuse('FARM_NOT_FRIENDS');
    // Both day rows, in member id order (crossing waterings between two friends never deadlock).
    const rows = new Map<string, Awaited<ReturnType<typeof lockDay>>>();
    for (const id of [memberId, friendId].sort()) rows.set(id, await lockDay(tx, id, day));
    const mine = rows.get(memberId)!;
    const theirs = rows.get(friendId)!;
    const wanted = rules.friendWaterCoins;
    const coins = cappedCoins(wanted, mine.coins, rules.dailyCoinCap);
    const friendCoins = (await standingRefusal(tx, friendId, now))
      ? 0
      : cappedCoins(wanted, theirs.coins, rules.dailyCoinCap);
    const logged = await logAction(tx, {
      memberId,
      kind: 'friend_water',
      jstDay: day,
      friendId,
      coins,
      cappedCoins: wanted - coins,
      detail: { friendCoins, friendshipId: input.friendshipId },
      at: now,
    });
    if (!logged) return refuse('FARM_FRIEND_ALREADY_WATERED', { nextDayAt: nextFarmDayStart(now).toISOString() });
    // The friend's plot with the most time left gets the watering (their own window stays theirs).
    const plots = await tx
      .select()
      .from(farmPlots)
      .where(and(eq(farmPlots.memberId, friendId), sql`${farmPlots.readyAt} > ${now.toISOString()}::timestamptz`))
      .orderBy(sql`${farmPlots.readyAt} desc`, farmPlots.plotNo)
      .limit(1)
      .for('update');
    const target = plots[0];
    if (target?.readyAt)
      await tx
        .update(farmPlots)
        .set({ readyAt: wateredReadyAt(target.readyAt, rules, now), updatedAt: now })
        .where(and(eq(farmPlots.memberId, friendId), eq(farmPlots.plotNo, target.plotNo)));
    const grantId = await grantFarmCoins(
      tx,
      memberId,
      coins,
      `farm:friend-water:${memberId}:${friendId}:${day}`,
      'フレンドの畑に水やり',
      context,
    );
    await grantFarmCoins(
      tx,
      friendId,
      friendCoins,
      `farm:friend-watered:${friendId}:${memberId}:${day}`,
      'フレンドが畑に水やり',
      context,
    );
    if (grantId)
      await tx
        .update(farmActions)
        .set({ grantId })
        .where(
          and(
            eq(farmActions.memberId, memberId),
            eq(farmActions.friendId, friendId),
            eq(farmActions.jstDay, day),
            eq(farmActions.kind, 'friend_water'),
          ),
        );
    await tx
      .update(farmDays)
      .set({ coins: sql`${farmDays.coins} + ${coins}`, friendWaterings: sql`${farmDays.friendWaterings} + 1` })
      .where(and(eq(farmDays.memberId, memberId), eq(farmDays.jstDay, day)));
    if (friendCoins > 0)
      await tx
        .update(farmDays)
        .set({ coins: sql`${farmDays.coins} + ${friendCoins}` })
        .where(and(eq(farmDays.memberId, friendId), eq(farmDays.jstDay, day)));
    return {
      ok: true as const,
      action: 'friend_water' as const,
      plotNo: null,
      coins,
      cappedCoins: wanted - coins,
      friendCoins,
    };
  });
}

/**
 * Which of the given friends the member has watered today, and how many plots each has growing
 * (the friends list's buttons).
 */
export async function friendFarmStatus(
  db: Database,
  memberId: string,
  friendIds: string[],
  now: Date,
): Promise<Map<string, { wateredToday: boolean; growingPlots: number }>> {
  const status = new Map(friendIds.map((id) => [id, { wateredToday: false, growingPlots: 0 }]));
  if (friendIds.length === 0) return status;
  const day = farmDayOf(now);
  const ids = sql.join(
    friendIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const [watered, growing] = await Promise.all([
    db
      .select({ friendId: farmActions.friendId })
      .from(farmActions)
      .where(
        and(
          eq(farmActions.memberId, memberId),
          eq(farmActions.kind, 'friend_water'),
          eq(farmActions.jstDay, day),
          sql`${farmActions.friendId} in (${ids})`,
        ),
      ),
    db
      .select({ memberId: farmPlots.memberId, n: sql<number>`count(*)::int` })
      .from(farmPlots)
      .where(and(sql`${farmPlots.memberId} in (${ids})`, sql`${farmPlots.readyAt} > ${now.toISOString()}::timestamptz`))
      .groupBy(farmPlots.memberId),
  ]);
  for (const w of watered) if (w.friendId && status.has(w.friendId)) status.get(w.friendId)!.wateredToday = true;
  for (const g of growing) if (status.has(g.memberId)) status.get(g.memberId)!.growingPlots = Number(g.n);
  return status;
}
