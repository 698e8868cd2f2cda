// The operators' dashboard's jobs (docs/decisions/028): fold new draws, sales and sign-ups into the
// daily rollups, and keep the 資金決済法 figure for the next base date, so /admin reads no big table.
import type { JobDefinition } from './runner';
import { foldDrawRollups } from '#modules/draw';
import { foldSalesRollups, refreshUnusedPaidSnapshot } from '#modules/payments';
import { foldMemberRollups } from '#modules/identity';

/**
 * Seconds a row waits before it is folded: longer than any draw, crediting or sign-up transaction
 * (each is one short call), so none can still commit behind the watermark with an earlier timestamp.
 */
export const ROLLUP_SETTLE_SECONDS = 120;
/** Draws per fold transaction (a shop's first fold, over all its past draws, takes several). */
export const ROLLUP_BATCH_ROWS = 200_000;

/**
 * Every minute: draws, credited orders and new members since the last fold. Each fold is its own
 * transaction under its watermark's lock, so a run that fails half-way is simply finished by the next.
 */
export const foldDashboardRollupsJob = (settleSeconds: number): JobDefinition => ({
  name: 'reports.fold-rollups',
  cron: '* * * * *',
  handler: async ({ db }) => {
    const rules = { settleSeconds };
    let draws = 0;
    for (;;) {
      const step = await foldDrawRollups(db, { ...rules, batchRows: ROLLUP_BATCH_ROWS });
      draws += step.folded;
      if (step.caughtUp) break;
    }
    const orders = await foldSalesRollups(db, rules);
    const members = await foldMemberRollups(db, rules);
    return { processed: draws + orders + members };
  },
});

/** Every 15 minutes: the unused paid-coin balance for the next base date (a ledger-wide sum). */
export const unusedPaidSnapshotJob = (): JobDefinition => ({
  name: 'payments.unused-paid-snapshot',
  cron: '*/15 * * * *',
  handler: async ({ db, now }) => {
    await refreshUnusedPaidSnapshot(db, now);
    return { processed: 1 };
  },
});
