// Shipping requests as members make them: the confirmation's quote, the request (prizes reserved, the
// address sealed for it, the fee spent, all in one transaction, once per Idempotency-Key), the list,
// one request with its timeline, and the member's cancel. The desk's side is desk.ts.
import { createHash, randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import {
  MAX_PRIZES_PER_CHOICE,
  reservePrizesForShipping,
  returnPrizesFromShipping,
  shippingPrizeCards,
  type PrizeChoiceRefusalCode,
  type ShippingPrizeCard,
} from '#modules/draw';
import { prizeSubstitutes, type StockCardView } from '#modules/gacha';
import { memberContactOf } from '#modules/identity';
import { isUuid, refuse, RefusalError, uuidSchema, type Outcome, type Refusal } from '#modules/kernel';
import type { SiteIdentity } from '#modules/messaging';
import { purchaseHoldOf } from '#modules/payments';
import { getBalance, refundSpend, spendCoins } from '#modules/wallet';
import { openShippingAddress, resealShippingAddress, sealedAddressForShipping } from './addresses';
import type { AddressFields } from './address-input';
import type { AddressKeyring } from './sealing';
import { promisedShipDate, shipDeadlineInstant, type JstDate, type ShippingDateRules } from './business-days';
import { CARRIERS, trackingUrl, type CarrierCode } from './carriers';
import { notifyMember } from './notices';
import { compensateIfLate } from './promise';
import { recordEvent } from './timeline';
import { OPEN_SHIPPING_STATUSES, transition, type ShippingAction } from './request-states';
import {
  shippingEvents,
  shippingRequestItems,
  shippingRequests,
  shippingStatuses,
  type ShippingActor,
  type ShippingEventKind,
  type ShippingStatus,
} from './schema';

/** The shop's shipping settings (server/config.ts), built once at start and passed to every call. */
export interface ShippingRules {
  /** SHIPPING_FEE_COINS: spent from the wallet with the request, refunded on a cancel. */
  feeCoins: number;
  /** SHIPPING_MIN_PRIZES */
  minPrizes: number;
  /** SHIPPING_BUSINESS_DAYS, SHIPPING_CLOSED_DAYS, SHIPPING_CUTOFF_HOUR */
  dates: ShippingDateRules;
  /** KEPT_PRIZE_STORAGE_DAYS: the new storage period of prizes back in the box. */
  storageDays: number;
  /** FREE_COIN_EXPIRY_DAYS: lifetime of compensation coins and of coins from converted prizes. */
  freeCoinDays: number;
  /** SHIPPING_LATE_COMPENSATION_COINS (0: none). */
  lateCompensationCoins: number;
  /** SITE_NAME and PUBLIC_ORIGIN, for the mails. */
  site: SiteIdentity;
  /** ADDRESS_ENCRYPTION_KEYS: seals each request's copy of the address, opens it for the member and the desk. */
  keyring: AddressKeyring;
}

/** A refunded fee lasts at least this long, even when the coins it replaces were about to expire. */
export const FEE_REFUND_MIN_DAYS = 7;

/** Shipping's own refusals; worded in refusal-words.ts. */
export const SHIPPING_REFUSAL_CODES = [
  'SHIPPING_REQUEST_NOT_FOUND',
  'SHIPPING_TOO_FEW_PRIZES',
  'SHIPPING_PHONE_UNVERIFIED',
  'SHIPPING_HOLD',
  'SHIPPING_FEE_CHANGED',
  'SHIPPING_NOT_CANCELABLE',
  'SHIPPING_STATUS_CONFLICT',
  'SHIPPING_CSV_REFUSED',
  'TRACKING_NUMBER_REQUIRED',
  'TRACKING_NUMBER_FORMAT',
  'SHIPPING_PRIZE_NOT_IN_REQUEST',
  'SHIPPING_CARD_ALREADY_REPORTED',
  'SHIPPING_COMPENSATION_TOO_LOW',
] as const;
export type ShippingRefusalCode = (typeof SHIPPING_REFUSAL_CODES)[number];

/** What a new request (and its quote) may be refused with, other modules' codes included. */
export type ShippingRequestRefusalCode =
  | 'SHIPPING_TOO_FEW_PRIZES'
  | 'SHIPPING_PHONE_UNVERIFIED'
  | 'SHIPPING_HOLD'
  | 'SHIPPING_FEE_CHANGED'
  | 'ADDRESS_NOT_FOUND'
  | 'INSUFFICIENT_COINS'
  | 'IDEMPOTENCY_KEY_REUSED'
  | PrizeChoiceRefusalCode;

// ── Inputs ────────────────────────────────────────────────────────────────────────────────────────

/** The prizes of a quote (the confirmation page before an address is chosen). */
export const shippingQuoteInputSchema = z.object({
  prizeIds: z
    .array(uuidSchema)
    .min(1, { error: '発送する獲得商品を選んでください。' })
    .max(MAX_PRIZES_PER_CHOICE, { error: `一度に発送できるのは${MAX_PRIZES_PER_CHOICE}枚までです。` })
    .meta({ description: `発送する獲得商品IDの一覧（1〜${MAX_PRIZES_PER_CHOICE}件、未選択または保管中）` }),
});

/** A shipping request: the prizes, the address, and the fee the confirmation showed. */
export const shippingRequestInputSchema = shippingQuoteInputSchema.extend({
  addressId: uuidSchema.meta({ description: '配送先（住所録のID）' }),
  feeCoins: z
    .int()
    .min(0)
    .optional()
    .meta({ description: '確認画面に表示した発送手数料（コイン）。現在の手数料と違うときは 409 SHIPPING_FEE_CHANGED' }),
});
export type ShippingRequestInput = z.output<typeof shippingRequestInputSchema>;

// ── Views ─────────────────────────────────────────────────────────────────────────────────────────

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

type RequestRow = typeof shippingRequests.$inferSelect;

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
async function itemsOf(db: Database, requestIds: string[]): Promise<Map<string, string[]>> {
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

// ── Checks shared by the quote and the request ──────────────────────────────────────────────────

async function checkRequester(
  db: Database,
  rules: ShippingRules,
  memberId: string,
  prizeIds: string[],
  shownFee: number | undefined,
): Promise<{ ok: true } | Refusal<ShippingRequestRefusalCode>> {
  if (prizeIds.length < rules.minPrizes) return refuse('SHIPPING_TOO_FEW_PRIZES', { min: rules.minPrizes });
  const contact = await memberContactOf(db, memberId);
  if (!contact || contact.deleted) return refuse('PRIZE_NOT_FOUND');
  if (!contact.phoneVerified) return refuse('SHIPPING_PHONE_UNVERIFIED');
  // A chargeback usually means a card used without its holder's consent: nothing leaves the shop (decision 008).
  const hold = await purchaseHoldOf(db, memberId);
  if (hold) return refuse('SHIPPING_HOLD', { reason: hold.reason });
  if (shownFee !== undefined && shownFee !== rules.feeCoins)
    return refuse('SHIPPING_FEE_CHANGED', { feeCoins: rules.feeCoins, shown: shownFee });
  return { ok: true };
}

const uniqueIds = (ids: string[]) => [...new Set(ids.map((id) => id.toLowerCase()))];

/**
 * The confirmation page's facts: the cards, the fee and the promised date if asked now, or the
 * refusal the request would meet (prizes not the member's or already decided, too few, no verified
 * phone, a hold, too few coins for the fee).
 * @example const quote = await quoteShippingRequest(db, rules, member.id, { prizeIds })
 */
export async function quoteShippingRequest(
  db: Database,
  rules: ShippingRules,
  memberId: string,
  input: { prizeIds: string[] },
  now = new Date(),
): Promise<Outcome<{ ok: true; quote: ShippingQuote }, ShippingRequestRefusalCode>> {
  const prizeIds = uniqueIds(input.prizeIds);
  if (prizeIds.length === 0 || !prizeIds.every(isUuid)) return refuse('PRIZE_NOT_FOUND');
  const checked = await checkRequester(db, rules, memberId, prizeIds, undefined);
  if (!checked.ok) return checked;
  const cards = await shippingPrizeCards(db, prizeIds);
  const owned = prizeIds.map((id) => cards.get(id)).filter((card) => card?.memberId === memberId);
  if (owned.length !== prizeIds.length) return refuse('PRIZE_NOT_FOUND');
  const decided = owned.filter((card) => card!.status !== 'pending' && card!.status !== 'kept');
  if (decided.length > 0) return refuse('PRIZE_ALREADY_DECIDED', { prizeIds: decided.map((card) => card!.prizeId) });
  const balance = (await getBalance(db, memberId, now)).total;
  if (balance < rules.feeCoins) return refuse('INSUFFICIENT_COINS', { required: rules.feeCoins, balance });
  const substitutes = await prizeSubstitutes(db, prizeIds);
  return {
    ok: true,
    quote: {
      items: owned.map((card) => itemViewOf(card!, substitutes)),
      feeCoins: rules.feeCoins,
      promisedDate: promisedShipDate(now, rules.dates),
      minPrizes: rules.minPrizes,
      balance,
    },
  };
}

/** The hash stored with the key: the same key with other prizes or another address is refused. */
const requestHashOf = (prizeIds: string[], addressId: string) =>
  createHash('sha256')
    .update(JSON.stringify({ op: 'createShippingRequest', prizeIds: [...prizeIds].sort(), addressId }))
    .digest('hex');

const isIdempotencyKey = (key: string) => /^[\x20-\x7e]{1,255}$/.test(key) && key.trim() !== '';

async function requestByKey(db: Database, memberId: string, key: string): Promise<RequestRow | undefined> {
  const [row] = await db
    .select()
    .from(shippingRequests)
    .where(and(eq(shippingRequests.memberId, memberId), eq(shippingRequests.idemKey, key)));
  return row;
}

/**
 * Makes a shipping request, once per Idempotency-Key: in one transaction the key is claimed (a
 * concurrent duplicate waits on it and then gets this request), the address is sealed for this
 * request, the prizes move to 'shipping' under their row locks, the fee is spent, the timeline
 * starts and the member's mail is queued. Any refusal rolls all of it back.
 * @example const made = await createShippingRequest(db, rules, { memberId, idempotencyKey, prizeIds, addressId, feeCoins: 0 })
 */
export async function createShippingRequest(
  db: Database,
  rules: ShippingRules,
  input: ShippingRequestInput & { memberId: string; idempotencyKey: string; now?: Date },
): Promise<Outcome<{ ok: true; request: ShippingRequestView; replay: boolean }, ShippingRequestRefusalCode>> {
  if (!isIdempotencyKey(input.idempotencyKey)) throw new RangeError('createShippingRequest: a 1–255 character key');
  const now = input.now ?? new Date();
  const { memberId } = input;
  const prizeIds = uniqueIds(input.prizeIds);
  if (prizeIds.length === 0 || !prizeIds.every(isUuid)) return refuse('PRIZE_NOT_FOUND');
  const hash = requestHashOf(prizeIds, input.addressId);
  const replayOf = async (row: RequestRow) =>
    row.requestHash === hash
      ? { ok: true as const, request: await requestViewOf(db, rules.keyring, row, now), replay: true }
      : refuse('IDEMPOTENCY_KEY_REUSED');

  // A retry gets the request it made, whatever has changed since (the fee, the address book).
  const earlier = await requestByKey(db, memberId, input.idempotencyKey);
  if (earlier) return replayOf(earlier);
  const checked = await checkRequester(db, rules, memberId, prizeIds, input.feeCoins);
  if (!checked.ok) return checked;

  const id = randomUUID();
  const promisedDate = promisedShipDate(now, rules.dates);
  let made: boolean;
  try {
    made = await db.transaction(async (tx) => {
      const sealed = await sealedAddressForShipping(tx, rules.keyring, {
        memberId,
        addressId: input.addressId,
        shippingRequestId: id,
      });
      if (!sealed.ok) throw new RefusalError(sealed);
      const claimed = await tx
        .insert(shippingRequests)
        .values({
          id,
          memberId,
          idemKey: input.idempotencyKey,
          requestHash: hash,
          status: 'requested',
          addressSealed: sealed.sealed,
          addressKeyId: sealed.keyId,
          feeCoins: rules.feeCoins,
          requestedAt: now,
          promisedDate,
          shipDeadline: shipDeadlineInstant(promisedDate),
          updatedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: shippingRequests.id });
      // The same key committed meanwhile (it waited on the key's index entry): answer that one.
      if (claimed.length === 0) return false;
      const reserved = await reservePrizesForShipping(tx, memberId, prizeIds, now);
      if (!reserved.ok) throw new RefusalError(reserved);
      await tx.insert(shippingRequestItems).values(prizeIds.map((prizeId) => ({ requestId: id, prizeId })));
      if (rules.feeCoins > 0) {
        const spent = await spendCoins(tx, {
          memberId,
          amount: rules.feeCoins,
          reason: 'shipping_fee',
          counterAccount: 'shipping',
          idempotencyKey: `shipping-fee:${id}`,
          ref: id,
          now,
        });
        if (!spent.ok) throw new RefusalError(spent);
      }
      await recordEvent(tx, { requestId: id, kind: 'requested', status: 'requested', at: now, actor: 'member' });
      await notifyMember(tx, rules.site, memberId, {
        kind: 'requested',
        requestId: id,
        items: prizeIds.length,
        promisedDate,
        feeCoins: rules.feeCoins,
      });
      return true;
    });
  } catch (error) {
    if (error instanceof RefusalError) return error.refusal as Refusal<ShippingRequestRefusalCode>;
    throw error;
  }
  if (!made) {
    const winner = await requestByKey(db, memberId, input.idempotencyKey);
    if (!winner) throw new Error('createShippingRequest: the key was claimed but its request is gone');
    return replayOf(winner);
  }
  const [row] = await db.select().from(shippingRequests).where(eq(shippingRequests.id, id));
  return { ok: true, request: await requestViewOf(db, rules.keyring, row!, now), replay: false };
}

/** A page of the member's requests (newest first) and where the next page starts. */
export interface ShippingRequestPage {
  items: ShippingRequestSummary[];
  next: { requestedAt: string; id: string } | null;
}

/** Where a page of requests starts (listShippingRequests' `next`): the API's cursor and the page's link carry it. */
export const shippingRequestPositionSchema = z.object({
  requestedAt: z.iso.datetime(),
  id: uuidSchema,
});

/**
 * The member's requests, newest first; `status` filters.
 * @example const { items, next } = await listShippingRequests(db, member.id, { limit: 20 })
 */
export async function listShippingRequests(
  db: Database,
  memberId: string,
  options: { status?: ShippingStatus[]; limit?: number; before?: { requestedAt: string; id: string }; now?: Date } = {},
): Promise<ShippingRequestPage> {
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 100);
  const statuses = options.status?.filter((s) => (shippingStatuses as readonly string[]).includes(s));
  const before = options.before;
  const rows = await db
    .select()
    .from(shippingRequests)
    .where(
      and(
        eq(shippingRequests.memberId, memberId),
        statuses?.length ? inArray(shippingRequests.status, statuses) : undefined,
        before && isUuid(before.id)
          ? sql`(${shippingRequests.requestedAt}, ${shippingRequests.id}) < (${before.requestedAt}::timestamptz, ${before.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(shippingRequests.requestedAt), desc(shippingRequests.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const items = await itemsOf(
    db,
    page.map((r) => r.id),
  );
  const cards = await shippingPrizeCards(
    db,
    page.flatMap((r) => (items.get(r.id) ?? []).slice(0, 3)),
  );
  const now = options.now ?? new Date();
  const last = page.at(-1);
  return {
    items: page.map((row) => summaryOf(row, items.get(row.id) ?? [], cards, now)),
    next: rows.length > limit && last ? { requestedAt: last.requestedAt.toISOString(), id: last.id } : null,
  };
}

/**
 * One of the member's requests with its cards, timeline and address; null when it is not theirs
 * (the caller answers 404 either way, so another member's request is never shown to exist).
 * @example const request = await getShippingRequest(db, rules, member.id, params.requestId)
 */
export async function getShippingRequest(
  db: Database,
  rules: Pick<ShippingRules, 'keyring'>,
  memberId: string,
  requestId: string,
  now = new Date(),
): Promise<ShippingRequestView | null> {
  if (!isUuid(requestId)) return null;
  const [row] = await db
    .select()
    .from(shippingRequests)
    .where(and(eq(shippingRequests.id, requestId), eq(shippingRequests.memberId, memberId)));
  return row ? requestViewOf(db, rules.keyring, row, now) : null;
}

/**
 * Some of the member's own requests by id (status, times, count), for a page that names them (an
 * inquiry about a request); another member's request is simply absent.
 * @example (await describeShippingRequests(db, member.id, [id])).get(id)?.status
 */
export async function describeShippingRequests(
  db: Database,
  memberId: string,
  requestIds: string[],
): Promise<Map<string, { id: string; status: ShippingStatus; requestedAt: string; itemCount: number }>> {
  const ids = requestIds.filter(isUuid);
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: shippingRequests.id, status: shippingRequests.status, requestedAt: shippingRequests.requestedAt })
    .from(shippingRequests)
    .where(and(eq(shippingRequests.memberId, memberId), inArray(shippingRequests.id, ids)));
  const items = await itemsOf(
    db,
    rows.map((r) => r.id),
  );
  return new Map(
    rows.map((r) => [
      r.id,
      { id: r.id, status: r.status, requestedAt: r.requestedAt.toISOString(), itemCount: items.get(r.id)?.length ?? 0 },
    ]),
  );
}

/** Locks a request's row for a change (the caller's transaction); scoped to a member when given. */
export async function lockRequest(tx: Database, requestId: string, memberId?: string): Promise<RequestRow | undefined> {
  if (!isUuid(requestId)) return undefined;
  const [row] = await tx
    .select()
    .from(shippingRequests)
    .where(and(eq(shippingRequests.id, requestId), memberId ? eq(shippingRequests.memberId, memberId) : undefined))
    .for('update');
  return row;
}

/** The prizes a request still holds (not yet released). */
export async function liveItemsOf(tx: Database, requestId: string): Promise<string[]> {
  const rows = await tx
    .select({ prizeId: shippingRequestItems.prizeId })
    .from(shippingRequestItems)
    .where(and(eq(shippingRequestItems.requestId, requestId), isNull(shippingRequestItems.releasedAt)))
    .orderBy(asc(shippingRequestItems.prizeId));
  return rows.map((r) => r.prizeId);
}

/** The prizes leave the request (back to the box, or converted): the live-prize index frees them. */
export async function releaseItems(tx: Database, requestId: string, now: Date): Promise<void> {
  await tx
    .update(shippingRequestItems)
    .set({ releasedAt: now })
    .where(and(eq(shippingRequestItems.requestId, requestId), isNull(shippingRequestItems.releasedAt)));
}

/**
 * Moves a locked request by `action` (request-states.ts decides), stamping the step's time and writing
 * its timeline entry. Throws the refusal (RefusalError) when the move is not allowed, so the caller's
 * transaction rolls back.
 */
export async function moveRequest(
  tx: Database,
  row: RequestRow,
  action: ShippingAction,
  step: { now: Date; actor: ShippingActor; note?: string | null; set?: Partial<typeof shippingRequests.$inferInsert> },
): Promise<RequestRow> {
  const moved = transition(action, row.status);
  if (!moved.ok) throw new RefusalError(moved);
  const stamp: Partial<typeof shippingRequests.$inferInsert> = {};
  if (moved.to === 'shipped') stamp.shippedAt = step.now;
  if (moved.to === 'delivered') stamp.deliveredAt = step.now;
  if (moved.to === 'returned') stamp.returnedAt = step.now;
  if (moved.to === 'canceled') stamp.canceledAt = step.now;
  const [updated] = await tx
    .update(shippingRequests)
    .set({ ...stamp, ...step.set, status: moved.to, updatedAt: step.now })
    .where(eq(shippingRequests.id, row.id))
    .returning();
  await recordEvent(tx, {
    requestId: row.id,
    kind: moved.event,
    status: moved.to,
    at: step.now,
    actor: step.actor,
    note: step.note,
  });
  return updated!;
}

/**
 * Cancels a locked request (the member's cancel or the shop's): prizes back to the box as kept with a
 * new storage period, the fee given back as grants, the member told.
 */
export async function cancelLockedRequest(
  tx: Database,
  rules: ShippingRules,
  row: RequestRow,
  options: { action: 'cancel' | 'cancelByShop'; now: Date; actor: ShippingActor; note?: string | null },
): Promise<{ row: RequestRow; refundCoins: number; items: number }> {
  // Canceled after its promised day without having left: the broken promise is paid first.
  if (transition(options.action, row.status).ok) await compensateIfLate(tx, rules, row, options.now);
  const moved = await moveRequest(tx, row, options.action, {
    now: options.now,
    actor: options.actor,
    note: options.note,
  });
  const prizeIds = await liveItemsOf(tx, row.id);
  await releaseItems(tx, row.id, options.now);
  await returnPrizesFromShipping(tx, row.memberId, prizeIds, { storageDays: rules.storageDays, now: options.now });
  const refunded = await refundSpend(tx, {
    memberId: row.memberId,
    spendKey: `shipping-fee:${row.id}`,
    reason: 'shipping_fee_refund',
    counterAccount: 'shipping',
    idempotencyKey: `shipping-fee-refund:${row.id}`,
    ref: row.id,
    minDays: FEE_REFUND_MIN_DAYS,
    now: options.now,
  });
  const refundCoins = refunded.paid + refunded.free;
  await notifyMember(tx, rules.site, row.memberId, {
    kind: 'canceled',
    requestId: row.id,
    items: prizeIds.length,
    refundCoins,
    byShop: options.action === 'cancelByShop',
  });
  return { row: moved, refundCoins, items: prizeIds.length };
}

/**
 * The member cancels their request while it is only requested (not once the desk is preparing it):
 * the prizes go back to the box as kept, the fee comes back. Another member's request is not found.
 * @example const canceled = await cancelShippingRequest(db, rules, member.id, requestId)
 */
export async function cancelShippingRequest(
  db: Database,
  rules: ShippingRules,
  memberId: string,
  requestId: string,
  now = new Date(),
): Promise<
  Outcome<
    { ok: true; request: ShippingRequestView; refundCoins: number },
    'SHIPPING_REQUEST_NOT_FOUND' | 'SHIPPING_NOT_CANCELABLE'
  >
> {
  try {
    const done = await db.transaction(async (tx) => {
      const row = await lockRequest(tx, requestId, memberId);
      if (!row) throw new RefusalError(refuse('SHIPPING_REQUEST_NOT_FOUND'));
      return cancelLockedRequest(tx, rules, row, { action: 'cancel', now, actor: 'member' });
    });
    return {
      ok: true,
      request: await requestViewOf(db, rules.keyring, done.row, now),
      refundCoins: done.refundCoins,
    };
  } catch (error) {
    if (error instanceof RefusalError)
      return error.refusal as Refusal<'SHIPPING_REQUEST_NOT_FOUND' | 'SHIPPING_NOT_CANCELABLE'>;
    throw error;
  }
}

/**
 * Key rotation's step for shipping requests (docs/decisions/019): every request's copy of its address
 * still under an older key is sealed again under the keyring's first, `batchSize` per transaction
 * (requests being changed right now are skipped and picked up by a repeat). Safe to repeat.
 * @example await rekeyShippingRequests(db, config.addressKeyring, { batchSize: 500 }) // { keyId: 'k2', rekeyed: 40, remaining: 0 }
 */
export async function rekeyShippingRequests(
  db: Database,
  keyring: AddressKeyring,
  options: { batchSize: number },
): Promise<{ keyId: string; rekeyed: number; remaining: number }> {
  const current = keyring[0]?.id;
  if (!current) throw new Error('the address keyring is empty (ADDRESS_ENCRYPTION_KEYS)');
  let rekeyed = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: shippingRequests.id, sealed: shippingRequests.addressSealed })
        .from(shippingRequests)
        .where(ne(shippingRequests.addressKeyId, current))
        .orderBy(asc(shippingRequests.id))
        .limit(options.batchSize)
        .for('update', { skipLocked: true });
      for (const row of rows) {
        const resealed = resealShippingAddress(keyring, row.sealed, row.id);
        const { sealed, keyId } = resealed ?? { sealed: row.sealed, keyId: current };
        await tx
          .update(shippingRequests)
          .set({ addressSealed: sealed, addressKeyId: keyId })
          .where(eq(shippingRequests.id, row.id));
      }
      return rows.length;
    });
    rekeyed += done;
    if (done < options.batchSize) break;
  }
  const [left] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(shippingRequests)
    .where(ne(shippingRequests.addressKeyId, current));
  return { keyId: current, rekeyed, remaining: Number(left?.n ?? 0) };
}
