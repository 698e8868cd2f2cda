// A request's timeline: each step written in the transaction of the change it records.
import type { Database } from '#db/client';
import { shippingEvents, type ShippingActor, type ShippingEventKind, type ShippingStatus } from './schema';

/**
 * Writes one step of a request's timeline.
 * @example await recordEvent(tx, { requestId, kind: 'shipped', status: 'shipped', at: now, actor: 'staff', note: 'ヤマト運輸 123456789012' })
 */
export async function recordEvent(
  tx: Database,
  event: {
    requestId: string;
    kind: ShippingEventKind;
    status: ShippingStatus;
    at: Date;
    actor: ShippingActor;
    note?: string | null;
  },
): Promise<void> {
  await tx.insert(shippingEvents).values({ ...event, note: event.note ?? null });
}
