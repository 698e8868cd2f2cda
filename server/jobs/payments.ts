// The coin shop's jobs: process stored provider events (the events table is the queue; the webhook
// route processes at once, this sweeps what failed or was left), and expire abandoned checkouts.
import type { JobDefinition } from './runner';
import { expireStaleOrders, processPaymentEvents, reconcilePaidOrders } from '#modules/payments';
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
  handler: async ({ db, now }) => ({
    processed: await expireStaleOrders(db, payments.gateway, payments.rules, now, 100),
  }),
});

/** Providers that send no event for a refund made in their own dashboard (PayPay; メルペイ has no refund callback). */
export const PROVIDERS_WITHOUT_REFUND_EVENTS = ['paypay', 'merpay'];

export const reconcilePaidOrdersJob = (payments: PaymentServices): JobDefinition => ({
  name: 'payments.reconcile-paid',
  cron: '17 * * * *',
  handler: async ({ db, now }) => ({
    processed: await reconcilePaidOrders(db, payments.gateway, {
      methods: PROVIDERS_WITHOUT_REFUND_EVENTS,
      rules: payments.rules,
      now,
    }),
  }),
});
