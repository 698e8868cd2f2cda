// The farm as the page and the API show it (JSON-safe: instants are ISO strings). Browser-safe.
import type { GrowthStage, PlotState } from './rules';

export interface FarmPlotView {
  plotNo: number;
  state: PlotState;
  /** Level that opens a locked plot (null otherwise). */
  unlockLevel: number | null;
  seed: { id: string; name: string; art: string } | null;
  /** Coins the harvest promises (before the daily cap). */
  rewardCoins: number | null;
  plantedAt: string | null;
  readyAt: string | null;
  /** When a ripe crop withers (null while empty). */
  witherAt: string | null;
  /** 0…1 at `FarmView.now`. */
  growth: number;
  stage: GrowthStage | null;
  /** The plot may be watered now. */
  canWater: boolean;
  /** When watering opens again (null: open now, or nothing to water). */
  nextWaterAt: string | null;
  waterings: number;
}

export interface FarmSeedView {
  id: string;
  name: string;
  art: string;
  growMinutes: number;
  rewardCoins: number;
  unlockLevel: number;
  /** The member's level is below unlockLevel. */
  locked: boolean;
}

export interface FarmView {
  paused: boolean;
  /** The server's clock when the view was made: the page ticks from here. */
  now: string;
  /** Today in Japan, YYYY-MM-DD. */
  day: string;
  /** When today ends in Japan (caps and friends' watering open again). */
  nextDayAt: string;
  level: number;
  plots: FarmPlotView[];
  seeds: FarmSeedView[];
  today: {
    coins: number;
    cap: number;
    harvests: number;
    waterings: number;
    friendWaterings: number;
  };
  /** Consecutive Japan-time days played up to today (or yesterday, if not played yet today). */
  streak: number;
  rules: {
    waterCooldownMinutes: number;
    waterSpeedupPercent: number;
    witherAfterMinutes: number;
    dailyCoinCap: number;
    friendWaterCoins: number;
  };
}

/** What an action answers: what changed, what it gave, and the farm after it. */
export interface FarmActionResult {
  action: 'plant' | 'water' | 'harvest' | 'clear' | 'friend_water';
  plotNo: number | null;
  /** Free coins granted to the member by this action (after the daily cap). */
  coins: number;
  /** Coins the daily cap held back (0 when none). */
  cappedCoins: number;
  /** friend_water: coins the friend received. */
  friendCoins?: number;
  farm: FarmView;
}
