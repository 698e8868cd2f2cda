// The wallet's public API: balances, grants, the coin history and the expiry job. The rules that
// must hold under concurrency (spending order, expiry, idempotency) are SQL functions in
// modules/wallet/sql/ (applied after the migrations); this file calls them and shapes their answers.
import { and, desc, eq, gt, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import { addDays } from 'date-fns';
import { queryRows, type Database } from '#db/client';
import { coinGrants, coinLedger, wallets, type CoinKind } from './schema';
import { refuse, RefusalError, type Refusal } from '#modules/kernel';

export { coinKinds, type CoinKind } from './schema';

/** Default lifetimes (docs/product.md): paid coins 180 days after purchase, free coins 90 days. */
export const PAID_COIN_DAYS = 180;
export const FREE_COIN_DAYS = 90;
/** "Expires soon" on the balance card: within this many days. */
export const EXPIRING_SOON_DAYS = 30;

/** Why coins moved; each is shown to the member in Japanese. */
export const LEDGER_REASON_LABELS: Record<string, string> = {
  purchase: 'コイン購入',
  purchase_bonus: 'コイン購入ボーナス',
  purchase_reversal: '返金・チャージバックによる取消',
  draw: 'ガチャ',
  prize_conversion: 'カードをコインに交換',
  prize_auto_conversion: '期限切れのカードを自動交換',
  prize_conversion_undo: 'カード交換の取り消し',
  expiry: '有効期限切れ',
  operator_grant: '運営からの付与',
  promo_code: '特典コード',
  invitation: '友達招待',
  line_campaign: 'LINE連携キャンペーン',
  mail_attachment: 'メールの受け取り',
  signup_gift: '新規登録プレゼント',
  level_up: 'レベルアップ報酬',
  rank_reward: 'ランク報酬',
  farm: 'ファーム報酬',
  login_bonus: 'ログインボーナス',
  refund: '返金',
  adjustment: '調整',
  shipping_fee: '発送手数料',
  shipping_fee_refund: '発送手数料の返却',
  shipping_compensation: '発送遅延のお詫び',
  prize_compensation: 'ご用意できなかったカードの補償',
};

export interface WalletBalance {
  paid: number;
  free: number;
  total: number;
  /** Coins that expire within EXPIRING_SOON_DAYS, with the soonest date. */
  expiringSoon: { amount: number; firstExpiresAt: string | null };
}

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

/** One grant with coins left: what a member holds, lot by lot, and when each lot expires. */
export interface CoinLot {
  id: number;
  kind: CoinKind;
  amount: number;
  remaining: number;
  reason: string;
  reasonLabel: string;
  grantedAt: string;
  expiresAt: string;
  expired: boolean;
}

/**
 * The member's coins lot by lot (grants with coins left), soonest expiry first, at most `limit`
 * (the partial index coin_grants_spendable_idx serves it), and how many lots there are in all.
 * @example const { lots, total } = await listCoinLots(db, member.id, 50)
 */
export async function listCoinLots(
  db: Database,
  memberId: string,
  limit: number,
  now = new Date(),
): Promise<{ lots: CoinLot[]; total: number }> {
  const rows = await db
    .select()
    .from(coinGrants)
    .where(and(eq(coinGrants.memberId, memberId), sql`${coinGrants.spendable}`, gt(coinGrants.remaining, 0)))
    .orderBy(coinGrants.expiresAt, coinGrants.id)
    .limit(limit);
  const [count] = await db
    .select({ n: sql<string>`count(*)` })
    .from(coinGrants)
    .where(and(eq(coinGrants.memberId, memberId), sql`${coinGrants.spendable}`, gt(coinGrants.remaining, 0)));
  return {
    lots: rows.map((g) => ({
      id: Number(g.id),
      kind: g.kind,
      amount: g.amount,
      remaining: g.remaining,
      reason: g.reason,
      reasonLabel: LEDGER_REASON_LABELS[g.reason] ?? g.reason,
      grantedAt: new Date(g.grantedAt).toISOString(),
      expiresAt: new Date(g.expiresAt).toISOString(),
      expired: new Date(g.expiresAt).getTime() <= now.getTime(),
    })),
    total: Number(count?.n ?? 0),
  };
}

/** @example const { paid, free } = await getBalance(db, member.id) */
export async function getBalance(db: Database, memberId: string, now = new Date()): Promise<WalletBalance> {
  const [wallet] = await db
    .select({ paid: wallets.paid, free: wallets.free })
    .from(wallets)
    .where(eq(wallets.memberId, memberId));
  // Grants past their date count for nothing even before the expiry job has written them off.
  const due = await db
    .select({ kind: coinGrants.kind, amount: sql<string>`sum(${coinGrants.remaining})` })
    .from(coinGrants)
    .where(
      and(
        eq(coinGrants.memberId, memberId),
        sql`${coinGrants.spendable}`,
        gt(coinGrants.remaining, 0),
        lte(coinGrants.expiresAt, now),
      ),
    )
    .groupBy(coinGrants.kind);
  const dueOf = (kind: CoinKind) => Number(due.find((d) => d.kind === kind)?.amount ?? 0);
  const soon = addDays(now, EXPIRING_SOON_DAYS);
  const [expiring] = await db
    .select({
      amount: sql<string>`coalesce(sum(${coinGrants.remaining}), 0)`,
      first: sql<Date | string | null>`min(${coinGrants.expiresAt})`,
    })
    .from(coinGrants)
    .where(
      and(
        eq(coinGrants.memberId, memberId),
        sql`${coinGrants.spendable}`,
        gt(coinGrants.remaining, 0),
        gt(coinGrants.expiresAt, now),
        lt(coinGrants.expiresAt, soon),
      ),
    );
  const paid = (wallet?.paid ?? 0) - dueOf('paid');
  const free = (wallet?.free ?? 0) - dueOf('free');
  const first = expiring?.first ? new Date(expiring.first).toISOString() : null;
  return {
    paid,
    free,
    total: paid + free,
    expiringSoon: { amount: Number(expiring?.amount ?? 0), firstExpiresAt: first },
  };
}

export interface LedgerEntryView {
  id: number;
  kind: CoinKind;
  amount: number;
  reason: string;
  reasonLabel: string;
  ref: string | null;
  memo: string | null;
  paidAfter: number;
  freeAfter: number;
  createdAt: string;
}

/**
 * The member's coin history, newest first, paged by entry id (keyset).
 * @example const { items, nextBefore } = await listLedgerEntries(db, member.id, { limit: 20 })
 */
export async function listLedgerEntries(
  db: Database,
  memberId: string,
  options: { limit?: number; before?: number } = {},
): Promise<{ items: LedgerEntryView[]; nextBefore: number | null }> {
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 100);
  const rows = await db
    .select()
    .from(coinLedger)
    .where(and(eq(coinLedger.memberId, memberId), options.before ? lt(coinLedger.id, options.before) : undefined))
    .orderBy(desc(coinLedger.id))
    .limit(limit + 1);
  const items = rows.slice(0, limit).map((row) => ({
    id: Number(row.id),
    kind: row.kind,
    amount: row.amount,
    reason: row.reason,
    reasonLabel: LEDGER_REASON_LABELS[row.reason] ?? row.reason,
    ref: row.ref,
    memo: row.memo,
    paidAfter: row.paidAfter,
    freeAfter: row.freeAfter,
    createdAt: new Date(row.createdAt).toISOString(),
  }));
  return { items, nextBefore: rows.length > limit ? items[items.length - 1]!.id : null };
}

/** One row of the coin history as a member reads it: one action (a draw, a bulk conversion, a purchase with its bonus). */
export interface CoinHistoryRow {
  /** The newest entry's id (a stable React key). */
  id: number;
  /** The action's reason (the first entry's); a purchase row also holds its bonus. */
  reason: string;
  reasonLabel: string;
  /** Signed total from the member's side, and its paid and free parts. */
  amount: number;
  paid: number;
  free: number;
  /** The entries' refs in ledger order (draw ids, prize ids, order ids…), without repeats. */
  refs: string[];
  memo: string | null;
  /** Balance after the action. */
  balanceAfter: number;
  createdAt: string;
  entries: LedgerEntryView[];
}

/**
 * Which entries form one action. A draw's entries share its key (one per grant spent); a bulk
 * conversion writes one entry per card in one transaction, so they share reason and time; a
 * purchase's paid coins and bonus share the order. The wallet lock serialises a member's writes,
 * so one action's entries are consecutive in the member's ledger.
 */
function actionKeyOf(entry: { reason: string; idemKey: string; ref: string | null; createdAt: Date | string }): string {
  const at = new Date(entry.createdAt).toISOString();
  if (
    entry.reason === 'prize_conversion' ||
    entry.reason === 'prize_auto_conversion' ||
    entry.reason === 'prize_conversion_undo' ||
    entry.reason === 'expiry'
  )
    return `${entry.reason}@${at}`;
  if ((entry.reason === 'purchase' || entry.reason === 'purchase_bonus') && entry.ref) return `purchase:${entry.ref}`;
  // A refund of a spend credits one grant per kind it took: one action.
  if (entry.reason === 'shipping_fee_refund' && entry.ref) return `shipping_fee_refund:${entry.ref}`;
  return entry.idemKey;
}

const HISTORY_CHUNK = 200;

/**
 * The member's coin history by action, newest first: the conversions of one tap are one row, a
 * draw that spent from several grants is one row, a purchase and its bonus are one row. Paged by
 * entry id (keyset); a page never splits an action.
 * @example const { items, nextBefore } = await listCoinHistory(db, member.id, { limit: 20 })
 */
export async function listCoinHistory(
  db: Database,
  memberId: string,
  options: { limit?: number; before?: number } = {},
): Promise<{ items: CoinHistoryRow[]; nextBefore: number | null }> {
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 100);
  const groups: { key: string; entries: (typeof coinLedger.$inferSelect)[] }[] = [];
  let cursor = options.before;
  // Read until the action after the last one shown has started (so the last one is whole) or the ledger ends.
  for (;;) {
    const rows = await db
      .select()
      .from(coinLedger)
      .where(and(eq(coinLedger.memberId, memberId), cursor ? lt(coinLedger.id, cursor) : undefined))
      .orderBy(desc(coinLedger.id))
      .limit(HISTORY_CHUNK);
    for (const row of rows) {
      const key = actionKeyOf(row);
      const last = groups[groups.length - 1];
      if (last && last.key === key) last.entries.push(row);
      else groups.push({ key, entries: [row] });
    }
    if (rows.length < HISTORY_CHUNK || groups.length > limit) break;
    cursor = Number(rows[rows.length - 1]!.id);
  }
  const shown = groups.slice(0, limit);
  const items = shown.map(({ entries }): CoinHistoryRow => {
    const newest = entries[0]!;
    const views = entries.map((row) => ({
      id: Number(row.id),
      kind: row.kind,
      amount: row.amount,
      reason: row.reason,
      reasonLabel: LEDGER_REASON_LABELS[row.reason] ?? row.reason,
      ref: row.ref,
      memo: row.memo,
      paidAfter: row.paidAfter,
      freeAfter: row.freeAfter,
      createdAt: new Date(row.createdAt).toISOString(),
    }));
    // A purchase row is named after the purchase, whichever of its entries came last.
    const lead = views.find((v) => v.reason === 'purchase') ?? views[views.length - 1]!;
    return {
      id: Number(newest.id),
      reason: lead.reason,
      reasonLabel: lead.reasonLabel,
      amount: views.reduce((sum, v) => sum + v.amount, 0),
      paid: views.filter((v) => v.kind === 'paid').reduce((sum, v) => sum + v.amount, 0),
      free: views.filter((v) => v.kind === 'free').reduce((sum, v) => sum + v.amount, 0),
      refs: [...new Set(views.map((v) => v.ref).filter((r): r is string => Boolean(r)))].reverse(),
      memo: lead.memo,
      balanceAfter: newest.paidAfter + newest.freeAfter,
      createdAt: new Date(newest.createdAt).toISOString(),
      entries: views,
    };
  });
  const oldestShown = shown[shown.length - 1]?.entries.at(-1);
  return { items, nextBefore: groups.length > limit && oldestShown ? Number(oldestShown.id) : null };
}

/**
 * The expiry job: writes an expiry entry for every grant past its date (in batches of members).
 * @example await expireDueCoins(db) // → number of grants expired
 */
export async function expireDueCoins(db: Database, now = new Date(), batch = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`select wallet_expire_due(${now.toISOString()}::timestamptz, ${batch}::int) as n`,
    );
    const n = Number(row!.n);
    total += n;
    if (n === 0) return total;
  }
}

/** Every invariant of docs/architecture.md the data can show; an empty list means all hold. */
export async function checkInvariants(db: Database): Promise<Record<string, unknown>[]> {
  const [row] = await queryRows<{ v: Record<string, unknown>[] }>(db, sql`select shop_check_invariants() as v`);
  return row!.v;
}

/**
 * Paid coins the member bought in [from, to) (purchases only, not bonuses): what a rank is made of.
 * @example await paidCoinsBought(db, member.id, lastMonth, thisMonth) // → 45_000
 */
export async function paidCoinsBought(db: Database, memberId: string, from: Date, to: Date): Promise<number> {
  const [row] = await db
    .select({ bought: sql<string>`coalesce(sum(${coinLedger.amount}), 0)` })
    .from(coinLedger)
    .where(
      and(
        eq(coinLedger.memberId, memberId),
        eq(coinLedger.reason, 'purchase'),
        eq(coinLedger.kind, 'paid'),
        gte(coinLedger.createdAt, from),
        lt(coinLedger.createdAt, to),
      ),
    );
  return Number(row?.bought ?? 0);
}
/**
 * Paid coins bought in [from, to) per member, for members after `after` in id order (a keyset page of
 * `limit`), or for the listed members only: what the monthly rank job records, a batch at a time.
 * Members without purchases in the range are absent.
 * @example await paidPurchaseTotals(db, { from, to, after: '', limit: 1000 }) // [{ memberId, paidCoins }, …]
 */
export async function paidPurchaseTotals(
  db: Database,
  query: { from: Date; to: Date } & ({ after: string; limit: number } | { memberIds: string[] }),
): Promise<{ memberId: string; paidCoins: number }[]> {
  if ('memberIds' in query && query.memberIds.length === 0) return [];
  const rows = await db
    .select({ memberId: coinLedger.memberId, bought: sql<string>`sum(${coinLedger.amount})` })
    .from(coinLedger)
    .where(
      and(
        eq(coinLedger.reason, 'purchase'),
        eq(coinLedger.kind, 'paid'),
        gte(coinLedger.createdAt, query.from),
        lt(coinLedger.createdAt, query.to),
        'memberIds' in query ? inArray(coinLedger.memberId, query.memberIds) : gt(coinLedger.memberId, query.after),
      ),
    )
    .groupBy(coinLedger.memberId)
    .orderBy(coinLedger.memberId)
    .limit('memberIds' in query ? query.memberIds.length : query.limit);
  return rows.map((r) => ({ memberId: r.memberId, paidCoins: Number(r.bought) }));
}

/**
 * The members who bought at least `paidCoins` paid coins in [from, to): a rank's members over the whole
 * shop (paidCoinsBought is the same sum per member), for the count an operator confirms (decision 052).
 * @example await membersWhoBoughtAtLeast(db, 10_000, lastMonth, thisMonth) // ['u1', …]
 */
export async function membersWhoBoughtAtLeast(
  db: Database,
  paidCoins: number,
  from: Date,
  to: Date,
): Promise<string[]> {
  const rows = await db
    .select({ memberId: coinLedger.memberId })
    .from(coinLedger)
    .where(
      and(
        eq(coinLedger.reason, 'purchase'),
        eq(coinLedger.kind, 'paid'),
        gte(coinLedger.createdAt, from),
        lt(coinLedger.createdAt, to),
      ),
    )
    .groupBy(coinLedger.memberId)
    .having(sql`sum(${coinLedger.amount}) >= ${paidCoins}`);
  return rows.map((r) => r.memberId);
}
export { ledgerExportBatch } from './export';
export { walletSettings } from './settings';
export { WALLET_REFUSAL_WORDS } from './refusal-words';
