// The farm page's client-side reading of the server's view (decision 044): a plot's state, stage and
// countdowns at the page's clock (the server's clock plus the time since), the words a screen reader
// hears for each plot, and the change an intention is expected to make before the server answers.
// Nothing here decides anything: the server's next answer replaces all of it.
import {
  growthOf,
  plotLabelOf,
  stageOf,
  wateredReadyAt,
  type FarmPlotView,
  type FarmView,
  type GrowthStage,
  type PlotState,
} from '#modules/farm/browser';
import { formatCountdownMs as formatCountdown } from '#modules/kernel/dates/countdown';

const MINUTE_MS = 60_000;

/** A plot as it stands at the page's clock. */
export interface PlotAt {
  state: PlotState;
  stage: GrowthStage | null;
  growth: number;
  /** Growing: until ripe; ripe: until it withers; otherwise 0. */
  timeLeftMs: number;
  canWater: boolean;
  /** Growing and watered recently: until watering opens again (0 when open). */
  waterWaitMs: number;
}

const parse = (iso: string | null): number | null => (iso ? Date.parse(iso) : null);

/** The plot at `nowMs` (the server's clock as the page keeps it), from the server's view of it. */
export function plotAt(plot: FarmPlotView, farm: Pick<FarmView, 'rules'>, nowMs: number): PlotAt {
  const none = { stage: null, growth: 0, timeLeftMs: 0, canWater: false, waterWaitMs: 0 };
  if (plot.state === 'locked') return { state: 'locked', ...none };
  const readyAt = parse(plot.readyAt);
  if (!plot.seed || readyAt == null) return { state: 'empty', ...none };
  const now = new Date(nowMs);
  if (nowMs < readyAt) {
    const growth = growthOf(
      { plantedAt: plot.plantedAt ? new Date(plot.plantedAt) : null, readyAt: new Date(readyAt) },
      now,
    );
    const nextWater = parse(plot.nextWaterAt);
    const waterWaitMs = nextWater == null ? 0 : Math.max(0, nextWater - nowMs);
    return {
      state: 'growing',
      stage: stageOf('growing', growth),
      growth,
      timeLeftMs: readyAt - nowMs,
      canWater: waterWaitMs === 0,
      waterWaitMs,
    };
  }
  const witherAt = parse(plot.witherAt) ?? readyAt + farm.rules.witherAfterMinutes * MINUTE_MS;
  if (nowMs < witherAt) return { ...none, state: 'ripe', stage: 3, growth: 1, timeLeftMs: witherAt - nowMs };
  return { ...none, state: 'withered', stage: 4, growth: 1 };
}

/** The plot button's accessible name: its state in words, with the countdown in Japanese units. */
export function plotLabel(plot: FarmPlotView, at: PlotAt): string {
  const label = plotLabelOf(
    { plotNo: plot.plotNo, state: at.state, seedName: plot.seed?.name ?? null, unlockLevel: plot.unlockLevel },
    formatCountdown(at.timeLeftMs, 'ja'),
  );
  return at.state === 'growing' && at.canWater ? `${label}（水やりできます）` : label;
}

/** A seed's grow time in Japanese units. @example growTimeText(90) // '1時間30分' */
export function growTimeText(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest}分`;
  return rest === 0 ? `${hours}時間` : `${hours}時間${rest}分`;
}

/** Why watering is closed, in words (null when it is open). */
export function waterWaitText(at: PlotAt): string | null {
  if (at.state !== 'growing' || at.canWater) return null;
  return `あと${formatCountdown(at.waterWaitMs, 'ja')}で水やりできます`;
}

/** Coins a harvest would give today, after the daily cap. */
export function harvestCoinsToday(reward: number, today: FarmView['today']): number {
  return Math.max(0, Math.min(reward, today.cap - today.coins));
}

/** What the cap does to a harvest of `reward` coins, in words (null when it gives the whole reward). */
export function capNotice(reward: number, today: FarmView['today']): string | null {
  const coins = harvestCoinsToday(reward, today);
  if (coins === reward) return null;
  if (coins === 0) return '今日の上限に達しているため、コインは増えません';
  return `今日の上限まであと${coins}コインのため、もらえるのは${coins}コインです`;
}

/** An intention as the page posts it (the form's fields; never times or amounts). */
export interface FarmIntention {
  intent: string;
  plotNo?: number;
  seedId?: string;
}

/** Reads an intention back from a pending submission's form data. */
export function intentionOf(form: FormData | undefined): FarmIntention | null {
  const intent = form?.get('intent');
  if (typeof intent !== 'string') return null;
  const plotNo = Number(form?.get('plotNo'));
  const seedId = form?.get('seedId');
  return {
    intent,
    plotNo: Number.isInteger(plotNo) && plotNo > 0 ? plotNo : undefined,
    seedId: typeof seedId === 'string' ? seedId : undefined,
  };
}

/**
 * The farm as an intention is expected to leave it (the optimistic picture while the server answers).
 * An intention the page cannot picture (an unknown seed, a plot not in that state) leaves it unchanged.
 */
export function expectedFarm(farm: FarmView, intention: FarmIntention, nowMs: number): FarmView {
  const index = farm.plots.findIndex((plot) => plot.plotNo === intention.plotNo);
  if (index < 0) return farm;
  const plot = farm.plots[index];
  const at = plotAt(plot, farm, nowMs);
  const now = new Date(nowMs).toISOString();
  const empty: FarmPlotView = {
    ...plot,
    state: 'empty',
    seed: null,
    rewardCoins: null,
    plantedAt: null,
    readyAt: null,
    witherAt: null,
    growth: 0,
    stage: null,
    canWater: false,
    nextWaterAt: null,
    waterings: 0,
  };
  let next: FarmPlotView = plot;
  let today = farm.today;
  if (intention.intent === 'plant' && at.state === 'empty') {
    const seed = farm.seeds.find((candidate) => candidate.id === intention.seedId && !candidate.locked);
    if (!seed) return farm;
    const readyAt = nowMs + seed.growMinutes * MINUTE_MS;
    next = {
      ...empty,
      state: 'growing',
      seed: { id: seed.id, name: seed.name, art: seed.art },
      rewardCoins: seed.rewardCoins,
      plantedAt: now,
      readyAt: new Date(readyAt).toISOString(),
      witherAt: new Date(readyAt + farm.rules.witherAfterMinutes * MINUTE_MS).toISOString(),
      stage: 0,
      canWater: true,
    };
  } else if (intention.intent === 'water' && at.state === 'growing' && at.canWater && plot.readyAt) {
    const readyAt = wateredReadyAt(new Date(plot.readyAt), farm.rules, new Date(nowMs)).getTime();
    next = {
      ...plot,
      readyAt: new Date(readyAt).toISOString(),
      witherAt: new Date(readyAt + farm.rules.witherAfterMinutes * MINUTE_MS).toISOString(),
      canWater: false,
      nextWaterAt: new Date(nowMs + farm.rules.waterCooldownMinutes * MINUTE_MS).toISOString(),
      waterings: plot.waterings + 1,
    };
  } else if (intention.intent === 'harvest' && at.state === 'ripe') {
    next = empty;
    const coins = harvestCoinsToday(plot.rewardCoins ?? 0, today);
    today = { ...today, coins: today.coins + coins, harvests: today.harvests + 1 };
  } else if (intention.intent === 'clear' && at.state === 'withered') {
    next = empty;
  } else {
    return farm;
  }
  const plots = farm.plots.slice();
  plots[index] = next;
  return { ...farm, plots, today };
}

/** A fresh idempotency key per tap (randomUUID needs a secure context; fall back to random bytes). */
export function tapKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
