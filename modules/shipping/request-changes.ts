// Changing a shipping request under its row lock: its prizes released, a move to another status, the
// member's cancel (the fee refunded), and key rotation's step for the request's sealed address.
import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { returnPrizesFromShipping } from '#modules/draw';
import { isUuid, refuse, RefusalError, type Outcome, type Refusal } from '#modules/kernel';
import { refundSpend } from '#modules/wallet';
import { resealShippingAddress } from './addresses';
import type { AddressKeyring } from './sealing';
import { notifyMember } from './notices';
import { compensateIfLate } from './promise';
import { recordEvent } from './timeline';
import { transition, type ShippingAction } from './request-states';
import { shippingRequestItems, shippingRequests, type ShippingActor } from './schema';
import { requestViewOf, type RequestRow, type ShippingRequestView } from './request-views';
import { FEE_REFUND_MIN_DAYS, type ShippingRules } from './requests';

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
