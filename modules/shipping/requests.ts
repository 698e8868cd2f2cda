// Shipping requests as members make them: the confirmation's quote, the request (prizes reserved, the
// address sealed for it, the fee spent, all in one transaction, once per Idempotency-Key), the list,
// one request with its timeline, and the member's cancel. The desk's side is desk.ts.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { MAX_PRIZES_PER_CHOICE, shippingPrizeCards, type PrizeChoiceRefusalCode } from '#modules/draw';
import { isUuid, uuidSchema } from '#modules/kernel';
import type { SiteIdentity } from '#modules/messaging';
import type { AddressKeyring } from './sealing';
import type { ShippingDateRules } from './business-days';
import { shippingRequests, shippingStatuses, type ShippingStatus } from './schema';
import {
  itemsOf,
  requestViewOf,
  summaryOf,
  type ShippingRequestSummary,
  type ShippingRequestView,
} from './request-views';

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
