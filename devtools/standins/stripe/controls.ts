// The Stripe stand-in's test controls: what a test may do to sessions, events and the server.
import { type listenStandin, token } from '#devtools/standins/shared';
import type { StandinDispute, StandinEvent, StripeStandin } from './index';
import { doApprove, doDecline, doExpire, doRefund, ensureIntent, newCharge, openSession, paidCharge } from './changes';
import { disputeOf, mustEvent, mustSession } from './objects';
import { now, type StripeState } from './state';
import { deliver, deliverAll, emit, signWebhook } from './webhooks';

/** What tests and the shop's wiring hold: the URL, close(), and the Dashboard-like controls. */
export function controlsOf(
  state: StripeState,
  server: Awaited<ReturnType<typeof listenStandin>>['server'],
): StripeStandin {
  return {
    url: state.baseUrl,
    async close() {
      await Promise.allSettled([...state.inFlight]);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
    getSession: (id) => (state.sessions.has(id) ? structuredClone(state.sessions.get(id)!) : undefined),
    getPaymentIntent: (id) => (state.intents.has(id) ? structuredClone(state.intents.get(id)!) : undefined),
    getCharge: (id) => (state.charges.has(id) ? structuredClone(state.charges.get(id)!) : undefined),
    async approve(sessionId) {
      const session = openSession(state, sessionId);
      await deliverAll(state, doApprove(state, session));
      return structuredClone(session);
    },
    async decline(sessionId, message) {
      const session = openSession(state, sessionId);
      await deliverAll(state, doDecline(state, session, message));
      return structuredClone(session);
    },
    async submitAsync(sessionId) {
      const session = openSession(state, sessionId);
      const intent = ensureIntent(state, session);
      intent.status = 'processing';
      session.status = 'complete';
      session.payment_status = 'unpaid';
      session.url = null;
      session.customer_details = { email: session.customer_email ?? 'test@example.com' };
      await deliverAll(state, [
        emit(state, 'payment_intent.processing', intent),
        emit(state, 'checkout.session.completed', session),
      ]);
      return structuredClone(session);
    },
    async settleAsync(sessionId, outcome) {
      const session = mustSession(state, sessionId);
      const intent = session.payment_intent ? state.intents.get(session.payment_intent) : undefined;
      if (session.status !== 'complete' || session.payment_status !== 'unpaid' || intent?.status !== 'processing') {
        throw new Error(`stripe stand-in: session ${sessionId} has no delayed payment in progress`);
      }
      const list: StandinEvent[] = [];
      if (outcome === 'succeeded') {
        list.push(emit(state, 'charge.succeeded', newCharge(state, intent, true)));
        intent.status = 'succeeded';
        intent.amount_received = intent.amount;
        session.payment_status = 'paid';
        list.push(
          emit(state, 'payment_intent.succeeded', intent),
          emit(state, 'checkout.session.async_payment_succeeded', session),
        );
      } else {
        const charge = newCharge(state, intent, false, 'The payment was not completed in time.');
        intent.status = 'requires_payment_method';
        intent.last_payment_error = {
          type: 'card_error',
          code: 'payment_intent_payment_attempt_expired',
          message: charge.failure_message!,
          charge: charge.id,
        };
        list.push(
          emit(state, 'charge.failed', charge),
          emit(state, 'payment_intent.payment_failed', intent),
          emit(state, 'checkout.session.async_payment_failed', session),
        );
      }
      await deliverAll(state, list);
      return structuredClone(session);
    },
    async expire(sessionId) {
      const session = openSession(state, sessionId);
      await deliverAll(state, doExpire(state, session));
      return structuredClone(session);
    },
    async refund(sessionId, amountJpy) {
      const charge = paidCharge(state, mustSession(state, sessionId));
      const result = doRefund(state, charge, amountJpy, 'requested_by_customer', {});
      if ('error' in result) throw new Error(`stripe stand-in: ${result.error.message}`);
      await deliverAll(state, result.events);
      return structuredClone(charge);
    },
    async chargeBack(sessionId) {
      const charge = paidCharge(state, mustSession(state, sessionId));
      if (charge.disputed) throw new Error(`stripe stand-in: charge ${charge.id} is already disputed`);
      const dispute: StandinDispute = {
        id: `du_${token(24)}`,
        object: 'dispute',
        amount: charge.amount - charge.amount_refunded,
        charge: charge.id,
        created: now(),
        currency: 'jpy',
        is_charge_refundable: false,
        livemode: false,
        metadata: {},
        payment_intent: charge.payment_intent,
        reason: 'fraudulent',
        status: 'needs_response',
      };
      state.disputes.set(dispute.id, dispute);
      charge.disputed = true;
      await deliverAll(state, [emit(state, 'charge.dispute.created', dispute)]);
      return structuredClone(dispute);
    },
    async closeDispute(sessionId, outcome) {
      const dispute = disputeOf(state, mustSession(state, sessionId));
      dispute.status = outcome;
      await deliverAll(state, [emit(state, 'charge.dispute.closed', dispute)]);
      return structuredClone(dispute);
    },
    events: () => state.events.map((e) => ({ ...e, deliveries: [...e.deliveries] })),
    lastEvent(type) {
      const event = state.events.findLast((e) => e.type === type);
      return event ? { ...event, deliveries: [...event.deliveries] } : undefined;
    },
    signWebhook: (eventId, opts) => signWebhook(state, eventId, opts),
    async sendWebhook(eventId, opts = {}) {
      const url = opts.url ?? state.options.webhookUrl;
      if (!url) throw new Error('stripe stand-in: no webhook URL');
      return deliver(state, mustEvent(state, eventId), url);
    },
    failNextRequests(count, status = 500) {
      state.failures = { count, status };
    },
  };
}
