// What the invitations (modules/invitation) read from the payments: when each member's first purchase
// was credited, and the members whose purchases were credited after a point (the settle job's feed).
import { and, asc, eq, gt, inArray, isNotNull, min, or } from 'drizzle-orm';
import type { Database } from '#db/client';
import { isUuid } from '#modules/kernel';
import { paymentOrders } from './schema';

/**
 * When each member's first purchase that still stands (paid, credited; not refunded or charged back)
 * was credited; members without one are absent.
 * @example (await firstPurchasesOf(db, [memberId])).get(memberId) // Date
 */
export async function firstPurchasesOf(db: Database, memberIds: string[]): Promise<Map<string, Date>> {
  const ids = [...new Set(memberIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ memberId: paymentOrders.memberId, at: min(paymentOrders.creditedAt) })
    .from(paymentOrders)
    .where(
      and(inArray(paymentOrders.memberId, ids), eq(paymentOrders.status, 'paid'), isNotNull(paymentOrders.creditedAt)),
    )
    .groupBy(paymentOrders.memberId);
  return new Map(rows.flatMap((r) => (r.at ? [[r.memberId, new Date(r.at)] as const] : [])));
}

/**
 * Orders credited after the cursor (credited_at, id), oldest first, at most `limit` (the credited-orders index).
 * @example await creditedPurchasesSince(db, { at: watermark, id: '' }, 500)
 */
export async function creditedPurchasesSince(
  db: Database,
  cursor: { at: Date; id: string },
  limit: number,
): Promise<{ orderId: string; memberId: string; at: Date }[]> {
  const floor = isUuid(cursor.id) ? cursor.id : '00000000-0000-0000-0000-000000000000';
  const rows = await db
    .select({ orderId: paymentOrders.id, memberId: paymentOrders.memberId, at: paymentOrders.creditedAt })
    .from(paymentOrders)
    .where(
      and(
        isNotNull(paymentOrders.creditedAt),
        or(
          gt(paymentOrders.creditedAt, cursor.at),
          and(eq(paymentOrders.creditedAt, cursor.at), gt(paymentOrders.id, floor)),
        ),
      ),
    )
    .orderBy(asc(paymentOrders.creditedAt), asc(paymentOrders.id))
    .limit(limit);
  return rows.map((r) => ({ orderId: r.orderId, memberId: r.memberId, at: r.at! }));
}
