// A member's new shipping request: the confirmation's quote, then the request itself (prizes reserved, the
// address sealed for it, the fee spent, all in one transaction, once per Idempotency-Key).
import { createHash, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { reservePrizesForShipping, shippingPrizeCards } from '#modules/draw';
import { prizeSubstitutes } from '#modules/gacha';
import { memberContactOf } from '#modules/identity';
import { isUuid, refuse, RefusalError, type Outcome, type Refusal } from '#modules/kernel';
import { purchaseHoldOf } from '#modules/payments';
import { getBalance, spendCoins } from '#modules/wallet';
import { sealedAddressForShipping } from './addresses';
import { promisedShipDate, shipDeadlineInstant } from './business-days';
import { notifyMember } from './notices';
import { recordEvent } from './timeline';
import { shippingRequestItems, shippingRequests } from './schema';
import type { ShippingRequestInput, ShippingRequestRefusalCode, ShippingRules } from './requests';
import {
  itemViewOf,
  requestViewOf,
  type RequestRow,
  type ShippingQuote,
  type ShippingRequestView,
} from './request-views';

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
