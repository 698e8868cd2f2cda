// What the fraud signals (modules/risk) read from the payments: each member's credited purchases in a
// window (the last 24 hours) above a threshold, and the chargebacks read after a point.
import { and, asc, eq, gt, gte, isNotNull, or, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { isUuid } from '#modules/kernel';
import { paymentOrders } from './schema';

/** The id column is a uuid: an empty cursor id starts before every row. */
const uuidFloor = (id: string) => (isUuid(id) ? id : '00000000-0000-0000-0000-000000000000');

export interface SpendVelocity {
  memberId: string;
  orders: number;
  amountJpy: number;
}

/**
 * Members whose purchases credited since `since` reach `minJpy` yen (the credited-orders index, one window).
 * @example await spendVelocitySince(db, new Date(Date.now() - 86_400_000), 200_000)
 */
export async function spendVelocitySince(db: Database, since: Date, minJpy: number): Promise<SpendVelocity[]> {
  const rows = await db
    .select({
      memberId: paymentOrders.memberId,
      orders: sql<number>`count(*)::int`,
      amountJpy: sql<number>`sum(${paymentOrders.amountJpy})::bigint`,
    })
    .from(paymentOrders)
    .where(and(isNotNull(paymentOrders.creditedAt), gte(paymentOrders.creditedAt, since)))
    .groupBy(paymentOrders.memberId)
    .having(sql`sum(${paymentOrders.amountJpy}) >= ${minJpy}`);
  return rows.map((r) => ({ memberId: r.memberId, orders: Number(r.orders), amountJpy: Number(r.amountJpy) }));
}

export interface ChargebackSighting {
  orderId: string;
  memberId: string;
  amountJpy: number;
  method: string;
  receiptNo: string;
  unrecoveredCoins: number;
  at: Date;
}

/**
 * Orders charged back after the cursor (reversed_at, id), oldest first, at most `limit`.
 * @example await chargebacksSince(db, { at: watermark, id: '' }, 200)
 */
export async function chargebacksSince(
  db: Database,
  cursor: { at: Date; id: string },
  limit: number,
): Promise<ChargebackSighting[]> {
  const rows = await db
    .select()
    .from(paymentOrders)
    .where(
      and(
        eq(paymentOrders.status, 'charged_back'),
        isNotNull(paymentOrders.reversedAt),
        or(
          gt(paymentOrders.reversedAt, cursor.at),
          and(eq(paymentOrders.reversedAt, cursor.at), gt(paymentOrders.id, uuidFloor(cursor.id))),
        ),
      ),
    )
    .orderBy(asc(paymentOrders.reversedAt), asc(paymentOrders.id))
    .limit(limit);
  return rows.map((r) => ({
    orderId: r.id,
    memberId: r.memberId,
    amountJpy: r.amountJpy,
    method: r.method,
    receiptNo: r.receiptNo,
    unrecoveredCoins: r.unrecoveredCoins,
    at: r.reversedAt!,
  }));
}
