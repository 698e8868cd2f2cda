// Granting coins: one grant per key (a retry gets the first grant back), with the wallet's refusals.
import { sql } from 'drizzle-orm';
import { addDays } from 'date-fns';
import { queryRows, type Database } from '#db/client';
import type { CoinKind } from './schema';
import { refuse, RefusalError } from '#modules/kernel';

/** How long granted coins last, in days, by kind: the shop's settings, passed by every caller. */
export interface CoinLifetimes {
  paid: number;
  free: number;
}

export interface GrantInput {
  memberId: string;
  kind: CoinKind;
  amount: number;
  reason: string;
  /** The shop account on the other side: purchase, promotion, conversion, adjustment… */
  counterAccount: string;
  /** One operation, one key: a repeat with the same key credits nothing and returns the first grant. */
  idempotencyKey: string;
  expiresAt?: Date;
  ref?: string | null;
  memo?: string | null;
  now?: Date;
  /**
   * The shop's configured lifetimes (PAID_COIN_EXPIRY_DAYS, FREE_COIN_EXPIRY_DAYS), used when no expiresAt
   * is given. Required: a caller that forgot the settings must not silently grant the built-in defaults.
   */
  lifetimeDays: CoinLifetimes;
}

export interface GrantResult {
  grantId: number;
  replay: boolean;
  paid: number;
  free: number;
}

/** The wallet's refusals: a grant's key already credited another grant (member, kind or amount); a spend beyond the balance. */
export const WALLET_REFUSAL_CODES = ['GRANT_KEY_REUSED', 'INSUFFICIENT_COINS'] as const;
export type WalletRefusalCode = (typeof WALLET_REFUSAL_CODES)[number];

/**
 * The idempotency key already credited another grant: nothing was credited. Thrown, because a
 * grant runs inside its caller's transaction (a purchase's), which must roll back with it.
 */
export class IdempotencyKeyConflict extends RefusalError<WalletRefusalCode> {
  constructor(readonly key: string) {
    super(refuse('GRANT_KEY_REUSED', { key }));
    this.name = 'IdempotencyKeyConflict';
  }
}

/**
 * Credits coins. Amounts are positive integers; the expiry defaults by kind.
 * @example await grantCoins(db, { memberId, kind: 'free', amount: 500, reason: 'operator_grant', counterAccount: 'promotion', idempotencyKey: 'ops:2026-11-21:1' })
 */
export async function grantCoins(db: Database, input: GrantInput): Promise<GrantResult> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0)
    throw new RangeError('amount must be a positive integer');
  if (
    !input.expiresAt &&
    !(Number.isSafeInteger(input.lifetimeDays?.paid) && Number.isSafeInteger(input.lifetimeDays?.free))
  )
    throw new RangeError('lifetimeDays must give whole days for paid and free coins');
  const now = input.now ?? new Date();
  const expiresAt =
    input.expiresAt ?? addDays(now, input.kind === 'paid' ? input.lifetimeDays.paid : input.lifetimeDays.free);
  const [row] = await queryRows<{
    r: { grantId: number | string; replay: boolean; paid: number; free: number; conflict?: boolean };
  }>(
    db,
    sql`select wallet_grant(${input.memberId}::text, ${input.kind}::text, ${input.amount}::int,
    ${expiresAt.toISOString()}::timestamptz, ${input.reason}::text, ${input.counterAccount}::text, ${input.idempotencyKey}::text,
    ${input.ref ?? null}::text, ${input.memo ?? null}::text, ${now.toISOString()}::timestamptz) as r`,
  );
  const answer = row!.r;
  if (answer.conflict) throw new IdempotencyKeyConflict(input.idempotencyKey);
  return { grantId: Number(answer.grantId), replay: answer.replay, paid: answer.paid ?? 0, free: answer.free ?? 0 };
}
