// Every table of the shop, gathered for Drizzle and drizzle-kit; each module owns its own file.
export * from '../modules/identity/schema';
export * from '../modules/gacha/schema';
export * from '../modules/content/schema';
export * from '../modules/wallet/schema';
export * from '../modules/draw/schema';
export * from '../modules/progression/schema';
export * from '../modules/idempotency/schema';
export * from '../modules/payments/schema';
export * from '../modules/messaging/schema';
export * from '../modules/admin/schema';
export * from '../modules/shipping/schema';
export * from '../modules/shop/schema';
export * from '../modules/support/schema';

export { appMeta, moduleSql } from './app-meta';
export * from '../modules/shipping/schema';
export * from '../modules/risk/schema';
export * from '../modules/promo/schema';
export * from '../modules/bonus/schema';
export * from '../modules/mailbox/schema';
export * from '../modules/ranking/schema';
export * from '../modules/invitation/schema';
export * from '../modules/limits/schema';
export * from '../modules/waitingroom/schema';
export * from '../modules/farm/schema';
export * from '../modules/friends/schema';
