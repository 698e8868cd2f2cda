// The farm's rules as pure functions (decision 044): a plot's state at an instant, growth and its
// drawn stage, what watering does, how many plots a level opens, and the Japan-time day. The server
// decides with these; the page uses the same ones to tick its countdowns between answers (browser-safe:
// no database, no Node).

/** The drawings the farm knows; a seed names one. */
export const FARM_CROP_ARTS = [
  'radish',
  'carrot',
  'tomato',
  'corn',
  'strawberry',
  'pumpkin',
  'eggplant',
  'sunflower',
] as const;
export type FarmCropArt = (typeof FARM_CROP_ARTS)[number];

/** Grow times the seed table accepts, in minutes (docs/product.md: 30 minutes to 24 hours). */
export const FARM_GROW_MINUTES_MIN = 30;
export const FARM_GROW_MINUTES_MAX = 24 * 60;

export interface FarmRules {
  paused: boolean;
  /** Level needed for plot 1, 2, …; the member has as many plots as entries at or below their level. */
  plotUnlockLevels: readonly number[];
  waterCooldownMinutes: number;
  waterSpeedupPercent: number;
  witherAfterMinutes: number;
  dailyCoinCap: number;
  friendWaterCoins: number;
}

export interface FarmSeed {
  id: string;
  name: string;
  art: string;
  growMinutes: number;
  rewardCoins: number;
  unlockLevel: number;
  active: boolean;
  sort: number;
}

/** What is on a plot, as stored. */
export interface PlotRecord {
  plotNo: number;
  plantingId: number | null;
  seedId: string | null;
  rewardCoins: number | null;
  plantedAt: Date | null;
  readyAt: Date | null;
  lastWateredAt: Date | null;
  waterings: number;
}

export type PlotState = 'locked' | 'empty' | 'growing' | 'ripe' | 'withered';

/** 0 seed, 1 sprout, 2 young plant, 3 ripe, 4 withered (the drawing of each). */
export type GrowthStage = 0 | 1 | 2 | 3 | 4;

const MINUTE_MS = 60_000;
const JST_OFFSET_MS = 9 * 60 * 60 * 1000; // Japan has no daylight saving time.
const DAY_MS = 24 * 60 * 60 * 1000;

/** The Japan-time day of an instant. @example farmDayOf(new Date('2026-12-31T15:00:00Z')) // '2027-01-01' */
export const farmDayOf = (now: Date): string => new Date(now.getTime() + JST_OFFSET_MS).toISOString().slice(0, 10);

/** When the next Japan-time day starts (the caps and friends' watering open again). */
export const nextFarmDayStart = (now: Date): Date =>
  new Date(Date.parse(`${farmDayOf(now)}T00:00:00Z`) + DAY_MS - JST_OFFSET_MS);

/** The day before, as 'YYYY-MM-DD'. */
export const previousFarmDay = (day: string): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

/** How many plots a level opens. @example plotCountFor([1, 1, 1, 1, 5, 10], 7) // 5 */
export function plotCountFor(unlockLevels: readonly number[], level: number): number {
  return unlockLevels.filter((needed) => needed <= level).length;
}

/** When a ripe crop withers. */
export const witherAtOf = (readyAt: Date, rules: Pick<FarmRules, 'witherAfterMinutes'>): Date =>
  new Date(readyAt.getTime() + rules.witherAfterMinutes * MINUTE_MS);

/** A plot's state at `now`. */
export function plotStateAt(
  plot: Pick<PlotRecord, 'plantingId' | 'readyAt'>,
  rules: Pick<FarmRules, 'witherAfterMinutes'>,
  now: Date,
): Exclude<PlotState, 'locked'> {
  if (plot.plantingId == null || !plot.readyAt) return 'empty';
  if (now.getTime() < plot.readyAt.getTime()) return 'growing';
  return now.getTime() < witherAtOf(plot.readyAt, rules).getTime() ? 'ripe' : 'withered';
}

/** How far the crop has grown, 0…1 (1 when ripe), from planting to its current ready time. */
export function growthOf(plot: Pick<PlotRecord, 'plantedAt' | 'readyAt'>, now: Date): number {
  if (!plot.plantedAt || !plot.readyAt) return 0;
  const total = plot.readyAt.getTime() - plot.plantedAt.getTime();
  if (total <= 0) return 1;
  return Math.min(1, Math.max(0, (now.getTime() - plot.plantedAt.getTime()) / total));
}

/** The drawing for a state and growth: seed under 25 %, sprout under 60 %, young plant until ripe. */
export function stageOf(state: Exclude<PlotState, 'locked'>, growth: number): GrowthStage {
  if (state === 'withered') return 4;
  if (state === 'ripe') return 3;
  if (growth < 0.25) return 0;
  return growth < 0.6 ? 1 : 2;
}

/** When the plot may be watered again (null: now, if it is growing). */
export function nextWaterAtOf(
  plot: Pick<PlotRecord, 'lastWateredAt'>,
  rules: Pick<FarmRules, 'waterCooldownMinutes'>,
): Date | null {
  return plot.lastWateredAt ? new Date(plot.lastWateredAt.getTime() + rules.waterCooldownMinutes * MINUTE_MS) : null;
}

/** Whether watering is allowed at `now`: the crop is growing and the plot's window is open. */
export function canWaterAt(
  plot: Pick<PlotRecord, 'plantingId' | 'readyAt' | 'lastWateredAt'>,
  rules: Pick<FarmRules, 'waterCooldownMinutes' | 'witherAfterMinutes'>,
  now: Date,
): boolean {
  if (plotStateAt(plot, rules, now) !== 'growing') return false;
  const next = nextWaterAtOf(plot, rules);
  return !next || now.getTime() >= next.getTime();
}

/**
 * The ready time after a watering at `now`: the time still to grow, shortened by the percentage, by at
 * least one minute, never before `now`. Whole seconds, so every instance computes the same instant.
 * @example wateredReadyAt(new Date('…T10:00Z'), { waterSpeedupPercent: 25 }, new Date('…T06:00Z')) // …T09:00Z
 */
export function wateredReadyAt(readyAt: Date, rules: Pick<FarmRules, 'waterSpeedupPercent'>, now: Date): Date {
  const remaining = readyAt.getTime() - now.getTime();
  if (remaining <= 0) return readyAt;
  const cut = Math.max(MINUTE_MS, Math.floor((remaining * rules.waterSpeedupPercent) / 100 / 1000) * 1000);
  return new Date(Math.max(now.getTime(), readyAt.getTime() - cut));
}

/** The coins a reward may still give today: what the cap leaves. @example cappedCoins(10, 25, 30) // 5 */
export function cappedCoins(wanted: number, earnedToday: number, cap: number): number {
  return Math.max(0, Math.min(wanted, cap - earnedToday));
}

/** A plot's state in words, for the button a screen reader announces. */
export function plotLabelOf(
  plot: { plotNo: number; state: PlotState; seedName: string | null; unlockLevel?: number | null },
  timeLeft: string,
): string {
  const name = `畑${plot.plotNo}`;
  switch (plot.state) {
    case 'locked':
      return `${name}：レベル${plot.unlockLevel ?? ''}で解放`;
    case 'empty':
      return `${name}：空き。種を植える`;
    case 'growing':
      return `${name}：${plot.seedName ?? '作物'}が成長中、収穫まであと${timeLeft}`;
    case 'ripe':
      return `${name}：${plot.seedName ?? '作物'}が収穫できます${timeLeft ? `（枯れるまであと${timeLeft}）` : ''}`;
    case 'withered':
      return `${name}：${plot.seedName ?? '作物'}が枯れました。片付ける`;
  }
}
