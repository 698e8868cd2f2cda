// 退会 in payments: orders and provider events are kept for the bookkeeping law (法人税法 126条・150条の2
// and its 施行規則 59条: 7 years; 会社法 432条: 10 years for the books), but a provider's event payload
// keeps no spelling of the member's address, number or name (docs/personal-data.md, decision 053).
import { eq, inArray, or, and } from 'drizzle-orm';
import type { Database } from '#db/client';
import { jsonMentions, redactedJsonValue } from '#db/redact';
import { paymentEvents, paymentOrders } from './schema';

/**
 * In the deletion's transaction: redacts the member's identifiers inside the payloads of the events
 * of their orders (a provider may echo the buyer's address or name); amounts, ids and outcomes stay.
 * Answers the events redacted. Each payload is rewritten in JavaScript, string values only (a nickname
 * that is also JSON, like `null`, must not break the document: redactedJsonValue).
 * @example await redactPaymentEventsOf(tx, { memberId, spellings })
 */
export async function redactPaymentEventsOf(
  tx: Database,
  member: { memberId: string; spellings: readonly string[] },
): Promise<number> {
  const orders = await tx
    .select({ id: paymentOrders.id, providerRef: paymentOrders.providerRef })
    .from(paymentOrders)
    .where(eq(paymentOrders.memberId, member.memberId));
  if (orders.length === 0) return 0;
  const ids = orders.map((order) => order.id);
  const refs = orders.map((order) => order.providerRef).filter((ref): ref is string => Boolean(ref));
  const theirs = refs.length
    ? or(inArray(paymentEvents.orderId, ids), inArray(paymentEvents.providerRef, refs))
    : inArray(paymentEvents.orderId, ids);
  const candidates = await tx
    .select({ id: paymentEvents.id, payload: paymentEvents.payload })
    .from(paymentEvents)
    .where(and(theirs, jsonMentions(paymentEvents.payload, member.spellings)));
  let redacted = 0;
  for (const event of candidates) {
    const payload = redactedJsonValue(event.payload, member.spellings);
    if (JSON.stringify(payload) === JSON.stringify(event.payload)) continue;
    await tx
      .update(paymentEvents)
      .set({ payload: payload as typeof event.payload })
      .where(eq(paymentEvents.id, event.id));
    redacted++;
  }
  return redacted;
}
