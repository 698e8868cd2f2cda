// The Stripe stand-in's events and their signed webhook deliveries.
import Stripe from 'stripe';
import { token } from '#devtools/standins/shared';
import type { SignedWebhook, StandinEvent } from './index';
import { mustEvent, renderObject } from './objects';
import { API_VERSION, now, type StripeState } from './state';

export function emit(state: StripeState, type: string, object: object): StandinEvent {
  const body = {
    id: `evt_${token(24)}`,
    object: 'event',
    api_version: API_VERSION,
    created: now(),
    // A snapshot of the object as it is now, like Stripe's events.
    data: { object: renderObject(state, object) },
    livemode: false,
    pending_webhooks: state.enabled.has(type) && state.options.webhookUrl ? 1 : 0,
    request: { id: null, idempotency_key: null },
    type,
  };
  const event: StandinEvent = { id: body.id, type, rawBody: JSON.stringify(body, null, 2), deliveries: [] };
  state.events.push(event);
  return event;
}

export function signWebhook(
  state: StripeState,
  eventId: string,
  opts: { secret?: string; timestamp?: number; rawBody?: string } = {},
): SignedWebhook {
  const event = mustEvent(state, eventId);
  const rawBody = opts.rawBody ?? event.rawBody;
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload: event.rawBody,
    secret: opts.secret ?? state.options.webhookSecret,
    timestamp: opts.timestamp ?? now(),
  });
  return {
    rawBody,
    headers: new Headers({
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      'stripe-signature': signature,
    }),
  };
}

export async function deliver(state: StripeState, event: StandinEvent, url: string): Promise<number | null> {
  const signed = signWebhook(state, event.id);
  let status: number | null = null;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: signed.headers,
      body: signed.rawBody,
      signal: AbortSignal.timeout(10_000),
    });
    status = response.status;
    await response.body?.cancel();
  } catch {
    status = null;
  }
  event.deliveries.push(status);
  return status;
}

/** Delivers the subscribed events, in order. */
export async function deliverAll(state: StripeState, list: StandinEvent[]): Promise<void> {
  if (!state.options.webhookUrl) return;
  for (const event of list) if (state.enabled.has(event.type)) await deliver(state, event, state.options.webhookUrl);
}

/** Delivers without holding up the HTTP answer that caused it (Stripe sends webhooks asynchronously); close() waits. */
export function deliverLater(state: StripeState, list: StandinEvent[]): void {
  const p = deliverAll(state, list).finally(() => state.inFlight.delete(p));
  state.inFlight.add(p);
}
