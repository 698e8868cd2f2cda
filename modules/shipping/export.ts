// Shipping requests for the operators' CSV export (no address: that is opened one request at a time,
// audited): one batch at a time in id order (keyset), constant memory.
import { asc, gt, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { shippingRequestItems, shippingRequests } from './schema';

/** Up to `limit` requests after request `afterId` (id order). @example await shippingExportBatch(db, '', 5000) */
export async function shippingExportBatch(db: Database, afterId: string, limit: number) {
  return db
    .select({
      id: shippingRequests.id,
      memberId: shippingRequests.memberId,
      status: shippingRequests.status,
      requestedAt: shippingRequests.requestedAt,
      promisedDate: shippingRequests.promisedDate,
      items: sql<number>`(select count(*)::int from ${shippingRequestItems} i where i.request_id = ${shippingRequests.id} and i.released_at is null)`,
      feeCoins: shippingRequests.feeCoins,
      carrier: shippingRequests.carrier,
      trackingNumber: shippingRequests.trackingNumber,
      shippedAt: shippingRequests.shippedAt,
      deliveredAt: shippingRequests.deliveredAt,
      compensationCoins: shippingRequests.compensationCoins,
    })
    .from(shippingRequests)
    .where(afterId ? gt(shippingRequests.id, afterId) : undefined)
    .orderBy(asc(shippingRequests.id))
    .limit(limit);
}
