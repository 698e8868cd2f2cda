// Progression's settings (decisions 037 and 065): the level table, and the rewards of levels and ranks.
import { z } from 'zod';
import { coinList, declareSettings } from '#modules/kernel';

export const progressionSettings = declareSettings({
  title: 'Levels and ranks',
  shape: {
    /**
     * Levels (decision 037): cumulative exp at which level 2, 3, … is reached, comma-separated, strictly
     * rising; unset: 1,000 × (level − 1)² up to level 100; "0": no levels.
     */
    LEVEL_EXP_THRESHOLDS: coinList('LEVEL_EXP_THRESHOLDS', 1_000_000_000_000, 1000)
      .optional()
      .refine(
        (list) => !list || list.every((exp, i) => exp > (i === 0 ? 0 : list[i - 1]!)),
        'thresholds must rise strictly (level 2 first)',
      ),
    /**
     * Free coins attached to the level-up mail of level 2, 3, …, comma-separated (the last amount repeats
     * for higher levels); unset: 10 × the level, 100 × at every tenth level; "0": mails without coins.
     */
    LEVEL_REWARDS: coinList('LEVEL_REWARDS', 1_000_000, 1000).optional(),
    /** Free coins attached to the rank-up mail for レギュラー, ブロンズ, シルバー, ゴールド, プラチナ, ダイヤモンド (6 amounts; 0 = none). */
    RANK_UP_REWARDS: coinList('RANK_UP_REWARDS', 1_000_000, 6)
      .default([0, 100, 300, 1000, 3000, 10000])
      .refine((list) => list.length === 6, 'give 6 amounts, one per rank from レギュラー to ダイヤモンド'),
    /** Days a level-up or rank-up attachment may be claimed in the mailbox. */
    PROGRESSION_REWARD_CLAIM_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  },
  docs: {
    LEVEL_EXP_THRESHOLDS: {
      default: '(unset: 1,000 × (level − 1)², levels 2–100)',
      allowed: 'comma-separated whole numbers, strictly rising, or `0` alone',
      meaning:
        'cumulative exp at which level 2, 3, … is reached; `0`: no levels (decision 037). Written to ' +
        '`progression_levels` at start, where the draw reads it',
    },
    LEVEL_REWARDS: {
      default: '(unset: 10 × the level, 100 × at every tenth level)',
      allowed: 'comma-separated whole numbers from 0 to 1000000, or `0` alone',
      meaning:
        'free coins attached to the level-up mail of level 2, 3, … (the last amount repeats for higher levels); `0`: ' +
        'level-up mails without coins',
    },
    RANK_UP_REWARDS: {
      allowed: 'six comma-separated whole numbers from 0 to 1000000',
      meaning:
        "free coins attached to the rank-up mail, for レギュラー, ブロンズ, シルバー, ゴールド, プラチナ, ダイヤモンド (sent when a month's " +
        "rank is higher than the month before's)",
    },
    PROGRESSION_REWARD_CLAIM_DAYS: {
      meaning: 'days a level-up or rank-up attachment may be claimed in the mailbox',
    },
  },
});
