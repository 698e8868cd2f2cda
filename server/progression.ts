// The level and rank rules from the shop's settings (decision 037), for main, the jobs, the pages and the API.
import { defaultLevelRewards, defaultLevelThresholds, type LevelRules, type RankRules } from '#modules/progression';
import type { ShopConfig } from './config';

type ProgressionSettings = Pick<
  ShopConfig,
  'LEVEL_EXP_THRESHOLDS' | 'LEVEL_REWARDS' | 'RANK_UP_REWARDS' | 'PROGRESSION_REWARD_CLAIM_DAYS'
>;

/** @example await syncLevelTable(db, levelRulesOf(config)) */
export const levelRulesOf = (config: ProgressionSettings): LevelRules => ({
  thresholds: config.LEVEL_EXP_THRESHOLDS ?? defaultLevelThresholds(),
  rewards: config.LEVEL_REWARDS ?? defaultLevelRewards(),
  claimDays: config.PROGRESSION_REWARD_CLAIM_DAYS,
});

/** @example await recordMonthlyRanks(db, rankRulesOf(config)) */
export const rankRulesOf = (config: ProgressionSettings): RankRules => ({
  rankUpRewards: config.RANK_UP_REWARDS,
  claimDays: config.PROGRESSION_REWARD_CLAIM_DAYS,
});
