// The desk's moves of requests (issue 12, items 10–12): preparing, shipping (one, or a CSV file all or
// nothing), delivered, returned and what follows (re-ship or convert), the shop's cancel, the internal note.
// Each goes through runAdminAction ('shipping:write'): the change and its audit entry commit together.
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { runAdminAction, type AuditRecord, type Operator } from '#modules/admin';
import { convertPrizesFromShipping, shippingPrizeRefs } from '#modules/draw';
import { lockStockOfPrizes, moveStockOfPrizes } from '#modules/gacha';
import { refuse, RefusalError } from '#modules/kernel';
import { CARRIERS, checkTrackingNumber, CARRIER_CODES, type CarrierCode } from './carriers';
import { notifyMember } from './notices';
import { compensateIfLate } from './promise';
import { SHIPPING_STATUS_LABELS, type ShippingAction } from './request-states';
import { cancelLockedRequest, liveItemsOf, lockRequest, moveRequest, releaseItems } from './request-changes';
import type { ShippingRules } from './requests';
import { shippingRequests, type ShippingStatus } from './schema';
import { readShippedCsv, type ShippedCsvColumn, type ShippedCsvLimits, type ShippedCsvRow } from './shipping-csv';
import { auditOf, auditState, lockOrRefuse, type DeskOutcome, type DeskRefusal, type RequestRow } from './desk';

/**
 * Takes requests into preparation (one, or a batch from the queue): all or none. A request in another
 * status refuses the whole batch (SHIPPING_STATUS_CONFLICT naming it). Each member is told.
 * @example await prepareShippingRequests(db, operator, rules, [id1, id2])
 */
export async function prepareShippingRequests(
  db: Database,
  operator: Operator,
  rules: ShippingRules,
  requestIds: string[],
  now = new Date(),
): DeskOutcome<{ prepared: number }> {
  const ids = [...new Set(requestIds)].sort();
  if (ids.length === 0) return refuse('SHIPPING_REQUEST_NOT_FOUND', { requestIds: [] });
  return runAdminAction(db, operator, 'shipping:write', async (tx) => {
    const audit: AuditRecord[] = [];
    // Locked in id order: two batches that share requests wait on each other instead of deadlocking.
    for (const id of ids) {
      const row = await lockOrRefuse(tx, id);
      const moved = await moveWithDetails(tx, row, 'prepare', { now, actor: 'staff' });
      await notifyMember(tx, rules.site, row.memberId, {
        kind: 'preparing',
        requestId: row.id,
        promisedDate: row.promisedDate,
      });
      audit.push(auditOf('shipping.prepare', row, moved));
    }
    return { value: { prepared: ids.length }, audit };
  });
}

/** moveRequest, with the request named in a refusal (a batch says which one stopped it). */
async function moveWithDetails(
  tx: Database,
  row: RequestRow,
  action: ShippingAction,
  step: Parameters<typeof moveRequest>[3],
): Promise<RequestRow> {
  try {
    return await moveRequest(tx, row, action, step);
  } catch (error) {
    if (error instanceof RefusalError)
      throw new RefusalError(refuse(error.refusal.code, { ...error.refusal.details, requestId: row.id }));
    throw error;
  }
}

/** A carrier and tracking number as typed, checked by carriers.ts (the stored form, or the refusal). */
function readTracking(
  carrier: string,
  trackingNumber: string,
): { ok: true; carrier: CarrierCode; trackingNumber: string } | DeskRefusal {
  if (!(CARRIER_CODES as readonly string[]).includes(carrier))
    return refuse('TRACKING_NUMBER_FORMAT', { message: '運送会社を選んでください。' });
  const checked = checkTrackingNumber(carrier as CarrierCode, trackingNumber);
  if (!checked.ok) return refuse(checked.code, { message: checked.message });
  return { ok: true, carrier: carrier as CarrierCode, trackingNumber: checked.trackingNumber };
}

async function shipLocked(
  tx: Database,
  rules: ShippingRules,
  row: RequestRow,
  tracking: { carrier: CarrierCode; trackingNumber: string },
  now: Date,
): Promise<RequestRow> {
  // Shipped after its promised day (the job had not run yet): the broken promise is paid first.
  if (row.status === 'preparing') await compensateIfLate(tx, rules, row, now);
  const moved = await moveWithDetails(tx, row, 'ship', {
    now,
    actor: 'staff',
    note: `${CARRIERS[tracking.carrier].name}　追跡番号 ${tracking.trackingNumber}`,
    set: { carrier: tracking.carrier, trackingNumber: tracking.trackingNumber },
  });
  await notifyMember(tx, rules.site, row.memberId, {
    kind: 'shipped',
    requestId: row.id,
    carrier: tracking.carrier,
    trackingNumber: tracking.trackingNumber,
  });
  return moved;
}

/**
 * The shipped requests' cards leave the shop (each prize's substitute if it has one): on hand and
 * reserved − 1. After every wallet step of the shipment (lock order: requests → wallet → stock cards),
 * all the cards locked first in id order.
 */
async function consumeStock(tx: Database, requestIds: string[], now: Date): Promise<void> {
  const shipped = await Promise.all(
    requestIds.map(async (requestId) => ({
      requestId,
      prizes: await shippingPrizeRefs(tx, await liveItemsOf(tx, requestId)),
    })),
  );
  await lockStockOfPrizes(
    tx,
    shipped.flatMap((s) => s.prizes),
  );
  for (const { requestId, prizes } of shipped) await moveStockOfPrizes(tx, prizes, 'shipped', { requestId, now });
}

/**
 * Marks a request in preparation shipped with its carrier and tracking number (checked against the
 * carrier's format; a number in another carrier's format is refused naming it). The member gets the
 * carrier's tracking link.
 * @example await shipShippingRequest(db, operator, rules, { requestId, carrier: 'yamato', trackingNumber: '1234-5678-9012' })
 */
export async function shipShippingRequest(
  db: Database,
  operator: Operator,
  rules: ShippingRules,
  input: { requestId: string; carrier: string; trackingNumber: string },
  now = new Date(),
): DeskOutcome<{ carrier: CarrierCode; trackingNumber: string }> {
  const tracking = readTracking(input.carrier, input.trackingNumber);
  if (!tracking.ok) return tracking;
  return runAdminAction(db, operator, 'shipping:write', async (tx) => {
    const row = await lockOrRefuse(tx, input.requestId);
    const moved = await shipLocked(tx, rules, row, tracking, now);
    await consumeStock(tx, [row.id], now);
    return {
      value: { carrier: tracking.carrier, trackingNumber: tracking.trackingNumber },
      audit: auditOf('shipping.ship', row, moved),
    };
  });
}

/** One row's fault in a shipped-CSV import (the file's own, or the request's state). */
export interface ShippedCsvProblem {
  line: number;
  column?: ShippedCsvColumn;
  code: string;
  message: string;
}

/**
 * Marks shipped every row of a CSV file (request_id, carrier, tracking_number), all or nothing: a
 * file that cannot be read, a row with a fault, or a request that is not found or not in preparation
 * refuses the whole file (SHIPPING_CSV_REFUSED, every problem listed by line), and nothing is applied.
 * A corrected file is simply imported again.
 * @example const done = await shipShippingRequestsFromCsv(db, operator, rules, bytes, { maxBytes: 1_000_000, maxRows: 2000 })
 */
export async function shipShippingRequestsFromCsv(
  db: Database,
  operator: Operator,
  rules: ShippingRules,
  file: Uint8Array | string,
  limits: ShippedCsvLimits,
  now = new Date(),
): DeskOutcome<{ shipped: ShippedCsvRow[] }> {
  if (!operator.permissions.has('shipping:write')) return refuse('PERMISSION_DENIED', { permission: 'shipping:write' });
  const read = readShippedCsv(file, limits);
  if (!read.ok)
    return refuse('SHIPPING_CSV_REFUSED', {
      file: { code: read.code, message: read.message, line: read.line ?? null },
    });
  if (read.errors.length > 0) return refuse('SHIPPING_CSV_REFUSED', { rows: read.errors });
  const rows = [...read.rows].sort((a, b) => (a.requestId < b.requestId ? -1 : a.requestId > b.requestId ? 1 : 0));
  return runAdminAction(db, operator, 'shipping:write', async (tx) => {
    const problems: ShippedCsvProblem[] = [];
    const locked: { csv: ShippedCsvRow; row: RequestRow }[] = [];
    for (const csv of rows) {
      const row = await lockRequest(tx, csv.requestId);
      if (!row) {
        problems.push({
          line: csv.line,
          column: 'request_id',
          code: 'SHIPPING_REQUEST_NOT_FOUND',
          message: `${csv.line}行目: 依頼ID ${csv.requestId} の発送依頼はありません。`,
        });
      } else if (row.status !== 'preparing') {
        problems.push({
          line: csv.line,
          column: 'request_id',
          code: 'SHIPPING_STATUS_CONFLICT',
          message: `${csv.line}行目: 依頼ID ${csv.requestId} は「${SHIPPING_STATUS_LABELS[row.status]}」のため発送済みにできません（発送準備中の依頼のみ）。`,
        });
      } else locked.push({ csv, row });
    }
    if (problems.length > 0)
      throw new RefusalError(refuse('SHIPPING_CSV_REFUSED', { rows: problems.sort((a, b) => a.line - b.line) }));
    const audit: AuditRecord[] = [];
    for (const { csv, row } of locked) {
      const moved = await shipLocked(tx, rules, row, csv, now);
      audit.push({ ...auditOf('shipping.ship', row, moved), after: { ...auditState(moved), csvLine: csv.line } });
    }
    await consumeStock(
      tx,
      locked.map(({ row }) => row.id),
      now,
    );
    return { value: { shipped: read.rows }, audit };
  });
}

/** One move of one request by the desk, its mail and its audit entry (delivered, returned, re-ship). */
async function simpleMove(
  db: Database,
  operator: Operator,
  rules: ShippingRules,
  requestId: string,
  action: 'deliver' | 'return' | 'reship',
  now: Date,
): DeskOutcome<{ status: ShippingStatus }> {
  return runAdminAction(db, operator, 'shipping:write', async (tx) => {
    const row = await lockOrRefuse(tx, requestId);
    const moved = await moveWithDetails(tx, row, action, { now, actor: 'staff' });
    // A returned parcel's cards are back on the shelf, still promised to the member (re-ship or convert).
    if (action === 'return')
      await moveStockOfPrizes(tx, await shippingPrizeRefs(tx, await liveItemsOf(tx, row.id)), 'returned', {
        requestId: row.id,
        now,
      });
    const kind = action === 'deliver' ? 'delivered' : action === 'return' ? 'returned' : 'reshipping';
    await notifyMember(tx, rules.site, row.memberId, { kind, requestId: row.id });
    return { value: { status: moved.status }, audit: auditOf(`shipping.${action}`, row, moved) };
  });
}

/** @example await markShippingDelivered(db, operator, rules, requestId) */
export const markShippingDelivered = (
  db: Database,
  operator: Operator,
  rules: ShippingRules,
  requestId: string,
  now = new Date(),
) => simpleMove(db, operator, rules, requestId, 'deliver', now);

/** The parcel came back undeliverable; the member is told, and the desk then re-ships or converts. */
export const markShippingReturned = (
  db: Database,
  operator: Operator,
  rules: ShippingRules,
  requestId: string,
  now = new Date(),
) => simpleMove(db, operator, rules, requestId, 'return', now);

/** A returned parcel goes out again: back to preparation (then shipped with its new tracking number). */
export const reshipReturnedRequest = (
  db: Database,
  operator: Operator,
  rules: ShippingRules,
  requestId: string,
  now = new Date(),
) => simpleMove(db, operator, rules, requestId, 'reship', now);

/**
 * A returned parcel's cards become free coins (a ledger entry each); the request ends (canceled) and
 * the member is told how many coins.
 * @example await convertReturnedRequest(db, operator, rules, requestId)
 */
export async function convertReturnedRequest(
  db: Database,
  operator: Operator,
  rules: ShippingRules,
  requestId: string,
  now = new Date(),
): DeskOutcome<{ coins: number; items: number }> {
  return runAdminAction(db, operator, 'shipping:write', async (tx) => {
    const row = await lockOrRefuse(tx, requestId);
    const prizeIds = await liveItemsOf(tx, row.id);
    const converted = await convertLocked(tx, rules, row, prizeIds, now);
    return {
      value: converted.value,
      audit: {
        ...auditOf('shipping.convert_returned', row, converted.moved),
        after: { ...auditState(converted.moved), coins: converted.value.coins },
      },
    };
  });
}

async function convertLocked(tx: Database, rules: ShippingRules, row: RequestRow, prizeIds: string[], now: Date) {
  const moved = await moveWithDetails(tx, row, 'convertReturned', { now, actor: 'staff' });
  await releaseItems(tx, row.id, now);
  const converted = await convertPrizesFromShipping(tx, row.memberId, prizeIds, {
    freeCoinDays: rules.freeCoinDays,
    now,
  });
  await notifyMember(tx, rules.site, row.memberId, {
    kind: 'converted',
    requestId: row.id,
    items: prizeIds.length,
    coins: converted.total,
  });
  return { moved, value: { coins: converted.total, items: prizeIds.length } };
}

/**
 * The shop cancels a request not yet shipped (the member asked the support desk, a card cannot be
 * sent): prizes back to the box, the fee refunded, the member told. `noteForMember` shows on the timeline.
 * @example await cancelShippingRequestByShop(db, operator, rules, requestId, { noteForMember: 'ご依頼によりキャンセルしました。' })
 */
export async function cancelShippingRequestByShop(
  db: Database,
  operator: Operator,
  rules: ShippingRules,
  requestId: string,
  options: { noteForMember?: string | null } = {},
  now = new Date(),
): DeskOutcome<{ refundCoins: number; items: number }> {
  return runAdminAction(db, operator, 'shipping:write', async (tx) => {
    const row = await lockOrRefuse(tx, requestId);
    const done = await cancelLockedRequest(tx, rules, row, {
      action: 'cancelByShop',
      now,
      actor: 'staff',
      note: options.noteForMember?.trim() || null,
    }).catch((error: unknown) => {
      if (error instanceof RefusalError)
        throw new RefusalError(refuse(error.refusal.code, { ...error.refusal.details, requestId: row.id }));
      throw error;
    });
    return {
      value: { refundCoins: done.refundCoins, items: done.items },
      audit: auditOf('shipping.cancel', row, done.row),
    };
  });
}

/** The desk's note on a request (never shown to the member). */
export const internalNoteSchema = z.object({
  note: z.string().trim().max(2000, { error: 'メモは2000文字以内で入力してください。' }),
});

/**
 * Sets (or, empty, clears) a request's internal note; audited with the note before and after.
 * @example await setShippingInternalNote(db, operator, requestId, '住所の建物名を確認済み')
 */
export async function setShippingInternalNote(
  db: Database,
  operator: Operator,
  requestId: string,
  note: string,
  now = new Date(),
): DeskOutcome<{ internalNote: string | null }> {
  const parsed = internalNoteSchema.safeParse({ note });
  if (!parsed.success) throw new RangeError('setShippingInternalNote: parse the note with internalNoteSchema first');
  const text = parsed.data.note || null;
  return runAdminAction(db, operator, 'shipping:write', async (tx) => {
    const row = await lockOrRefuse(tx, requestId);
    const [updated] = await tx
      .update(shippingRequests)
      .set({ internalNote: text, updatedAt: now })
      .where(eq(shippingRequests.id, row.id))
      .returning();
    return { value: { internalNote: text }, audit: auditOf('shipping.note', row, updated!) };
  });
}
