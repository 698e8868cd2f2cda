// What members and the desk see of a shipping request: its items (with substitute cards), its summary, and
// the full view with its timeline and opened address.
import { asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '#db/client';
import { shippingPrizeCards, type ShippingPrizeCard } from '#modules/draw';
import { prizeSubstitutes, type StockCardView } from '#modules/gacha';
import { openShippingAddress } from './addresses';
import type { AddressFields } from './address-input';
import type { AddressKeyring } from './sealing';
import type { JstDate } from './business-days';
import { CARRIERS, trackingUrl, type CarrierCode } from './carriers';
import { OPEN_SHIPPING_STATUSES, transition } from './request-states';
import {
  shippingEvents,
  shippingRequestItems,
  type shippingRequests,
  type ShippingActor,
  type ShippingEventKind,
  type ShippingStatus,
} from './schema';

/** The card sent instead of a prize's own (its own was missing or damaged: decision 023). */
export interface SubstituteCardView {
  cardName: string;
  cardSet: string | null;
  cardNumber: string | null;
  cardGrade: string | null;
}

export type ShippingItemView = Omit<ShippingPrizeCard, 'memberId' | 'status' | 'keepUntil'> & {
  /** Set when the shop sends another card of equal or higher value instead of this prize's own. */
  substitute: SubstituteCardView | null;
};

export interface ShippingEventView {
  kind: ShippingEventKind;
  status: ShippingStatus;
  at: string;
  note: string | null;
  actor: ShippingActor;
}

export interface ShippingRequestSummary {
  id: string;
  status: ShippingStatus;
  requestedAt: string;
  /** 発送予定日 */
  promisedDate: JstDate;
  itemCount: number;
  /** Up to three cards, for a list's thumbnails. */
  previewItems: Pick<ShippingItemView, 'prizeId' | 'cardName' | 'imagePath'>[];
  feeCoins: number;
  carrier: CarrierCode | null;
  carrierName: string | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
  shippedAt: string | null;
  deliveredAt: string | null;
  returnedAt: string | null;
  canceledAt: string | null;
  /** The promise was not kept: the parcel had not left at the end of the promised date. */
  late: boolean;
  compensationCoins: number;
  compensatedAt: string | null;
  /** The member may still cancel. */
  cancelable: boolean;
}

export interface ShippingRequestView extends ShippingRequestSummary {
  items: ShippingItemView[];
  /** The timeline, oldest first. */
  events: ShippingEventView[];
  /** The address as it was when the member asked (the book may have changed since). */
  address: AddressFields;
}

export interface ShippingQuote {
  items: ShippingItemView[];
  feeCoins: number;
  /** 発送予定日 if the request were made now. */
  promisedDate: JstDate;
  minPrizes: number;
  balance: number;
}

export type RequestRow = typeof shippingRequests.$inferSelect;

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export function itemViewOf(card: ShippingPrizeCard, substitutes: Map<string, StockCardView>): ShippingItemView {
  const { memberId: _memberId, status: _status, keepUntil: _keepUntil, ...item } = card;
  const substitute = substitutes.get(card.prizeId);
  return {
    ...item,
    substitute: substitute
      ? {
          cardName: substitute.cardName,
          cardSet: substitute.cardSet,
          cardNumber: substitute.cardNumber,
          cardGrade: substitute.cardGrade,
        }
      : null,
  };
}

/** The request's live prizes (or, for a request that ended, the ones it held), in a stable order. */
export async function itemsOf(db: Database, requestIds: string[]): Promise<Map<string, string[]>> {
  if (requestIds.length === 0) return new Map();
  const rows = await db
    .select({ requestId: shippingRequestItems.requestId, prizeId: shippingRequestItems.prizeId })
    .from(shippingRequestItems)
    .where(inArray(shippingRequestItems.requestId, requestIds))
    .orderBy(asc(shippingRequestItems.prizeId));
  const byRequest = new Map<string, string[]>();
  for (const row of rows) byRequest.set(row.requestId, [...(byRequest.get(row.requestId) ?? []), row.prizeId]);
  return byRequest;
}

export function summaryOf(
  row: RequestRow,
  prizeIds: string[],
  cards: Map<string, ShippingPrizeCard>,
  now: Date,
): ShippingRequestSummary {
  const carrier = (row.carrier as CarrierCode | null) ?? null;
  const open = OPEN_SHIPPING_STATUSES.includes(row.status);
  return {
    id: row.id,
    status: row.status,
    requestedAt: row.requestedAt.toISOString(),
    promisedDate: row.promisedDate,
    itemCount: prizeIds.length,
    previewItems: prizeIds.slice(0, 3).flatMap((id) => {
      const card = cards.get(id);
      return card ? [{ prizeId: id, cardName: card.cardName, imagePath: card.imagePath }] : [];
    }),
    feeCoins: row.feeCoins,
    carrier,
    carrierName: carrier ? CARRIERS[carrier].name : null,
    trackingNumber: row.trackingNumber,
    trackingUrl: carrier && row.trackingNumber ? trackingUrl(carrier, row.trackingNumber) : null,
    shippedAt: iso(row.shippedAt),
    deliveredAt: iso(row.deliveredAt),
    returnedAt: iso(row.returnedAt),
    canceledAt: iso(row.canceledAt),
    late:
      row.compensatedAt !== null ||
      (open && row.shippedAt === null && row.canceledAt === null && now >= row.shipDeadline),
    compensationCoins: row.compensationCoins,
    compensatedAt: iso(row.compensatedAt),
    cancelable: transition('cancel', row.status).ok,
  };
}

/** A request with its items, timeline and opened address (for its member, or the desk after its audit). */
export async function requestViewOf(
  db: Database,
  keyring: AddressKeyring,
  row: RequestRow,
  now: Date,
): Promise<ShippingRequestView> {
  const prizeIds = (await itemsOf(db, [row.id])).get(row.id) ?? [];
  const cards = await shippingPrizeCards(db, prizeIds);
  const substitutes = await prizeSubstitutes(db, prizeIds);
  const events = await db
    .select()
    .from(shippingEvents)
    .where(eq(shippingEvents.requestId, row.id))
    .orderBy(asc(shippingEvents.at), asc(shippingEvents.id));
  return {
    ...summaryOf(row, prizeIds, cards, now),
    items: prizeIds.flatMap((id) => {
      const card = cards.get(id);
      return card ? [itemViewOf(card, substitutes)] : [];
    }),
    events: events.map((e) => ({
      kind: e.kind,
      status: e.status,
      at: e.at.toISOString(),
      note: e.note,
      actor: e.actor,
    })),
    address: openShippingAddress(keyring, row.addressSealed, row.id),
  };
}
