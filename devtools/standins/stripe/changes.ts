// The Stripe stand-in's state changes, shared by the API, the hosted page and the test controls.
import { token } from '#devtools/standins/shared';
import type {
  Metadata,
  StandinCharge,
  StandinEvent,
  StandinPaymentIntent,
  StandinRefund,
  StandinSession,
} from './index';
import { mustSession } from './objects';
import { now, type StripeState } from './state';
import { emit } from './webhooks';

/** Checkout creates the PaymentIntent when the member first submits the page (not at session creation). */
export function ensureIntent(state: StripeState, session: StandinSession): StandinPaymentIntent {
  if (session.payment_intent) return state.intents.get(session.payment_intent)!;
  const data = state.intentData.get(session.id) ?? { metadata: {}, description: null };
  const intent: StandinPaymentIntent = {
    id: `pi_${token(24)}`,
    object: 'payment_intent',
    amount: session.amount_total,
    amount_received: 0,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    created: now(),
    currency: 'jpy',
    description: data.description,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: { ...data.metadata },
    payment_method_types: ['card'],
    status: 'requires_payment_method',
  };
  state.intents.set(intent.id, intent);
  session.payment_intent = intent.id;
  return intent;
}

export function newCharge(
  state: StripeState,
  intent: StandinPaymentIntent,
  succeeded: boolean,
  failureMessage?: string,
): StandinCharge {
  const charge: StandinCharge = {
    id: `ch_${token(24)}`,
    object: 'charge',
    amount: intent.amount,
    amount_captured: succeeded ? intent.amount : 0,
    amount_refunded: 0,
    captured: succeeded,
    created: now(),
    currency: 'jpy',
    description: intent.description,
    disputed: false,
    failure_code: succeeded ? null : 'card_declined',
    failure_message: succeeded ? null : (failureMessage ?? 'Your card was declined.'),
    livemode: false,
    // The PaymentIntent's metadata is copied onto its state.charges.
    metadata: { ...intent.metadata },
    paid: succeeded,
    payment_intent: intent.id,
    refunded: false,
    status: succeeded ? 'succeeded' : 'failed',
  };
  state.charges.set(charge.id, charge);
  intent.latest_charge = charge.id;
  return charge;
}

export function openSession(state: StripeState, id: string): StandinSession {
  const session = mustSession(state, id);
  if (session.status !== 'open') throw new Error(`stripe stand-in: session ${id} is ${session.status}, not open`);
  return session;
}

export function doApprove(state: StripeState, session: StandinSession): StandinEvent[] {
  const intent = ensureIntent(state, session);
  newCharge(state, intent, true);
  intent.status = 'succeeded';
  intent.amount_received = intent.amount;
  intent.last_payment_error = null;
  session.status = 'complete';
  session.payment_status = 'paid';
  session.url = null;
  session.customer_details = { email: session.customer_email ?? 'test@example.com' };
  return [
    emit(state, 'charge.succeeded', state.charges.get(intent.latest_charge!)!),
    emit(state, 'payment_intent.succeeded', intent),
    emit(state, 'checkout.session.completed', session),
  ];
}

export function doDecline(state: StripeState, session: StandinSession, message?: string): StandinEvent[] {
  const intent = ensureIntent(state, session);
  const charge = newCharge(state, intent, false, message);
  intent.status = 'requires_payment_method';
  intent.last_payment_error = {
    type: 'card_error',
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: charge.failure_message ?? 'Your card was declined.',
    charge: charge.id,
  };
  return [emit(state, 'charge.failed', charge), emit(state, 'payment_intent.payment_failed', intent)];
}

export function doExpire(state: StripeState, session: StandinSession): StandinEvent[] {
  session.status = 'expired';
  session.url = null;
  const out: StandinEvent[] = [];
  const intent = session.payment_intent ? state.intents.get(session.payment_intent) : undefined;
  if (intent && intent.status !== 'succeeded' && intent.status !== 'canceled') {
    intent.status = 'canceled';
    intent.canceled_at = now();
    intent.cancellation_reason = 'abandoned';
    out.push(emit(state, 'payment_intent.canceled', intent));
  }
  out.push(emit(state, 'checkout.session.expired', session));
  return out;
}

/** Returns an error message (Stripe's wording) or the refund. */
export function doRefund(
  state: StripeState,
  charge: StandinCharge,
  amount: number | undefined,
  reason: string | null,
  metadata: Metadata,
): { error: { code: string; message: string } } | { refund: StandinRefund; events: StandinEvent[] } {
  if (charge.status !== 'succeeded')
    return {
      error: {
        code: 'charge_not_refundable',
        message: `Charge ${charge.id} has not succeeded; it cannot be refunded.`,
      },
    };
  if (charge.disputed)
    return {
      error: { code: 'charge_disputed', message: `Charge ${charge.id} has been charged back; cannot issue a refund.` },
    };
  const remaining = charge.amount - charge.amount_refunded;
  const value = amount ?? remaining;
  if (remaining <= 0)
    return { error: { code: 'charge_already_refunded', message: `Charge ${charge.id} has already been refunded.` } };
  if (!Number.isSafeInteger(value) || value <= 0)
    return { error: { code: 'parameter_invalid_integer', message: 'Invalid positive integer' } };
  if (value > remaining) {
    return {
      error: {
        code: 'amount_too_large',
        message: `Refund amount (¥${value.toLocaleString('ja-JP')}) is greater than unrefunded amount on charge (¥${remaining.toLocaleString('ja-JP')})`,
      },
    };
  }
  const refund: StandinRefund = {
    id: `re_${token(24)}`,
    object: 'refund',
    amount: value,
    charge: charge.id,
    created: now(),
    currency: 'jpy',
    metadata,
    payment_intent: charge.payment_intent,
    reason,
    status: 'succeeded',
  };
  state.refunds.set(refund.id, refund);
  charge.amount_refunded += value;
  charge.refunded = charge.amount_refunded === charge.amount;
  return { refund, events: [emit(state, 'refund.created', refund), emit(state, 'charge.refunded', charge)] };
}

export function paidCharge(state: StripeState, session: StandinSession): StandinCharge {
  const intent = session.payment_intent ? state.intents.get(session.payment_intent) : undefined;
  const charge = intent?.latest_charge ? state.charges.get(intent.latest_charge) : undefined;
  if (!charge || charge.status !== 'succeeded')
    throw new Error(`stripe stand-in: session ${session.id} has no successful charge`);
  return charge;
}
