// Physical stock of prize cards (docs/decisions/023): receiving and stocktakes, the reservation a
// published pack makes and its release when the pack ends (pack-stock.ts), and the card of each prize as
// it is shipped, comes back, is converted or goes missing (prize-stock.ts). Functions take the caller's
// transaction and do not audit: the admin operations and the shipping desk wrap them in runAdminAction.
// This file: the stock room's cards (identity, receiving, stocktakes, lists, locks).
import { and, asc, eq, gte, ilike, inArray, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { refuse, RefusalError } from '#modules/kernel';
import { stockCards, stockMovements } from './schema';

/** Stock's own refusals (receiving, stocktakes, substitutes); worded in refusal-words.ts. */
export const STOCK_REFUSAL_CODES = [
  'STOCK_CARD_NOT_FOUND',
  'STOCK_BELOW_RESERVED',
  'STOCK_SUBSTITUTE_UNAVAILABLE',
  'STOCK_SUBSTITUTE_TOO_LOW',
] as const;
export type StockRefusalCode = (typeof STOCK_REFUSAL_CODES)[number];

/** Thrown by a stock step inside the caller's transaction, so that it rolls back. */
export class StockError extends RefusalError<StockRefusalCode> {
  constructor(code: StockRefusalCode, details: Record<string, unknown> = {}) {
    super(refuse(code, details));
    this.name = 'StockError';
  }
}

/** A card's identity: what makes two cards the same card in the stock room. */
export interface StockIdentity {
  cardName: string;
  cardSet?: string | null;
  cardNumber?: string | null;
  cardGrade?: string | null;
}

const normalise = (value: string | null | undefined) =>
  (value ?? '').normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The one key of a card's identity: NFKC, trimmed, spaces collapsed, lower-case, joined (a JSON
 * array, so a `|` inside a name cannot make two identities meet). A tier's card and a received card
 * with this key are the same stock card.
 * @example stockIdentityKey({ cardName: 'ピカチュウ ＳＡＲ', cardSet: 'SV4a' }) === stockIdentityKey({ cardName: ' ピカチュウ  SAR', cardSet: 'sv4a' })
 */
export function stockIdentityKey(card: StockIdentity): string {
  return JSON.stringify([card.cardName, card.cardSet, card.cardNumber, card.cardGrade].map(normalise));
}

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, { error: `${label}は${max}文字以内で入力してください。` })
    .nullish()
    .transform((v) => v || null);

/** Cards received into stock (the admin form and the command line): the card, how many, its value. */
export const stockReceiptSchema = z.object({
  cardName: z
    .string({ error: 'カード名を入力してください。' })
    .trim()
    .min(1, { error: 'カード名を入力してください。' })
    .max(120, { error: 'カード名は120文字以内で入力してください。' }),
  cardSet: optionalText(60, 'セット（弾）'),
  cardNumber: optionalText(30, 'カード番号'),
  cardGrade: optionalText(20, 'グレード'),
  count: z.coerce
    .number({ error: '枚数を入力してください。' })
    .int({ error: '枚数は整数で入力してください。' })
    .min(1, { error: '枚数は1枚以上です。' })
    .max(100_000, { error: '一度に入庫できるのは100,000枚までです。' }),
  valueCoins: z.coerce
    .number({ error: '参考価値（コイン）を入力してください。' })
    .int({ error: '参考価値は整数で入力してください。' })
    .min(0, { error: '参考価値は0以上です。' })
    .max(10_000_000, { error: '参考価値は10,000,000コインまでです。' }),
  note: optionalText(500, 'メモ'),
});
export type StockReceipt = z.input<typeof stockReceiptSchema>;

/** A stocktake of one card: the count found on the shelf. */
export const stockAdjustmentSchema = z.object({
  stockCardId: z.uuid({ error: '在庫カードを選び直してください。' }),
  onHand: z.coerce
    .number({ error: '実在庫の枚数を入力してください。' })
    .int({ error: '枚数は整数で入力してください。' })
    .min(0, { error: '枚数は0以上です。' })
    .max(10_000_000, { error: '枚数が大きすぎます。' }),
  note: z
    .string({ error: '棚卸しの理由を入力してください。' })
    .trim()
    .min(1, { error: '棚卸しの理由を入力してください。' })
    .max(500, { error: '理由は500文字以内で入力してください。' }),
});
export type StockAdjustment = z.input<typeof stockAdjustmentSchema>;

/** A stock card as lists and the audit log show it. */
export interface StockCardView {
  id: string;
  cardName: string;
  cardSet: string | null;
  cardNumber: string | null;
  cardGrade: string | null;
  valueCoins: number;
  onHand: number;
  reserved: number;
  /** on_hand − reserved: what a new pack or a substitute may take. */
  available: number;
}

export type StockCardRow = typeof stockCards.$inferSelect;

export const viewOf = (row: StockCardRow): StockCardView => ({
  id: row.id,
  cardName: row.cardName,
  cardSet: row.cardSet,
  cardNumber: row.cardNumber,
  cardGrade: row.cardGrade,
  valueCoins: row.valueCoins,
  onHand: row.onHand,
  reserved: row.reserved,
  available: row.onHand - row.reserved,
});

/**
 * Receives cards: the stock card with this identity (created on first receipt) gains `count` on hand,
 * and its reference value becomes the one given. Concurrent receipts of one card both count.
 * @example await receiveStock(tx, { cardName: 'ピカチュウ', cardSet: 'SV4a', cardNumber: '205/190', count: 3, valueCoins: 12000 })
 */
export async function receiveStock(
  tx: Database,
  receipt: StockReceipt,
  now = new Date(),
): Promise<{ before: StockCardView | null; after: StockCardView }> {
  const input = stockReceiptSchema.parse(receipt);
  const identityKey = stockIdentityKey(input);
  const [existing] = await tx.select().from(stockCards).where(eq(stockCards.identityKey, identityKey)).for('update');
  const [row] = await tx
    .insert(stockCards)
    .values({
      cardName: input.cardName,
      cardSet: input.cardSet,
      cardNumber: input.cardNumber,
      cardGrade: input.cardGrade,
      identityKey,
      valueCoins: input.valueCoins,
      onHand: input.count,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: stockCards.identityKey,
      set: {
        onHand: sql`${stockCards.onHand} + ${input.count}`,
        valueCoins: input.valueCoins,
        updatedAt: now,
      },
    })
    .returning();
  await tx.insert(stockMovements).values({
    stockCardId: row!.id,
    kind: 'received',
    onHandDelta: input.count,
    reservedDelta: 0,
    note: input.note,
    at: now,
  });
  return { before: existing ? viewOf(existing) : null, after: viewOf(row!) };
}

/**
 * A stocktake: sets a card's count on hand to what was found. Refused below what is reserved
 * (STOCK_BELOW_RESERVED): a missing card that is promised is reported from the shipping desk instead.
 * @example await adjustStock(tx, { stockCardId, onHand: 4, note: '12月の棚卸し' })
 */
export async function adjustStock(
  tx: Database,
  adjustment: StockAdjustment,
  now = new Date(),
): Promise<{ before: StockCardView; after: StockCardView }> {
  const input = stockAdjustmentSchema.parse(adjustment);
  const [row] = await tx.select().from(stockCards).where(eq(stockCards.id, input.stockCardId)).for('update');
  if (!row) throw new StockError('STOCK_CARD_NOT_FOUND', { stockCardId: input.stockCardId });
  if (input.onHand < row.reserved)
    throw new StockError('STOCK_BELOW_RESERVED', {
      stockCardId: row.id,
      cardName: row.cardName,
      reserved: row.reserved,
      onHand: input.onHand,
    });
  const [after] = await tx
    .update(stockCards)
    .set({ onHand: input.onHand, updatedAt: now })
    .where(eq(stockCards.id, row.id))
    .returning();
  if (input.onHand !== row.onHand)
    await tx.insert(stockMovements).values({
      stockCardId: row.id,
      kind: 'adjusted',
      onHandDelta: input.onHand - row.onHand,
      reservedDelta: 0,
      note: input.note,
      at: now,
    });
  return { before: viewOf(row), after: viewOf(after!) };
}

/** The admin list's filters. */
export const stockListFilterSchema = z.object({
  query: z
    .string()
    .trim()
    .max(120)
    .optional()
    .transform((v) => v || undefined),
  shortOnly: z.coerce.boolean().default(false),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type StockListFilter = z.input<typeof stockListFilterSchema>;

export const STOCK_PAGE_SIZE = 50;

/**
 * The stock list for the admin pages: by name, optionally only the cards with nothing available.
 * @example const { items, hasNext } = await listStock(db, { query: 'ピカチュウ', page: 1 })
 */
export async function listStock(
  db: Database,
  filter: StockListFilter,
): Promise<{ items: StockCardView[]; page: number; hasNext: boolean }> {
  const f = stockListFilterSchema.parse(filter);
  const like = f.query ? `%${f.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const rows = await db
    .select()
    .from(stockCards)
    .where(
      and(
        like
          ? or(ilike(stockCards.cardName, like), ilike(stockCards.cardSet, like), ilike(stockCards.cardNumber, like))
          : undefined,
        f.shortOnly ? sql`${stockCards.onHand} - ${stockCards.reserved} <= 0` : undefined,
      ),
    )
    .orderBy(asc(stockCards.cardName), asc(stockCards.id))
    .limit(STOCK_PAGE_SIZE + 1)
    .offset((f.page - 1) * STOCK_PAGE_SIZE);
  return { items: rows.slice(0, STOCK_PAGE_SIZE).map(viewOf), page: f.page, hasNext: rows.length > STOCK_PAGE_SIZE };
}

/**
 * Cards that may replace a missing one: at least one available and worth at least `minValue`, the
 * cheapest first (the desk offers the closest value).
 * @example const options = await substituteCandidates(db, { minValue: prize.conversionValue })
 */
export async function substituteCandidates(
  db: Database,
  options: { minValue: number; limit?: number },
): Promise<StockCardView[]> {
  const rows = await db
    .select()
    .from(stockCards)
    .where(and(gte(stockCards.valueCoins, options.minValue), sql`${stockCards.onHand} - ${stockCards.reserved} >= 1`))
    .orderBy(asc(stockCards.valueCoins), asc(stockCards.cardName), asc(stockCards.id))
    .limit(Math.min(options.limit ?? 50, 200));
  return rows.map(viewOf);
}

/** The stock cards with these ids. */
export async function stockCardsById(db: Database, ids: string[]): Promise<Map<string, StockCardView>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.select().from(stockCards).where(inArray(stockCards.id, unique));
  return new Map(rows.map((row) => [row.id, viewOf(row)]));
}

/** Locks stock cards in id order (every path does, so two of them never wait on each other in a circle). */
export async function lockCards(tx: Database, ids: string[]): Promise<Map<string, StockCardRow>> {
  const unique = [...new Set(ids)].sort();
  if (unique.length === 0) return new Map();
  const rows = await tx
    .select()
    .from(stockCards)
    .where(inArray(stockCards.id, unique))
    .orderBy(asc(stockCards.id))
    .for('update');
  return new Map(rows.map((row) => [row.id, row]));
}
