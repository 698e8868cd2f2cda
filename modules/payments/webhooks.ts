// Webhooks: verify, store once, queue; a worker processes (the table is the queue).
import { and, asc, eq, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { paymentEvents, paymentOrders, purchaseProfiles } from './schema';
import { isPaymentMethod, type PaymentMethod } from './methods';
import { WebhookRejected, type ProviderPayment, type WebhookRequest } from './providers/types';
import { type SyncResult, adoptProviderRef, applyProviderPayment, syncOrder } from './confirmation';
import { type OrderView, toOrderView } from './orders';
import { findOrder } from './purchase-inputs';
import { type PaymentGateway, PurchaseRefused, type ShopPaymentRules, reportOutcome, rowsOf } from './rules';

/**
 * Verifies a webhook and stores each event once. Throws WebhookRejected (4xx) for anything the
 * provider's signature does not prove; nothing is stored then.
 * @example const { stored } = await receiveWebhook(db, gateway, 'stripe', { headers, rawBody })
 */
export async function receiveWebhook(
  db: Database,
  gateway: PaymentGateway,
  method: string,
  request: WebhookRequest,
): Promise<{ stored: number[]; duplicates: number; reply?: { status: number; json: unknown } }> {
  const provider = isPaymentMethod(method) ? gateway.providers[method] : undefined;
  if (!provider) throw new WebhookRejected('unknown payment provider', 404);
  const events = await provider.verifyWebhook(request);
  const stored: number[] = [];
  let duplicates = 0;
  for (const event of events) {
    const orderId = event.orderId && /^[0-9a-f-]{36}$/i.test(event.orderId) ? event.orderId : null;
    const [row] = await db
      .insert(paymentEvents)
      .values({
        provider: method,
        eventId: withoutNul(event.eventId).slice(0, 255),
        type: withoutNul(event.type).slice(0, 100),
        orderId,
        providerRef: event.providerRef === null ? null : withoutNul(event.providerRef).slice(0, 255),
        hint: event.hint,
        payload: safeJson(request.rawBody),
      })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (row) stored.push(row.id);
    else duplicates += 1;
  }
  // A provider that waits for our answer before it takes the money (Merpay's confirm callback) hears
  // yes only for an order that may still be paid: pending, not expired, its member not on hold.
  const first = events[0];
  if (!first?.reply) return { stored, duplicates };
  const payable = first.reply.status < 300 && first.orderId ? await orderIsPayable(db, method, first.orderId) : false;
  return {
    stored,
    duplicates,
    reply: payable
      ? first.reply
      : {
          status: 409,
          json: { error: { code: 'ORDER_NOT_PAYABLE', message: 'このご注文はお支払いを受け付けていません。' } },
        },
  };
}

/** PostgreSQL text and jsonb cannot hold U+0000: a body carrying one is stored without it. */
const withoutNul = (text: string) => text.replaceAll('\u0000', '');

async function orderIsPayable(db: Database, method: string, orderId: string, now = new Date()): Promise<boolean> {
  const order = await findOrder(db, orderId);
  if (!order || order.method !== method || order.status !== 'pending' || order.expiresAt <= now) return false;
  const [profile] = await db
    .select({ hold: purchaseProfiles.holdReason })
    .from(purchaseProfiles)
    .where(eq(purchaseProfiles.memberId, order.memberId));
  return !profile?.hold;
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw, (_key, value: unknown) => (typeof value === 'string' ? withoutNul(value) : value));
  } catch {
    return { raw: withoutNul(raw.slice(0, 10_000)) };
  }
}

/**
 * Claims up to `limit` unprocessed events (SKIP LOCKED, a lease of two minutes), and processes each:
 * find its order, sync it with the provider. A failure leaves the event for a later pass.
 * @example await processPaymentEvents(db, gateway) // { processed: 3, failed: 0 }
 */
export async function processPaymentEvents(
  db: Database,
  gateway: PaymentGateway,
  options: { limit?: number; ids?: number[]; rules: ShopPaymentRules },
): Promise<{ processed: number; failed: number }> {
  const limit = options.limit ?? 50;
  const only = options.ids?.length
    ? sql`and id in (${sql.join(
        options.ids.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  const claimed = rowsOf<{
    id: number | string;
    provider: string;
    order_id: string | null;
    provider_ref: string | null;
    hint: string;
    attempts: number;
  }>(
    await db.execute(sql`
    update payment_events set locked_until = now() + interval '2 minutes', attempts = attempts + 1
     where id in (select id from payment_events
                   where processed_at is null and (locked_until is null or locked_until < now()) and attempts < 20 ${only}
                   order by id limit ${limit} for update skip locked)
    returning id, provider, order_id, provider_ref, hint, attempts`),
  );
  let processed = 0;
  let failed = 0;
  for (const event of claimed) {
    const id = Number(event.id);
    try {
      let orderId = event.order_id;
      if (!orderId && event.provider_ref) {
        const [order] = await db
          .select({ id: paymentOrders.id })
          .from(paymentOrders)
          .where(and(eq(paymentOrders.method, event.provider), eq(paymentOrders.providerRef, event.provider_ref)));
        orderId = order?.id ?? null;
      }
      const order = orderId ? await findOrder(db, orderId) : undefined;
      let outcome = 'unknown_order';
      if (order && order.method === event.provider) {
        // Some providers name the payment only after the member paid (Paidy's widget): the verified
        // event tells us its id, as the return page's parameters would.
        if (event.provider_ref && order.providerRef?.startsWith('pending:'))
          await adoptProviderRef(db, order.id, event.provider_ref);
        const result = await syncOrder(db, gateway, order.id, { rules: options.rules, eventHint: event.hint });
        outcome = result ? `${result.order.status}${result.credited ? ':credited' : ''}` : 'unknown_order';
      }
      await db
        .update(paymentEvents)
        .set({ processedAt: new Date(), outcome, lockedUntil: null, lastError: null })
        .where(eq(paymentEvents.id, id));
      processed += 1;
    } catch (error) {
      failed += 1;
      const message = error instanceof Error ? error.message : String(error);
      // Back off: the lease is stretched with the attempts so a provider outage is not hammered.
      await db
        .update(paymentEvents)
        .set({
          lastError: message.slice(0, 1000),
          lockedUntil: sql`now() + make_interval(secs => least(3600, 15 * power(2, ${Math.min(event.attempts, 8)})))`,
        })
        .where(eq(paymentEvents.id, id));
    }
  }
  return { processed, failed };
}

/**
 * Checkouts left open past their time: asked once more (a late payment is still credited), then
 * canceled at the provider and expired, which frees their amount under the cap.
 */
export async function expireStaleOrders(
  db: Database,
  gateway: PaymentGateway,
  rules: ShopPaymentRules,
  now = new Date(),
  limit = 100,
): Promise<number> {
  const stale = await db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.status, 'pending'), lte(paymentOrders.expiresAt, now)))
    .orderBy(asc(paymentOrders.expiresAt))
    .limit(limit);
  let expired = 0;
  for (const order of stale) {
    const provider = gateway.providers[order.method as PaymentMethod];
    if (provider && order.providerRef) {
      const ref = { orderId: order.id, providerRef: order.providerRef, amountJpy: order.amountJpy };
      // Expired only when the provider says it is still unpaid and the cancel went through; any
      // doubt leaves the order for the next pass (a payment is never written off by our guess).
      const payment = await provider.fetchPayment(ref).catch(() => null);
      if (!payment) continue;
      if (payment.status !== 'pending') {
        await applyProviderPayment(db, order.id, payment, rules, now);
        continue;
      }
      const canceled = await provider.cancel(ref).then(
        () => true,
        () => false,
      );
      if (!canceled) continue;
    }
    const rows = await db
      .update(paymentOrders)
      .set({ status: 'expired', updatedAt: now })
      .where(and(eq(paymentOrders.id, order.id), eq(paymentOrders.status, 'pending')))
      .returning({ id: paymentOrders.id });
    expired += rows.length;
    if (rows.length > 0) reportOutcome(rules, order.method, 'expired');
  }
  return expired;
}

/**
 * The member pressed cancel on the provider's page: ask the provider once more (a payment that went
 * through is credited, not canceled), otherwise cancel it there and here, which frees its place under
 * the monthly cap at once instead of at expiry.
 */
export async function cancelPendingOrder(
  db: Database,
  gateway: PaymentGateway,
  memberId: string,
  orderId: string,
  rules: ShopPaymentRules,
): Promise<OrderView | null> {
  const order = await findOrder(db, orderId);
  if (!order || order.memberId !== memberId) return null;
  if (order.status !== 'pending') return toOrderView(order);
  const provider = gateway.providers[order.method as PaymentMethod];
  if (provider && order.providerRef) {
    const ref = { orderId: order.id, providerRef: order.providerRef, amountJpy: order.amountJpy };
    const payment = await provider.fetchPayment(ref);
    if (payment.status !== 'pending') return (await applyProviderPayment(db, order.id, payment, rules)).order;
    await provider.cancel(ref);
  }
  const [saved] = await db
    .update(paymentOrders)
    .set({ status: 'canceled', updatedAt: new Date() })
    .where(and(eq(paymentOrders.id, order.id), eq(paymentOrders.status, 'pending')))
    .returning();
  if (saved) reportOutcome(rules, order.method, 'canceled');
  return toOrderView(saved ?? (await findOrder(db, order.id))!);
}

/**
 * Paid orders asked again, a batch at a time, the least recently checked first: some providers send
 * no event for a refund made in their own dashboard (PayPay), so a refund there reaches the coins
 * only through this. Orders credited within `days` are checked; each check moves `updated_at`.
 */
export async function reconcilePaidOrders(
  db: Database,
  gateway: PaymentGateway,
  options: { methods: string[]; days?: number; limit?: number; rules: ShopPaymentRules; now?: Date },
): Promise<number> {
  const now = options.now ?? new Date();
  if (options.methods.length === 0) return 0;
  const since = new Date(now.getTime() - (options.days ?? 90) * 86_400_000);
  const stale = new Date(now.getTime() - 6 * 3_600_000);
  const due = await db
    .select({ id: paymentOrders.id })
    .from(paymentOrders)
    .where(
      and(
        inArray(paymentOrders.status, ['paid', 'review']),
        inArray(paymentOrders.method, options.methods),
        gte(paymentOrders.creditedAt, since),
        lt(paymentOrders.updatedAt, stale),
      ),
    )
    .orderBy(asc(paymentOrders.updatedAt))
    .limit(options.limit ?? 100);
  let checked = 0;
  for (const { id } of due) {
    try {
      await syncOrder(db, gateway, id, { rules: options.rules, now });
    } catch {
      // The provider did not answer: the next pass asks again.
    }
    await db
      .update(paymentOrders)
      .set({ updatedAt: now })
      .where(and(eq(paymentOrders.id, id), inArray(paymentOrders.status, ['paid', 'review'])));
    checked += 1;
  }
  return checked;
}

/**
 * An operator refund's half at the provider, outside any transaction: checks that the order can be
 * refunded, refunds what the provider still holds, and answers the order as it was and the payment to
 * apply (with applyProviderPayment, in the caller's transaction: the admin action records its audit
 * entry there).
 * @example const { payment } = await refundAtProvider(db, gateway, orderId, 'お客様都合')
 */
export async function refundAtProvider(
  db: Database,
  gateway: PaymentGateway,
  orderId: string,
  reason: string,
): Promise<{ before: OrderView; payment: ProviderPayment }> {
  const order = await findOrder(db, orderId);
  if (!order) throw new PurchaseRefused('ORDER_NOT_FOUND', { orderId });
  // Paid and credited, or paid and held for review (an amount that disagreed, a late payment over the cap).
  if (!(order.creditedAt || order.status === 'review') || !order.providerPaymentId || !order.providerRef) {
    throw new PurchaseRefused('ORDER_NOT_REFUNDABLE', { orderId, status: order.status });
  }
  const provider = gateway.providers[order.method as PaymentMethod];
  if (!provider) throw new PurchaseRefused('PROVIDER_NOT_CONFIGURED', { method: order.method });
  const ref = {
    orderId: order.id,
    providerRef: order.providerRef,
    amountJpy: order.amountJpy,
    providerPaymentId: order.providerPaymentId,
  };
  // What the provider holds decides the amount (for review orders it may differ from the order's).
  const payment = await provider.fetchPayment(ref);
  const held =
    payment.status === 'paid'
      ? payment.amountJpy
      : payment.status === 'refunded'
        ? payment.amountJpy - payment.refundedJpy
        : 0;
  if (held <= 0) {
    // Nothing left to refund there: the provider's answer is applied as a sync would apply it.
    if ('providerPaymentId' in payment && order.providerRef.startsWith('pending:'))
      await adoptProviderRef(db, order.id, payment.providerPaymentId);
    return { before: toOrderView(order), payment };
  }
  await provider.refund(ref, held, reason);
  // The provider accepted the refund: that is the evidence (some providers list refunds apart from the
  // payment, or late), so the order is refunded now; a later read can only agree.
  const paid = payment.status === 'paid' || payment.status === 'refunded' ? payment : null;
  return {
    before: toOrderView(order),
    payment: {
      status: 'refunded',
      amountJpy: paid!.amountJpy,
      refundedJpy: paid!.amountJpy,
      providerPaymentId: paid!.providerPaymentId,
    },
  };
}

/** Operator refund of a whole order: the provider refunds, then the coins are reversed as for any refund. */
export async function refundOrder(
  db: Database,
  gateway: PaymentGateway,
  orderId: string,
  reason: string,
  rules: ShopPaymentRules,
): Promise<SyncResult> {
  const { payment } = await refundAtProvider(db, gateway, orderId, reason);
  return applyProviderPayment(db, orderId, payment, rules);
}
