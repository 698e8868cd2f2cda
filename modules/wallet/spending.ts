// Spending coins (the SQL function keeps the spending order), refunding a spend, and debits.
import { and, eq, lt, sql } from 'drizzle-orm';
import { addDays } from 'date-fns';
import { queryRows, type Database } from '#db/client';
import { coinGrants, coinLedger, type CoinKind } from './schema';
import { refuse, type Refusal } from '#modules/kernel';
import { grantCoins, IdempotencyKeyConflict } from './grants';

export interface SpendInput {
  memberId: string;
  amount: number;
  reason: string;
  /** The shop account on the other side: sales, shipping… */
  counterAccount: string;
  /** One spend, one key: the ledger refuses a second spend under it (the caller's operation is keyed first). */
  idempotencyKey: string;
  ref?: string | null;
  now?: Date;
}

/**
 * Spends coins in the caller's transaction: locks the wallet, writes off what has expired, then spends
 * free coins first (soonest expiry first), then paid coins (oldest first), one ledger entry per grant
 * touched (decision 007). Short of coins, nothing is spent. Call it inside the transaction of the
 * thing bought, after that thing's own row locks (the lock order is the caller's, then the wallet).
 * @example const spent = await spendCoins(tx, { memberId, amount: 500, reason: 'shipping_fee', counterAccount: 'shipping', idempotencyKey: `shipping-fee:${requestId}`, ref: requestId })
 */
export async function spendCoins(
  tx: Database,
  input: SpendInput,
): Promise<
  | { ok: true; paidSpent: number; freeSpent: number; balance: { paid: number; free: number } }
  | Refusal<'INSUFFICIENT_COINS'>
> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0)
    throw new RangeError('amount must be a positive integer');
  const at = (input.now ?? new Date()).toISOString();
  const [available] = await queryRows<{ n: number }>(
    tx,
    sql`select wallet_lock_available(${input.memberId}::text, ${at}::timestamptz) as n`,
  );
  const balance = Number(available!.n);
  if (balance < input.amount) return refuse('INSUFFICIENT_COINS', { required: input.amount, balance });
  const [row] = await queryRows<{ r: { paidSpent: number; freeSpent: number; paid: number; free: number } }>(
    tx,
    sql`select wallet_spend(${input.memberId}::text, ${input.amount}::int, ${input.reason}::text,
      ${input.counterAccount}::text, ${input.idempotencyKey}::text, ${input.ref ?? null}::text, ${at}::timestamptz) as r`,
  );
  const spent = row!.r;
  return {
    ok: true,
    paidSpent: spent.paidSpent,
    freeSpent: spent.freeSpent,
    balance: { paid: spent.paid, free: spent.free },
  };
}

/**
 * Gives back what a spend took (a canceled purchase of the shop's own, such as a shipping fee), as new
 * grants of the same kinds: each expires when the latest of the coins it replaces would have, but not
 * within `minDays` of now, so a refund is never worth nothing. Idempotent on `idempotencyKey` (one
 * grant per kind under `<key>:paid` / `<key>:free`). A key that spent nothing refunds nothing.
 * @example await refundSpend(tx, { memberId, spendKey: `shipping-fee:${id}`, reason: 'shipping_fee_refund', counterAccount: 'shipping', idempotencyKey: `shipping-fee-refund:${id}`, ref: id, minDays: 7 })
 */
export async function refundSpend(
  tx: Database,
  input: {
    memberId: string;
    spendKey: string;
    reason: string;
    counterAccount: string;
    idempotencyKey: string;
    ref?: string | null;
    minDays: number;
    now?: Date;
  },
): Promise<{ paid: number; free: number }> {
  if (!Number.isSafeInteger(input.minDays) || input.minDays < 1)
    throw new RangeError('minDays must be a positive integer');
  const now = input.now ?? new Date();
  const spent = await tx
    .select({
      kind: coinLedger.kind,
      amount: sql<string>`-sum(${coinLedger.amount})`,
      latest: sql<Date | string>`max(${coinGrants.expiresAt})`,
    })
    .from(coinLedger)
    .innerJoin(coinGrants, eq(coinGrants.id, coinLedger.grantId))
    .where(
      and(eq(coinLedger.memberId, input.memberId), eq(coinLedger.idemKey, input.spendKey), lt(coinLedger.amount, 0)),
    )
    .groupBy(coinLedger.kind);
  const refunded = { paid: 0, free: 0 };
  const floor = addDays(now, input.minDays);
  for (const { kind, amount, latest } of spent) {
    const coins = Number(amount);
    if (coins <= 0) continue;
    const expiresAt = new Date(Math.max(new Date(latest).getTime(), floor.getTime()));
    await grantCoins(tx, {
      memberId: input.memberId,
      kind,
      amount: coins,
      reason: input.reason,
      counterAccount: input.counterAccount,
      idempotencyKey: `${input.idempotencyKey}:${kind}`,
      expiresAt,
      ref: input.ref ?? null,
      now,
      lifetimeDays: { paid: input.minDays, free: input.minDays },
    });
    refunded[kind] = coins;
  }
  return refunded;
}

/**
 * Takes coins of one kind from a member (an operator's negative adjustment, decision 026), in the
 * caller's transaction: locks the wallet, writes off what has expired, then debits free coins soonest
 * expiry first or paid coins oldest first, one ledger entry per grant touched, each with the memo.
 * Never makes a balance negative: short of coins of that kind, nothing is taken (INSUFFICIENT_COINS with
 * the balance of that kind). Idempotent on `idempotencyKey`: a repeat takes nothing and answers
 * `replay`; the key used for another debit (member, kind or amount) throws IdempotencyKeyConflict.
 * @example await debitCoins(tx, { memberId, kind: 'free', amount: 300, reason: 'adjustment', counterAccount: 'adjustment', idempotencyKey: 'adjust:…', memo: '誤付与の取消' })
 */
export async function debitCoins(
  tx: Database,
  input: {
    memberId: string;
    kind: CoinKind;
    amount: number;
    reason: string;
    counterAccount: string;
    idempotencyKey: string;
    ref?: string | null;
    memo?: string | null;
    now?: Date;
  },
): Promise<{ ok: true; replay: boolean; paid: number; free: number } | Refusal<'INSUFFICIENT_COINS'>> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0)
    throw new RangeError('amount must be a positive integer');
  const at = (input.now ?? new Date()).toISOString();
  const [row] = await queryRows<{
    r: { replay?: boolean; paid?: number; free?: number; short?: boolean; balance?: number; conflict?: boolean };
  }>(
    tx,
    sql`select wallet_debit_kind(${input.memberId}::text, ${input.kind}::text, ${input.amount}::int, ${input.reason}::text,
      ${input.counterAccount}::text, ${input.idempotencyKey}::text, ${input.ref ?? null}::text, ${input.memo ?? null}::text,
      ${at}::timestamptz) as r`,
  );
  const answer = row!.r;
  if (answer.conflict) throw new IdempotencyKeyConflict(input.idempotencyKey);
  if (answer.short)
    return refuse('INSUFFICIENT_COINS', { required: input.amount, balance: answer.balance ?? 0, kind: input.kind });
  return { ok: true, replay: Boolean(answer.replay), paid: answer.paid ?? 0, free: answer.free ?? 0 };
}
