// Shipping's jobs: the promise kept (compensation once a request's promised day is over without its
// parcel leaving) and the kept prizes' storage reminders. Both are safe to overlap and to repeat: each
// request or prize is taken under its row lock and recorded in the same transaction as its notice.
import type { JobDefinition } from './runner';
import { compensateLateShipments, sendKeptPrizeReminders, type ShippingRules } from '#modules/shipping';

export const compensateLateShipmentsJob = (rules: ShippingRules): JobDefinition => ({
  name: 'shipping.compensate-late',
  // The promise ends at 24:00 JST: within ten minutes of it the member has the coins.
  cron: '*/10 * * * *',
  handler: async ({ db, now }) => ({ processed: await compensateLateShipments(db, rules, now) }),
});

export const keptPrizeRemindersJob = (rules: ShippingRules): JobDefinition => ({
  name: 'prizes.storage-reminders',
  cron: '20 * * * *',
  handler: async ({ db, now }) => ({ processed: await sendKeptPrizeReminders(db, rules, now) }),
});
