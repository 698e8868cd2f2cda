// A member's choices on prizes: convert to free coins (undoable for a few seconds: conversion-undo.ts),
// keep for shipping, the shipping desk's conversion, and the auto-conversion job.
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';
import { prizes } from './schema';
import { returnPrizesFromShipping, storageEnd } from './prize-storage';
import { isUuid, refuse, type Outcome, type Refusal } from '#modules/kernel';
import { salesStopRefusal } from '#modules/shop';

/** The refusals the SQL's prize_convert answers (db/sql-rules.db.test.ts reads its body for exactly these). */
export const PRIZE_CONVERT_SQL_REFUSAL_CODES = ['PRIZE_NOT_FOUND', 'PRIZE_ALREADY_DECIDED', 'PRIZE_KEPT'] as const;

/** Every refusal of a prize choice (convert, keep): the SQL's, and the closure's sales stop, checked before it. */
export const PRIZE_CHOICE_REFUSAL_CODES = [
  ...PRIZE_CONVERT_SQL_REFUSAL_CODES,
  // After the closure's sales stop a card is no longer turned into coins nobody can spend (decision 085).
  'SALES_STOPPED',
] as const;
export type PrizeChoiceRefusalCode = (typeof PRIZE_CHOICE_REFUSAL_CODES)[number];
export type PrizeChoiceRefusal = Refusal<PrizeChoiceRefusalCode>;

export type PrizeChoiceOutcome = Outcome<
  {
    ok: true;
    converted: { prizeId: string; coins: number }[];
    total: number;
    balance: { paid: number; free: number };
    /** With `undoSeconds`: the conversion's id for undoConversion, and until when (decision 057); else null. */
    undo: { conversionId: string; until: string } | null;
  },
  PrizeChoiceRefusalCode
>;

export interface ConvertOptions {
  /** The deadline job: converts only what is still undecided and due, never a kept prize. */
  auto?: boolean;
  /**
   * A kept prize may be converted only when the request says so (one card, after its own
   * confirmation). Without it a request that names a kept prize converts nothing (PRIZE_KEPT).
   */
  includeKept?: boolean;
  now?: Date;
  /** Lifetime of the free coins a conversion grants (FREE_COIN_EXPIRY_DAYS): the shop's setting, always passed. */
  freeCoinDays: number;
  /**
   * A member's own conversion (CONVERT_UNDO_SECONDS): it may be undone for this many seconds with
   * undoConversion (decision 057). Left out by the deadline job and the shipping desk: theirs cannot be.
   */
  undoSeconds?: number;
}

/**
 * Converts the member's chosen prizes to free coins (all or none; each a ledger entry). Prizes kept
 * for shipping are refused unless `includeKept` is set.
 * @example await convertPrizes(db, member.id, [prizeId])
 */
export async function convertPrizes(
  db: Database,
  memberId: string,
  prizeIds: string[],
  options: ConvertOptions,
): Promise<PrizeChoiceOutcome> {
  // A setting lost on the way (a partial config cast) must stop here, not reach SQL as 'undefined days'.
  if (!Number.isSafeInteger(options.freeCoinDays) || options.freeCoinDays < 1)
    throw new RangeError('freeCoinDays must be a positive integer');
  if (prizeIds.length === 0 || !prizeIds.every(isUuid)) return refuse('PRIZE_NOT_FOUND');
  const undoSeconds = options.auto ? undefined : options.undoSeconds;
  // The closure (decision 085): after the sales stop free coins buy nothing and are never refunded, so a member's
  // card stays a card (they may still have it shipped). The auto-conversion job stops itself before this.
  if (!options.auto && (await salesStopRefusal(db))) return refuse('SALES_STOPPED');
  if (undoSeconds !== undefined && (!Number.isSafeInteger(undoSeconds) || undoSeconds < 1))
    throw new RangeError('undoSeconds must be a positive integer');
  type Converted = {
    status: string;
    code?: string;
    converted?: { prizeId: string; coins: number }[];
    total?: number;
    balance?: { paid: number; free: number };
    conversionId?: string | null;
    undoUntil?: string | null;
  };
  const [row] = await queryRows<{ r: Converted }>(
    db,
    sql`select prize_convert(${memberId}::text, ${`{${prizeIds.join(',')}}`}::uuid[], ${options.auto ?? false}::boolean,
    ${options.includeKept ?? false}::boolean, ${`${options.freeCoinDays} days`}::interval,
    ${options.now ? options.now.toISOString() : null}::timestamptz,
    ${undoSeconds ? `${undoSeconds} seconds` : null}::interval) as r`,
  );
  const raw = row!.r;
  if (raw.status !== 'completed') {
    const code = PRIZE_CHOICE_REFUSAL_CODES.find((c) => c === raw.code) ?? 'PRIZE_NOT_FOUND';
    return refuse(code);
  }
  return {
    ok: true,
    converted: raw.converted ?? [],
    total: raw.total ?? 0,
    balance: raw.balance ?? { paid: 0, free: 0 },
    undo:
      raw.conversionId && raw.undoUntil
        ? { conversionId: raw.conversionId, until: new Date(raw.undoUntil).toISOString() }
        : null,
  };
}

/**
 * Keeps undecided prizes for shipping: they leave the auto-conversion deadline and wait for a shipping
 * request until the end of their storage period (`storageDays`, KEPT_PRIZE_STORAGE_DAYS), which keeping
 * an already kept prize again does not extend.
 * @example await keepPrizes(db, member.id, [prizeId], { storageDays: config.KEPT_PRIZE_STORAGE_DAYS })
 */
export async function keepPrizes(
  db: Database,
  memberId: string,
  prizeIds: string[],
  options: { storageDays: number; now?: Date },
): Promise<Outcome<{ ok: true; kept: number }, 'PRIZE_NOT_FOUND' | 'PRIZE_ALREADY_DECIDED'>> {
  const now = options.now ?? new Date();
  const keepUntil = storageEnd(now, options.storageDays);
  if (prizeIds.length === 0 || !prizeIds.every(isUuid)) return refuse('PRIZE_NOT_FOUND');
  return db.transaction(async (tx) => {
    const owned = await tx
      .select({ id: prizes.id, status: prizes.status })
      .from(prizes)
      .where(and(eq(prizes.memberId, memberId), inArray(prizes.id, prizeIds)))
      .orderBy(asc(prizes.id))
      .for('update');
    if (owned.length !== new Set(prizeIds).size) return refuse('PRIZE_NOT_FOUND');
    if (owned.some((p) => p.status !== 'pending' && p.status !== 'kept')) return refuse('PRIZE_ALREADY_DECIDED');
    await tx
      .update(prizes)
      .set({
        status: 'kept',
        decidedAt: now,
        keepUntil: sql`coalesce(${prizes.keepUntil}, ${keepUntil.toISOString()}::timestamptz)`,
      })
      .where(and(eq(prizes.memberId, memberId), inArray(prizes.id, prizeIds)));
    return { ok: true as const, kept: owned.length };
  });
}

/**
 * A returned or canceled shipping request's prizes, converted to free coins on the operator's word
 * (each a ledger entry, reason prize_conversion). Call it inside the request's transaction; the
 * prizes must be the member's and in 'shipping' (anything else is a broken invariant and throws).
 * @example await convertPrizesFromShipping(tx, request.memberId, prizeIds, { freeCoinDays: config.FREE_COIN_EXPIRY_DAYS })
 */
export async function convertPrizesFromShipping(
  tx: Database,
  memberId: string,
  prizeIds: string[],
  options: { freeCoinDays: number; now?: Date },
): Promise<{ converted: { prizeId: string; coins: number }[]; total: number }> {
  const now = options.now ?? new Date();
  // Back to the box for an instant, then the one conversion rule (prize_convert) under the same locks.
  await returnPrizesFromShipping(tx, memberId, prizeIds, { storageDays: 1, now });
  const outcome = await convertPrizes(tx, memberId, prizeIds, {
    includeKept: true,
    freeCoinDays: options.freeCoinDays,
    now,
  });
  if (!outcome.ok) throw new Error(`convertPrizesFromShipping: ${outcome.code} for prizes in a shipping request`);
  return { converted: outcome.converted, total: outcome.total };
}

/** What the deadline job converted for one member, handed to its `onConverted` in the same transaction. */
export interface AutoConversion {
  memberId: string;
  /** Each prize converted; `wasKept` for a kept prize whose storage period ended (its own mail). */
  converted: { prizeId: string; coins: number; wasKept: boolean }[];
  total: number;
}

/**
 * The deadline job: converts every undecided prize past its choice window and every kept prize past
 * its storage period, member by member (decision 009: a kept prize goes only at the end of its
 * storage, never with the undecided ones). `onConverted` runs in each member's conversion
 * transaction (the shipping module's mail), so the notice exists exactly when the conversion does.
 * @example await autoConvertDuePrizes(db, config.FREE_COIN_EXPIRY_DAYS) // → number of prizes converted
 */
export async function autoConvertDuePrizes(
  db: Database,
  freeCoinDays: number,
  now = new Date(),
  batch = 200,
  onConverted?: (tx: Database, conversion: AutoConversion) => Promise<void>,
): Promise<number> {
  let total = 0;
  const at = now.toISOString();
  for (;;) {
    const due = await db
      .select({ id: prizes.id, memberId: prizes.memberId, status: prizes.status })
      .from(prizes)
      .where(
        or(
          and(eq(prizes.status, 'pending'), sql`${prizes.decideBy} <= ${at}::timestamptz`),
          and(eq(prizes.status, 'kept'), sql`${prizes.keepUntil} <= ${at}::timestamptz`),
        ),
      )
      .orderBy(asc(prizes.id))
      .limit(batch);
    if (due.length === 0) return total;
    const byMember = new Map<string, string[]>();
    for (const p of due) byMember.set(p.memberId, [...(byMember.get(p.memberId) ?? []), p.id]);
    const wasKept = new Set(due.filter((p) => p.status === 'kept').map((p) => p.id));
    for (const [memberId, ids] of byMember) {
      // Under the row locks only what is still due is converted: a choice, a keep or a shipping
      // request made since the selection above stands. A prize converted here was in the state it
      // was selected in (a pending one kept meanwhile is no longer due), so `wasKept` holds.
      const converted = await db.transaction(async (tx) => {
        const outcome = await convertPrizes(tx, memberId, ids, { auto: true, now, freeCoinDays });
        if (!outcome.ok || outcome.converted.length === 0) return 0;
        if (onConverted)
          await onConverted(tx, {
            memberId,
            converted: outcome.converted.map((c) => ({ ...c, wasKept: wasKept.has(c.prizeId) })),
            total: outcome.total,
          });
        return outcome.converted.length;
      });
      total += converted;
    }
    if (due.length < batch) return total;
  }
}
