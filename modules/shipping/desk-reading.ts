// The desk reading requests with their addresses opened (each view audited): one request, a batch's parcels
// for the pick list and packing slips, and the carriers' label CSV.
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Database } from '#db/client';
import { runAdminAction, type Operator } from '#modules/admin';
import { shippingPrizeCards } from '#modules/draw';
import { prizeSubstitutes } from '#modules/gacha';
import { isUuid, refuse, RefusalError } from '#modules/kernel';
import type { AddressFields } from './address-input';
import { openShippingAddress } from './addresses';
import type { JstDate } from './business-days';
import { actionsFrom, type ShippingAction } from './request-states';
import { itemViewOf, requestViewOf, type ShippingRequestView } from './request-views';
import type { ShippingRules } from './requests';
import { shippingRequestItems, shippingRequests, type ShippingStatus } from './schema';
import { writeLabelCsv, type LabelCsvBatch } from './shipping-csv';
import type { DeskOutcome } from './desk';

export interface DeskShippingRequest extends ShippingRequestView {
  memberId: string;
  internalNote: string | null;
  /** The desk's moves from this status. */
  actions: ShippingAction[];
}

/**
 * One request for the desk, with the address opened. Needs 'shipping:read'; the view is recorded in
 * the audit log ('address.view') in the same transaction as the read.
 * @example const shown = await getShippingRequestForDesk(db, operator, rules, requestId)
 */
export async function getShippingRequestForDesk(
  db: Database,
  operator: Operator,
  rules: Pick<ShippingRules, 'keyring'>,
  requestId: string,
  now = new Date(),
): DeskOutcome<DeskShippingRequest> {
  return runAdminAction(db, operator, 'shipping:read', async (tx) => {
    const [row] = await tx.select().from(shippingRequests).where(eq(shippingRequests.id, requestId));
    if (!row) throw new RefusalError(refuse('SHIPPING_REQUEST_NOT_FOUND', { requestId }));
    const view = await requestViewOf(tx, rules.keyring, row, now);
    return {
      value: {
        ...view,
        memberId: row.memberId,
        internalNote: row.internalNote,
        actions: actionsFrom(row.status, 'staff'),
      },
      audit: { action: 'address.view', target: { type: 'shipping_request', id: row.id } },
    };
  });
}

/** A parcel of a batch: what the pick list and the packing slip print. */
export interface DeskParcel {
  requestId: string;
  memberId: string;
  status: ShippingStatus;
  promisedDate: JstDate;
  address: AddressFields;
  items: ShippingRequestView['items'];
}

/** The parcels of a batch, addresses opened, in the order asked (inside the reading action). */
async function parcelsOf(tx: Database, rules: Pick<ShippingRules, 'keyring'>, ids: string[]): Promise<DeskParcel[]> {
  const rows = ids.length
    ? await tx
        .select()
        .from(shippingRequests)
        .where(inArray(shippingRequests.id, ids.filter(isUuid)))
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length) throw new RefusalError(refuse('SHIPPING_REQUEST_NOT_FOUND', { requestIds: missing }));
  const items = await tx
    .select({ requestId: shippingRequestItems.requestId, prizeId: shippingRequestItems.prizeId })
    .from(shippingRequestItems)
    .where(and(inArray(shippingRequestItems.requestId, ids), isNull(shippingRequestItems.releasedAt)))
    .orderBy(asc(shippingRequestItems.prizeId));
  const cards = await shippingPrizeCards(
    tx,
    items.map((i) => i.prizeId),
  );
  const substitutes = await prizeSubstitutes(
    tx,
    items.map((i) => i.prizeId),
  );
  return ids.map((id) => {
    const row = byId.get(id)!;
    return {
      requestId: id,
      memberId: row.memberId,
      status: row.status,
      promisedDate: row.promisedDate,
      address: openShippingAddress(rules.keyring, row.addressSealed, id),
      items: items
        .filter((i) => i.requestId === id)
        .flatMap((i) => {
          const card = cards.get(i.prizeId);
          return card ? [itemViewOf(card, substitutes)] : [];
        }),
    };
  });
}

/**
 * A batch's parcels (pick list, packing slips) with their addresses opened, in the order asked.
 * Needs 'shipping:read'; one 'address.view' entry per request, in the read's transaction.
 * @example const parcels = await shippingBatchForDesk(db, operator, rules, ids)
 */
export async function shippingBatchForDesk(
  db: Database,
  operator: Operator,
  rules: Pick<ShippingRules, 'keyring'>,
  requestIds: string[],
): DeskOutcome<DeskParcel[]> {
  const ids = [...new Set(requestIds)];
  return runAdminAction(db, operator, 'shipping:read', async (tx) => ({
    value: await parcelsOf(tx, rules, ids),
    audit: ids.map((id) => ({ action: 'address.view', target: { type: 'shipping_request', id } })),
  }));
}

/**
 * The label software's CSV of a batch (shipping-csv.ts), addresses opened. Needs 'shipping:read';
 * one 'address.export' entry per request, in the read's transaction.
 * @example const csv = await exportLabelCsv(db, operator, rules, ids, { shipDate: '2027-05-10', itemDescription: 'トレーディングカード' })
 */
export async function exportLabelCsv(
  db: Database,
  operator: Operator,
  rules: Pick<ShippingRules, 'keyring'>,
  requestIds: string[],
  batch: LabelCsvBatch,
): DeskOutcome<string> {
  const ids = [...new Set(requestIds)];
  return runAdminAction(db, operator, 'shipping:read', async (tx) => {
    const parcels = await parcelsOf(tx, rules, ids);
    const csv = writeLabelCsv(
      parcels.map((p) => ({
        requestId: p.requestId,
        recipient: {
          postalCode: p.address.postalCode,
          prefecture: p.address.prefecture,
          city: p.address.city,
          street: p.address.town,
          building: p.address.building ?? '',
          name: p.address.name,
          nameKana: p.address.nameKana,
          phone: p.address.phone,
        },
        itemNames: p.items.map((i) => i.substitute?.cardName ?? i.cardName),
      })),
      batch,
    );
    return {
      value: csv,
      audit: ids.map((id) => ({
        action: 'address.export',
        target: { type: 'shipping_request', id },
        after: { shipDate: batch.shipDate },
      })),
    };
  });
}
