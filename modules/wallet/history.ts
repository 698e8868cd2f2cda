// The coin history: ledger entries, and rows as a member reads them (one row per action).
import { and, desc, eq, lt } from 'drizzle-orm';
import type { Database } from '#db/client';
import { coinLedger, type CoinKind } from './schema';
import { LEDGER_REASON_LABELS } from './rules';

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
