// The login bonus's rules from the shop's settings (decision 033), for the API and the pages alike.
import type { LoginBonusRules } from '#modules/bonus';
import type { ShopConfig } from './config';

/** @example claimLoginBonus(db, memberId, loginBonusRules(services.config)) */
export const loginBonusRules = (
  config: Pick<ShopConfig, 'LOGIN_BONUS_STREAK_COINS' | 'LOGIN_BONUS_AFTER_TABLE' | 'FREE_COIN_EXPIRY_DAYS'>,
): LoginBonusRules => ({
  streakCoins: config.LOGIN_BONUS_STREAK_COINS,
  afterTable: config.LOGIN_BONUS_AFTER_TABLE,
  freeCoinDays: config.FREE_COIN_EXPIRY_DAYS,
});
