// The jobs of the shop's money and lot rules: coin expiry, prize auto-conversion, sale windows.
// Each runs once per tick across all instances (pg-boss schedule) and is safe to repeat: the
// module functions write ledger entries keyed by grant or prize, so a re-run credits nothing twice.
import { readMaintenance, salesStopRefusal } from '#modules/shop';
import type { JobDefinition } from './runner';
import { expireDueCoins } from '#modules/wallet';
import { autoConvertDuePrizes, recordRecentWins, type AutoConversion } from '#modules/draw';
import type { Database } from '#db/client';
import { advanceSaleWindows, endEveryPackOnSale, refreshAllRemaining } from '#modules/gacha';
import { forgetOldKeys } from '#modules/idempotency';

export const expireCoinsJob = (): JobDefinition => ({
  name: 'wallet.expire-coins',
  cron: '*/10 * * * *',
  handler: async ({ db, now }) => ({ processed: await expireDueCoins(db, now) }),
});

/** Undecided prizes past their window and kept prizes past their storage; `onConverted` tells the member. */
export const autoConvertPrizesJob = (
  freeCoinDays: number,
  onConverted?: (tx: Database, conversion: AutoConversion) => Promise<void>,
): JobDefinition => ({
  name: 'prizes.auto-convert',
  cron: '*/10 * * * *',
  // Members cannot choose during maintenance (their conversions and keeps are refused), so nothing is
  // chosen for them either: the run waits, and the first run after maintenance catches up.
  // After the closure's sales stop (decision 085) nothing is converted: free coins would buy nothing and are not
  // refunded, so the cards stay the members' to ship.
  handler: async ({ db, now }) =>
    (await readMaintenance(db)).on || (await salesStopRefusal(db))
      ? { processed: 0 }
      : { processed: await autoConvertDuePrizes(db, freeCoinDays, now, 200, onConverted) },
});

/**
 * Opens and ends packs by their sale windows; once the closure's sales stop has come (decision 085), ends every
 * pack still on sale, so that no page offers a draw the shop refuses.
 */
export const saleWindowsJob = (): JobDefinition => ({
  name: 'gacha.sale-windows',
  cron: '* * * * *',
  handler: async ({ db, now }) => ({
    processed:
      (await advanceSaleWindows(db, now)) + ((await salesStopRefusal(db)) ? await endEveryPackOnSale(db, now) : 0),
  }),
});

export const forgetIdempotencyKeysJob = (): JobDefinition => ({
  name: 'api.forget-idempotency-keys',
  cron: '15 * * * *',
  handler: async ({ db, now }) => ({ processed: await forgetOldKeys(db, now) }),
});

export const refreshRemainingJob = (): JobDefinition => ({
  name: 'gacha.refresh-remaining',
  cron: '* * * * *',
  handler: async ({ db }) => ({ processed: await refreshAllRemaining(db) }),
});

/** How far back the winners feed's catch-up looks (decision 036): wins the live path missed. */
export const WINS_CATCH_UP_SECONDS = 15 * 60;
/**
 * The last minute's draws are the live path's (it records and announces them a second after the draw): a
 * catch-up that recorded one first would keep it from every open stream.
 */
export const WINS_CATCH_UP_GRACE_SECONDS = 60;

/**
 * The winners feed's catch-up: top-tier wins of the last WINS_CATCH_UP_SECONDS that no live recount
 * recorded (an instance stopped between a draw's commit and its recount). Recording is once per prize.
 */
export const recordWinsJob = (highlightCoins: number): JobDefinition => ({
  name: 'draw.record-wins',
  cron: '*/5 * * * *',
  handler: async ({ db }) => ({
    processed: await recordRecentWins(db, {
      highlightCoins,
      windowSeconds: WINS_CATCH_UP_SECONDS,
      graceSeconds: WINS_CATCH_UP_GRACE_SECONDS,
    }),
  }),
});
