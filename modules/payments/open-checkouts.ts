// A checkout the member left open (the provider's page closed, the tab lost): which of the member's
// orders can still be paid where they left off, and the 初回限定 checkout that holds the first-purchase
// pack back until it is paid, canceled or expired (docs/decisions/058). Cancelling is
// `cancelPendingOrder` (index.ts): it asks the provider first, and a payment that still arrives later
// goes through `applyProviderPayment`'s late-payment rules (credited, or held for an operator's refund).
import { and, eq, gt, inArray, isNotNull } from 'drizzle-orm';
import type { Database } from '#db/client';
import { isUuid } from '#modules/kernel';
import { paymentOrders } from './schema';
import { PAYMENT_METHOD_INFO, isPaymentMethod } from './methods';

/** An open checkout as the member's pages show it. */
export interface OpenCheckoutView {
  orderId: string;
  packName: string;
  amountJpy: number;
  methodLabel: string;
  /** When the shop stops waiting for it (ISO 8601). */
  expiresAt: string;
  firstPurchaseOnly: boolean;
}

const openNow = (now: Date) =>
  and(eq(paymentOrders.status, 'pending'), gt(paymentOrders.expiresAt, now), isNotNull(paymentOrders.checkoutUrl));

const viewOf = (o: typeof paymentOrders.$inferSelect): OpenCheckoutView => ({
  orderId: o.id,
  packName: o.packName,
  amountJpy: o.amountJpy,
  methodLabel: isPaymentMethod(o.method) ? PAYMENT_METHOD_INFO[o.method].label : o.method,
  expiresAt: o.expiresAt.toISOString(),
  firstPurchaseOnly: o.firstPurchaseOnly,
});

/**
 * One of the member's orders that can still be paid on the provider's page: its view and the page's
 * address. Another member's order, a settled one or one past its time answers null.
 * @example const open = await openCheckoutOf(db, memberId, orderId); if (open) redirect(open.checkoutUrl)
 */
export async function openCheckoutOf(
  db: Database,
  memberId: string,
  orderId: string,
  now = new Date(),
): Promise<(OpenCheckoutView & { checkoutUrl: string }) | null> {
  if (!isUuid(orderId)) return null;
  const [order] = await db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.id, orderId), eq(paymentOrders.memberId, memberId), openNow(now)));
  return order?.checkoutUrl ? { ...viewOf(order), checkoutUrl: order.checkoutUrl } : null;
}

/** Which of these orders of the member can still be paid where the member left off. */
export async function openCheckoutIds(
  db: Database,
  memberId: string,
  orderIds: readonly string[],
  now = new Date(),
): Promise<Set<string>> {
  const ids = orderIds.filter(isUuid);
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: paymentOrders.id })
    .from(paymentOrders)
    .where(and(eq(paymentOrders.memberId, memberId), inArray(paymentOrders.id, ids), openNow(now)));
  return new Set(rows.map((r) => r.id));
}

/**
 * The member's open 初回限定 checkout, the one that makes startCheckout refuse another first-purchase
 * pack (`FIRST_PURCHASE_ONLY` with `pendingCheckout`), or null.
 */
export async function openFirstPurchaseCheckoutOf(
  db: Database,
  memberId: string,
  now = new Date(),
): Promise<OpenCheckoutView | null> {
  const [order] = await db
    .select()
    .from(paymentOrders)
    .where(
      and(
        eq(paymentOrders.memberId, memberId),
        eq(paymentOrders.firstPurchaseOnly, true),
        eq(paymentOrders.status, 'pending'),
        gt(paymentOrders.expiresAt, now),
      ),
    )
    .limit(1);
  return order ? viewOf(order) : null;
}
