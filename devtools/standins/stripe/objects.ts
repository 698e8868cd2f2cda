// The Stripe stand-in's objects as the API renders them, and the look-ups that find them.
import type { Context } from 'hono';
import type { StandinDispute, StandinEvent, StandinSession } from './index';
import { paidCharge } from './changes';
import { expandParam, intParam } from './protocol';
import type { StripeState } from './state';

export function renderObject(state: StripeState, object: object, expand: string[] = []): Record<string, unknown> {
  const copy = structuredClone(object) as Record<string, unknown>;
  const nested = (prefix: string) =>
    expand.filter((e) => e.startsWith(`${prefix}.`)).map((e) => e.slice(prefix.length + 1));
  const wants = (field: string) => expand.includes(field) || expand.some((e) => e.startsWith(`${field}.`));
  if (copy.object === 'checkout.session' && wants('payment_intent') && typeof copy.payment_intent === 'string') {
    const intent = state.intents.get(copy.payment_intent);
    if (intent) copy.payment_intent = renderObject(state, intent, nested('payment_intent'));
  }
  if (copy.object === 'payment_intent' && wants('latest_charge') && typeof copy.latest_charge === 'string') {
    const charge = state.charges.get(copy.latest_charge);
    if (charge) copy.latest_charge = renderObject(state, charge, nested('latest_charge'));
  }
  if (
    (copy.object === 'charge' || copy.object === 'refund' || copy.object === 'dispute') &&
    wants('payment_intent') &&
    typeof copy.payment_intent === 'string'
  ) {
    const intent = state.intents.get(copy.payment_intent);
    if (intent) copy.payment_intent = renderObject(state, intent, nested('payment_intent'));
  }
  return copy;
}

export function listResponse(state: StripeState, c: Context, url: string, items: object[], p: Record<string, unknown>) {
  const limit = Math.min(Math.max(intParam(p.limit) ?? 10, 1), 100);
  const expand = expandParam(p)
    .filter((e) => e.startsWith('data.'))
    .map((e) => e.slice('data.'.length));
  return c.json({
    object: 'list',
    data: items.slice(0, limit).map((o) => renderObject(state, o, expand)),
    has_more: items.length > limit,
    url,
  });
}

/** The :id of a route (handlers are registered from a table, so the path is not typed). */
export function idParam(c: Context): string {
  return c.req.param('id') ?? '';
}

export function mustSession(state: StripeState, id: string): StandinSession {
  const session = state.sessions.get(id);
  if (!session) throw new Error(`stripe stand-in: no session ${id}`);
  return session;
}

export function mustEvent(state: StripeState, id: string): StandinEvent {
  const event = state.events.find((e) => e.id === id);
  if (!event) throw new Error(`stripe stand-in: no event ${id}`);
  return event;
}

export function disputeOf(state: StripeState, session: StandinSession): StandinDispute {
  const charge = paidCharge(state, session);
  const dispute = [...state.disputes.values()].find((d) => d.charge === charge.id);
  if (!dispute) throw new Error(`stripe stand-in: session ${session.id} has no dispute`);
  return dispute;
}
