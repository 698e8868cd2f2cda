// Levels, ranks and rankings (decision 037): the monthly rank job and the rankings' fold.
import type { JobDefinition } from './runner';
import { recordMonthlyRanks, type RankRules } from '#modules/progression';
import { foldRankings } from '#modules/ranking';

/**
 * Hourly (Asia/Tokyo cron, so the first run of a month is at 00:05 on the 1st): records the month's ranks
 * and sends the rank-up mails. A finished month is one indexed read; a late or failed run is caught up
 * by the next (every missed month, in order), and the batches make a crash half-way harmless.
 */
export const monthlyRanksJob = (rules: RankRules): JobDefinition => ({
  name: 'progression.monthly-ranks',
  cron: '5 * * * *',
  expireInSeconds: 3_600,
  handler: async ({ db, now }) => {
    const run = await recordMonthlyRanks(db, rules, now);
    return { processed: run.members };
  },
});

/** Seconds a draw waits before the boards count it: longer than any draw's transaction. */
export const RANKING_SETTLE_SECONDS = 30;
/** Draws per fold transaction. */
export const RANKING_BATCH_ROWS = 20_000;

/** Every minute: the completed draws since the last fold into the three boards' scores. */
export const foldRankingsJob = (): JobDefinition => ({
  name: 'ranking.fold',
  cron: '* * * * *',
  handler: async ({ db }) => {
    let folded = 0;
    for (;;) {
      const step = await foldRankings(db, { settleSeconds: RANKING_SETTLE_SECONDS, batchRows: RANKING_BATCH_ROWS });
      folded += step.folded;
      if (step.caughtUp) break;
    }
    return { processed: folded };
  },
});
