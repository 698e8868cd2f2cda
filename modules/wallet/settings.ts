// The wallet's settings (decision 065): how long coins live.
import { z } from 'zod';
import { declareSettings } from '#modules/kernel';

export const walletSettings = declareSettings({
  title: 'Coins',
  shape: {
    /** Lifetime of paid coins (資金決済法: keep within 180 days for the exemption). */
    PAID_COIN_EXPIRY_DAYS: z.coerce.number().int().min(1).max(180).default(180),
    /** Lifetime of free coins unless a grant says otherwise. */
    FREE_COIN_EXPIRY_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  },
  docs: {
    PAID_COIN_EXPIRY_DAYS: {
      meaning:
        'lifetime of paid coins (at most 180: the 資金決済法 exemption for prepaid instruments valid under six months)',
    },
    FREE_COIN_EXPIRY_DAYS: {
      meaning: 'lifetime of free coins (bonuses, conversions) unless a grant says otherwise',
    },
  },
});
