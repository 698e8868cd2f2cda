// The coin shop's jobs: process stored provider events (the events table is the queue; the webhook
// route processes at once, this sweeps what failed or was left), and expire abandoned checkouts.
import type { JobDefinition } from './runner';
import { expireStaleOrders, processPaymentEvents } from '../../modules/payments';
import type { PaymentServices } from '../payments';

export const paymentEventsJob = (payments: PaymentServices): JobDefinition => ({
  name: 'payments.process-events',
  cron: '* * * * *',
  handler: async ({ db }) => {
    const { processed } = await processPaymentEvents(db, payments.gateway, { limit: 200, rules: payments.rules });
    return { processed };
  },
});

export const expireOrdersJob = (payments: PaymentServices): JobDefinition => ({
  name: 'payments.expire-orders',
  cron: '*/5 * * * *',
  handler: async ({ db, now }) => ({ processed: await expireStaleOrders(db, payments.gateway, now) }),
});
