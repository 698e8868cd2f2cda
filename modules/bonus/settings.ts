// The login bonus's settings (decisions 033 and 065): the streak table and what follows its last day.
import { z } from 'zod';
import { declareSettings } from '#modules/kernel';

export const bonusSettings = declareSettings({
  title: 'The login bonus',
  shape: {
    /**
     * The daily login bonus (decision 033): free coins for day 1, 2, … of a streak of Japan-time days,
     * comma-separated positive integers; "0" turns the bonus off.
     */
    LOGIN_BONUS_STREAK_COINS: z
      .string()
      .default('10,10,20,20,30,30,100')
      .transform((text, context) => {
        if (text.trim() === '0') return [] as number[];
        const coins = text.split(',').map((entry) => entry.trim());
        for (const entry of coins)
          if (!/^[1-9]\d{0,5}$/.test(entry))
            context.addIssue({
              code: 'custom',
              message: `${entry || '(empty)'} is not a coin amount from 1 to 999999 (or "0" alone to turn the bonus off)`,
            });
        if (coins.length > 31) context.addIssue({ code: 'custom', message: 'at most 31 days in the streak table' });
        return coins.map(Number);
      }),
    /** After the table's last day: start it again (repeat) or keep giving its last amount (hold). */
    LOGIN_BONUS_AFTER_TABLE: z.enum(['repeat', 'hold']).default('repeat'),
  },
  docs: {
    LOGIN_BONUS_STREAK_COINS: {
      allowed: 'comma-separated amounts from 1 to 999999 (at most 31), or `0` alone',
      meaning:
        'daily login bonus (free coins) for day 1, 2, … of a streak of Japan-time days; `0` turns it off (decision 033)',
    },
    LOGIN_BONUS_AFTER_TABLE: {
      meaning: "after the table's last day: `repeat` starts it again, `hold` keeps its last amount",
    },
  },
});
