// The jobs of the shop's money and lot rules: coin expiry, prize auto-conversion, sale windows.
// Each runs once per tick across all instances (pg-boss schedule) and is safe to repeat: the
// module functions write ledger entries keyed by grant or prize, so a re-run credits nothing twice.
import type { JobDefinition } from './runner';
import { expireDueCoins } from '#modules/wallet';
import { autoConvertDuePrizes } from '#modules/draw';
import { advanceSaleWindows, refreshAllRemaining } from '#modules/gacha';
import { forgetOldKeys } from '#modules/idempotency';

export const expireCoinsJob = (): JobDefinition => ({
  name: 'wallet.expire-coins',
  cron: '*/10 * * * *',
  handler: async ({ db, now }) => ({ processed: await expireDueCoins(db, now) }),
});

export const autoConvertPrizesJob = (freeCoinDays: number): JobDefinition => ({
  name: 'prizes.auto-convert',
  cron: '*/10 * * * *',
  handler: async ({ db, now }) => ({ processed: await autoConvertDuePrizes(db, freeCoinDays, now, 200) }),
});

export const saleWindowsJob = (): JobDefinition => ({
  name: 'gacha.sale-windows',
  cron: '* * * * *',
  handler: async ({ db, now }) => ({ processed: await advanceSaleWindows(db, now) }),
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
