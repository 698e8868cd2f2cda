// The shipping rules from the settings, built once per settings object: the pages, the API and the
// jobs pass the same ShippingRules to the shipping module's functions.
import type { ShippingRules } from '#modules/shipping';
import type { ShopConfig } from './config';

/** The settings shipping reads. */
export type ShippingConfig = Pick<
  ShopConfig,
  | 'SHIPPING_FEE_COINS'
  | 'SHIPPING_MIN_PRIZES'
  | 'SHIPPING_BUSINESS_DAYS'
  | 'SHIPPING_CLOSED_DAYS'
  | 'SHIPPING_CUTOFF_HOUR'
  | 'SHIPPING_LATE_COMPENSATION_COINS'
  | 'KEPT_PRIZE_STORAGE_DAYS'
  | 'FREE_COIN_EXPIRY_DAYS'
  | 'SITE_NAME'
  | 'PUBLIC_ORIGIN'
  | 'addressKeyring'
>;

const built = new WeakMap<ShippingConfig, ShippingRules>();

/**
 * @example const rules = shippingRulesOf(services.config); await createShippingRequest(services.db, rules, input)
 */
export function shippingRulesOf(config: ShippingConfig): ShippingRules {
  let rules = built.get(config);
  if (!rules) {
    rules = {
      feeCoins: config.SHIPPING_FEE_COINS,
      minPrizes: config.SHIPPING_MIN_PRIZES,
      dates: {
        businessDays: config.SHIPPING_BUSINESS_DAYS,
        closedDays: config.SHIPPING_CLOSED_DAYS,
        cutoffHour: config.SHIPPING_CUTOFF_HOUR,
      },
      storageDays: config.KEPT_PRIZE_STORAGE_DAYS,
      freeCoinDays: config.FREE_COIN_EXPIRY_DAYS,
      lateCompensationCoins: config.SHIPPING_LATE_COMPENSATION_COINS,
      site: { name: config.SITE_NAME, origin: config.PUBLIC_ORIGIN },
      keyring: config.addressKeyring,
    };
    built.set(config, rules);
  }
  return rules;
}
