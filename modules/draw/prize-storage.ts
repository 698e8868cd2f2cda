// Prizes on their way to a member: reserved for a shipping request, put back in the box, and the kept
// prizes' storage period (its end and the reminders before it). The shipping module calls these inside
// its own transactions; that a prize is converted or shipped, never both, holds by the prizes' row locks.
import { and, asc, count, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';
import { tierCards } from '#modules/gacha';
import { grantCoins } from '#modules/wallet';
import { isUuid, refuse, type Outcome } from '#modules/kernel';
import { prizes, type PrizeStatus } from './schema';

/** Default storage period of a kept prize (docs/product.md): then it is converted to coins. */
export const KEPT_PRIZE_STORAGE_DAYS = 60;
/** Storage reminders: this many days before the end, once each per keep (docs/product.md). */
export const KEPT_PRIZE_REMINDER_DAYS = [7, 1] as const;
export type KeptPrizeReminderDays = (typeof KEPT_PRIZE_REMINDER_DAYS)[number];

const DAY_MS = 86_400_000;

/**
 * The end of a storage period that starts at `from`. The days are the shop's setting, always passed.
 * @example storageEnd(new Date('2027-01-01T00:00:00Z'), 60).toISOString() // '2027-03-02T00:00:00.000Z'
 */
export function storageEnd(from: Date, storageDays: number): Date {
  if (!Number.isSafeInteger(storageDays) || storageDays < 1)
    throw new RangeError('storageDays must be a positive integer');
  return new Date(from.getTime() + storageDays * DAY_MS);
}

export type ShippingReservation = Outcome<
  { ok: true; prizes: { prizeId: string; previousStatus: 'pending' | 'kept' }[] },
  'PRIZE_NOT_FOUND' | 'PRIZE_ALREADY_DECIDED'
>;

/**
 * Takes the member's undecided or kept prizes for a shipping request ('shipping'), all or none, under
 * the prizes' row locks (the same locks a conversion and the deadline job take, so exactly one of them
 * wins a prize). Call it inside the request's transaction, and roll back on a refusal.
 * @example const reserved = await reservePrizesForShipping(tx, memberId, prizeIds)
 */
export async function reservePrizesForShipping(
  tx: Database,
  memberId: string,
  prizeIds: string[],
  now = new Date(),
): Promise<ShippingReservation> {
  const ids = [...new Set(prizeIds)];
  if (ids.length === 0 || !ids.every(isUuid)) return refuse('PRIZE_NOT_FOUND');
  const owned = await tx
    .select({ id: prizes.id, status: prizes.status })
    .from(prizes)
    .where(and(eq(prizes.memberId, memberId), inArray(prizes.id, ids)))
    .orderBy(asc(prizes.id))
    .for('update');
  if (owned.length !== ids.length) return refuse('PRIZE_NOT_FOUND');
  const closed = owned.filter((p) => p.status !== 'pending' && p.status !== 'kept');
  if (closed.length > 0) return refuse('PRIZE_ALREADY_DECIDED', { prizeIds: closed.map((p) => p.id) });
  await tx
    .update(prizes)
    .set({ status: 'shipping', decidedAt: now })
    .where(and(eq(prizes.memberId, memberId), inArray(prizes.id, ids)));
  return {
    ok: true,
    prizes: owned.map((p) => ({ prizeId: p.id, previousStatus: p.status as 'pending' | 'kept' })),
  };
}

/**
 * Puts a canceled or returned request's prizes back in the member's box as kept, with a new storage
 * period from now (and its reminders to come). Call it inside the request's transaction; a prize that
 * is not the member's or not in 'shipping' is a broken invariant and throws.
 * @example await returnPrizesFromShipping(tx, memberId, prizeIds, { storageDays: config.KEPT_PRIZE_STORAGE_DAYS })
 */
export async function returnPrizesFromShipping(
  tx: Database,
  memberId: string,
  prizeIds: string[],
  options: { storageDays: number; now?: Date },
): Promise<{ returned: number; keepUntil: Date }> {
  const now = options.now ?? new Date();
  const keepUntil = storageEnd(now, options.storageDays);
  const ids = [...new Set(prizeIds)];
  const owned = await tx
    .select({ id: prizes.id, status: prizes.status })
    .from(prizes)
    .where(and(eq(prizes.memberId, memberId), inArray(prizes.id, ids)))
    .orderBy(asc(prizes.id))
    .for('update');
  if (owned.length !== ids.length || owned.some((p) => p.status !== 'shipping'))
    throw new Error(`returnPrizesFromShipping: prizes of member ${memberId} are not all in a shipping request`);
  await tx
    .update(prizes)
    .set({ status: 'kept', decidedAt: now, keepUntil, keepRemindedDays: null })
    .where(and(eq(prizes.memberId, memberId), inArray(prizes.id, ids)));
  return { returned: ids.length, keepUntil };
}

/** A prize as shipping shows it: the card (from gacha's read model) and where the prize stands. */
export interface ShippingPrizeCard {
  prizeId: string;
  memberId: string;
  status: PrizeStatus;
  conversionValue: number;
  keepUntil: string | null;
  gachaId: string;
  gachaTitle: string;
  tierLabel: string;
  tierRank: number;
  effect: 'lastone' | 'rainbow' | 'gold' | 'silver' | 'normal';
  isLastOne: boolean;
  cardName: string;
  imagePath: string;
  rarity: string | null;
  cardGrade: string | null;
  cardSet: string | null;
  cardNumber: string | null;
}

/**
 * The cards of the given prizes, whoever owns them (the caller checks: a member's own request, or an
 * operator's batch), for requests, pick lists and packing slips.
 * @example (await shippingPrizeCards(db, prizeIds)).get(prizeId)?.cardName
 */
export async function shippingPrizeCards(db: Database, prizeIds: string[]): Promise<Map<string, ShippingPrizeCard>> {
  const ids = [...new Set(prizeIds)].filter(isUuid);
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      prizeId: prizes.id,
      memberId: prizes.memberId,
      status: prizes.status,
      conversionValue: prizes.conversionValue,
      keepUntil: prizes.keepUntil,
      tierId: prizes.tierId,
    })
    .from(prizes)
    .where(inArray(prizes.id, ids));
  const cards = await tierCards(
    db,
    rows.map((r) => r.tierId),
  );
  return new Map(
    rows.flatMap(({ tierId, keepUntil, ...prize }) => {
      const card = cards.get(tierId);
      if (!card) return [];
      const { tierId: _tierId, genreId: _genreId, ...named } = card;
      return [[prize.prizeId, { ...prize, ...named, keepUntil: keepUntil ? keepUntil.toISOString() : null }] as const];
    }),
  );
}

/** One storage reminder: a member's kept prizes whose storage ends within `daysBefore` days. */
export interface KeptPrizeReminder {
  memberId: string;
  daysBefore: KeptPrizeReminderDays;
  prizes: { prizeId: string; keepUntil: Date }[];
}

/**
 * The storage reminders' run: for each member, the kept prizes that reached a reminder (7 days, 1 day
 * before the end) and have not had it are handed to `notify` in the transaction that records them as
 * reminded, so each reminder goes out once even when two runs overlap (rows another run holds are
 * skipped, and a reminded prize no longer matches). A prize already within 1 day gets only that one.
 * Kept prizes from before the storage period existed (no end yet) start their period now.
 * @example await remindKeptPrizes(db, { storageDays: 60 }, async (tx, reminder) => queueTheMail(tx, reminder))
 */
export async function remindKeptPrizes(
  db: Database,
  options: { storageDays: number; now?: Date; batch?: number },
  notify: (tx: Database, reminder: KeptPrizeReminder) => Promise<void>,
): Promise<number> {
  const now = options.now ?? new Date();
  const batch = options.batch ?? 200;
  await db
    .update(prizes)
    .set({ keepUntil: storageEnd(now, options.storageDays) })
    .where(and(eq(prizes.status, 'kept'), isNull(prizes.keepUntil)));
  const at = (days: number) => new Date(now.getTime() + days * DAY_MS).toISOString();
  const stages = [...KEPT_PRIZE_REMINDER_DAYS].sort((a, b) => a - b);
  // The reminder a prize is due for: the nearest stage its end has come within.
  const stage = sql`(case ${sql.join(
    stages.map((days) => sql`when ${prizes.keepUntil} <= ${at(days)}::timestamptz then ${days}::int`),
    sql` `,
  )} end)`;
  const due = sql`${prizes.status} = 'kept' and ${prizes.keepUntil} > ${now.toISOString()}::timestamptz
    and ${prizes.keepUntil} <= ${at(stages.at(-1)!)}::timestamptz
    and (${prizes.keepRemindedDays} is null or ${prizes.keepRemindedDays} > ${stage})`;
  let reminded = 0;
  let after = '';
  for (;;) {
    const members = await db
      .selectDistinct({ memberId: prizes.memberId })
      .from(prizes)
      .where(and(sql`${due}`, gt(prizes.memberId, after)))
      .orderBy(asc(prizes.memberId))
      .limit(batch);
    for (const { memberId } of members) {
      reminded += await db.transaction(async (tx) => {
        const rows = await queryRows<{ id: string; keep_until: string | Date; stage: number }>(
          tx,
          sql`select ${prizes.id} as id, ${prizes.keepUntil} as keep_until, ${stage} as stage from ${prizes}
              where ${prizes.memberId} = ${memberId} and ${due}
              order by ${prizes.id} for update skip locked`,
        );
        for (const days of stages) {
          const group = rows.filter((r) => Number(r.stage) === days);
          if (group.length === 0) continue;
          await notify(tx, {
            memberId,
            daysBefore: days,
            prizes: group.map((r) => ({ prizeId: r.id, keepUntil: new Date(r.keep_until) })),
          });
          await tx
            .update(prizes)
            .set({ keepRemindedDays: days })
            .where(
              inArray(
                prizes.id,
                group.map((r) => r.id),
              ),
            );
        }
        return rows.length;
      });
    }
    if (members.length < batch) return reminded;
    after = members.at(-1)!.memberId;
  }
}

/** A prize as the shipping desk's stock steps need it (which card: its tier). */
export interface ShippingPrizeRef {
  prizeId: string;
  memberId: string;
  status: PrizeStatus;
  gachaId: string;
  tierId: string;
  conversionValue: number;
}

const prizeRefColumns = {
  prizeId: prizes.id,
  memberId: prizes.memberId,
  status: prizes.status,
  gachaId: prizes.gachaId,
  tierId: prizes.tierId,
  conversionValue: prizes.conversionValue,
};

/**
 * The given prizes' tiers and packs (for the stock steps of a shipment), in id order.
 * @example const refs = await shippingPrizeRefs(tx, prizeIds)
 */
export async function shippingPrizeRefs(db: Database, prizeIds: string[]): Promise<ShippingPrizeRef[]> {
  const ids = [...new Set(prizeIds)].filter(isUuid);
  if (ids.length === 0) return [];
  return db.select(prizeRefColumns).from(prizes).where(inArray(prizes.id, ids)).orderBy(asc(prizes.id));
}

/**
 * Locks one prize in a shipping request for a change by the desk (a missing card), or null when it
 * does not exist. The request's lock comes first, then this (lock order: request → prizes → wallet).
 * @example const prize = await lockShippingPrize(tx, prizeId)
 */
export async function lockShippingPrize(tx: Database, prizeId: string): Promise<ShippingPrizeRef | null> {
  if (!isUuid(prizeId)) return null;
  const [row] = await tx.select(prizeRefColumns).from(prizes).where(eq(prizes.id, prizeId)).for('update');
  return row ?? null;
}

/**
 * A prize in a shipping request that the shop cannot send (its card missing or damaged, no substitute):
 * it becomes 'converted' and the member gets `coins` free coins, once (key `prize-compensation:<id>`,
 * reason prize_compensation). Its card already left stock with the report, so nothing is released
 * here. Call it inside the desk's transaction holding the prize's lock; a prize not in 'shipping' throws.
 * @example await compensatePrizeFromShipping(tx, { memberId, prizeId, coins: 1200, freeCoinDays: 180 })
 */
export async function compensatePrizeFromShipping(
  tx: Database,
  input: { memberId: string; prizeId: string; coins: number; freeCoinDays: number; now?: Date },
): Promise<void> {
  const now = input.now ?? new Date();
  const [row] = await tx
    .update(prizes)
    .set({ status: 'converted', decidedAt: now })
    .where(and(eq(prizes.id, input.prizeId), eq(prizes.memberId, input.memberId), eq(prizes.status, 'shipping')))
    .returning({ id: prizes.id });
  if (!row) throw new Error(`compensatePrizeFromShipping: prize ${input.prizeId} is not in a shipping request`);
  if (input.coins > 0)
    await grantCoins(tx, {
      memberId: input.memberId,
      kind: 'free',
      amount: input.coins,
      reason: 'prize_compensation',
      counterAccount: 'compensation',
      idempotencyKey: `prize-compensation:${input.prizeId}`,
      ref: input.prizeId,
      now,
      lifetimeDays: { paid: input.freeCoinDays, free: input.freeCoinDays },
    });
}

/**
 * How many prizes each member holds in their box (undecided or kept for shipping): the closure's notice tells
 * them (decision 085).
 * @example const held = await prizesHeldByMember(db) // Map { 'u1' => 3 }
 */
export async function prizesHeldByMember(db: Database): Promise<Map<string, number>> {
  const rows = await db
    .select({ memberId: prizes.memberId, n: count() })
    .from(prizes)
    .where(inArray(prizes.status, ['pending', 'kept']))
    .groupBy(prizes.memberId);
  return new Map(rows.map((r) => [r.memberId, Number(r.n)]));
}
