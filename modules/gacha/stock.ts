// Physical stock of prize cards (docs/decisions/023): receiving and stocktakes, the reservation a
// published pack makes and its release when the pack ends, and the card of each prize as it is
// shipped, comes back, is converted or goes missing. Functions take the caller's transaction and do
// not audit: the admin operations and the shipping desk wrap them in runAdminAction.
import { and, asc, eq, gte, ilike, inArray, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { pgTextArray, queryRows, type Database } from '#db/client';
import { refuse, RefusalError } from '#modules/kernel';
import { gachaLots, gachaTiers, stockCards, stockMovements, stockPrizeCards } from './schema';

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

type StockCardRow = typeof stockCards.$inferSelect;

const viewOf = (row: StockCardRow): StockCardView => ({
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
async function lockCards(tx: Database, ids: string[]): Promise<Map<string, StockCardRow>> {
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

/** A card a pack needs more of than is available (STOCK_SHORT's details). */
export interface StockShortfall {
  cardName: string;
  cardSet: string | null;
  cardNumber: string | null;
  cardGrade: string | null;
  needed: number;
  available: number;
  short: number;
}

/**
 * What a pack's tiers need of each stock card (summed per card identity) and which cards fall short.
 * With `lock` the cards are locked (publishing); without, it is a read (the editor's pre-publish check).
 */
async function stockNeedsOfPack(tx: Database, gachaId: string, options: { lock: boolean }) {
  const tiers = await tx.select().from(gachaTiers).where(eq(gachaTiers.gachaId, gachaId)).orderBy(asc(gachaTiers.id));
  const needs = new Map<string, { identity: StockIdentity; needed: number; tiers: typeof tiers }>();
  for (const tier of tiers) {
    const key = stockIdentityKey(tier);
    const need = needs.get(key) ?? { identity: tier, needed: 0, tiers: [] };
    need.needed += tier.quantity;
    need.tiers.push(tier);
    needs.set(key, need);
  }
  const keys = [...needs.keys()];
  const found = keys.length
    ? await tx
        .select({ id: stockCards.id, identityKey: stockCards.identityKey })
        .from(stockCards)
        .where(inArray(stockCards.identityKey, keys))
    : [];
  const idByKey = new Map(found.map((r) => [r.identityKey, r.id]));
  const locked = await (options.lock ? lockCards : readCards)(
    tx,
    found.map((r) => r.id),
  );
  const shortfalls: StockShortfall[] = [];
  for (const [key, need] of needs) {
    const card = locked.get(idByKey.get(key) ?? '');
    const available = card ? card.onHand - card.reserved : 0;
    if (available < need.needed)
      shortfalls.push({
        cardName: need.identity.cardName,
        cardSet: need.identity.cardSet ?? null,
        cardNumber: need.identity.cardNumber ?? null,
        cardGrade: need.identity.cardGrade ?? null,
        needed: need.needed,
        available: Math.max(available, 0),
        short: need.needed - Math.max(available, 0),
      });
  }
  return { needs, idByKey, shortfalls };
}

/**
 * The cards a draft pack would be short of if it were published now (empty: the stock covers it).
 * A read without locks: publishing checks again under its locks.
 * @example const short = await stockShortfallsOfPack(db, 'draft-pack')
 */
export async function stockShortfallsOfPack(db: Database, gachaId: string): Promise<StockShortfall[]> {
  return (await stockNeedsOfPack(db, gachaId, { lock: false })).shortfalls;
}

async function readCards(db: Database, ids: string[]): Promise<Map<string, StockCardRow>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.select().from(stockCards).where(inArray(stockCards.id, unique));
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Publishing's step: every tier (the ラストワン賞 too) is matched to the stock card of its card's
 * identity, the quantities summed per card (tiers may share one), and reserved — or, when any card is
 * missing or short, nothing is written and the shortfalls are answered. Inside the publish transaction.
 */
export async function reserveStockForPack(
  tx: Database,
  gachaId: string,
  now: Date,
): Promise<{ ok: true } | { ok: false; shortfalls: StockShortfall[] }> {
  const { needs, idByKey, shortfalls } = await stockNeedsOfPack(tx, gachaId, { lock: true });
  if (shortfalls.length > 0) return { ok: false, shortfalls };
  for (const [key, need] of [...needs].sort(([a], [b]) => (idByKey.get(a)! < idByKey.get(b)! ? -1 : 1))) {
    const stockCardId = idByKey.get(key)!;
    await tx
      .update(stockCards)
      .set({ reserved: sql`${stockCards.reserved} + ${need.needed}`, updatedAt: now })
      .where(eq(stockCards.id, stockCardId));
    for (const tier of need.tiers) {
      await tx.update(gachaTiers).set({ stockCardId }).where(eq(gachaTiers.id, tier.id));
      await tx.insert(stockMovements).values({
        stockCardId,
        kind: 'reserved',
        onHandDelta: 0,
        reservedDelta: tier.quantity,
        gachaId,
        note: tier.label,
        at: now,
      });
    }
  }
  return { ok: true };
}

/**
 * A pack's sale ended before it sold out: the cards of its unclaimed lots, of its ラストワン賞 (only
 * the draw of the final lot wins it, and that draw sells the pack out) and of the キリ番賞 whose number
 * was not reached (decision 027) are no longer promised. Call
 * it after the pack's unclaimed lots are locked (no draw can claim one any more).
 */
export async function releaseStockOfEndedPack(tx: Database, gachaId: string, now: Date): Promise<void> {
  const rows = await queryRows<{ tier_id: string; label: string; stock_card_id: string; n: number }>(
    tx,
    sql`select t.id as tier_id, t.label, t.stock_card_id,
          (case when t.is_last_one then 1
                when t.kiriban_at is not null then
                  (select count(*) from unnest(t.kiriban_at) k
                    where k > (select count(*) from ${gachaLots} l where l.gacha_id = t.gacha_id and l.draw_id is not null))
                else (select count(*) from ${gachaLots} l where l.gacha_id = t.gacha_id and l.tier_id = t.id and l.draw_id is null)
           end)::int as n
        from ${gachaTiers} t
       where t.gacha_id = ${gachaId} and t.stock_card_id is not null
       order by t.stock_card_id, t.id`,
  );
  const due = rows.filter((r) => Number(r.n) > 0);
  await lockCards(
    tx,
    due.map((r) => r.stock_card_id),
  );
  for (const row of due) {
    await tx
      .update(stockCards)
      .set({ reserved: sql`${stockCards.reserved} - ${Number(row.n)}`, updatedAt: now })
      .where(eq(stockCards.id, row.stock_card_id));
    await tx.insert(stockMovements).values({
      stockCardId: row.stock_card_id,
      kind: 'released',
      onHandDelta: 0,
      reservedDelta: -Number(row.n),
      gachaId,
      note: row.label,
      at: now,
    });
  }
}

/** A prize as a stock step needs it: which card it stands for comes from its tier (or its substitute). */
export interface StockPrize {
  prizeId: string;
  tierId: string;
}

export type PrizeStockMove = 'released' | 'shipped' | 'returned';

/**
 * Moves the cards of prizes (sql/stock.sql's gacha_stock_move_prizes): `shipped` when their parcel
 * leaves, `returned` when it comes back, `released` when they become coins outside prize_convert.
 * Untracked prizes are skipped. Answers the number of cards moved.
 * @example await moveStockOfPrizes(tx, prizes, 'shipped', { requestId, now })
 */
export async function moveStockOfPrizes(
  tx: Database,
  prizes: StockPrize[],
  kind: PrizeStockMove,
  options: { requestId?: string | null; note?: string | null; now: Date },
): Promise<number> {
  if (prizes.length === 0) return 0;
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`select gacha_stock_move_prizes(${`{${prizes.map((p) => p.prizeId).join(',')}}`}::uuid[],
      ${pgTextArray(prizes.map((p) => p.tierId))}::text[], ${kind}::text, ${options.requestId ?? null}::uuid,
      ${options.note ?? null}::text, ${options.now.toISOString()}::timestamptz) as n`,
  );
  return Number(row?.n ?? 0);
}

/**
 * Locks the cards of many prizes at once, in id order: a caller that then moves them in several steps
 * (a CSV file of many requests) waits for no one in between, and no two callers wait on each other.
 */
export async function lockStockOfPrizes(tx: Database, prizes: StockPrize[]): Promise<void> {
  if (prizes.length === 0) return;
  await queryRows(
    tx,
    sql`select s.id from ${stockCards} s
         where s.id in (select c.stock_card_id from gacha_stock_cards_of(${`{${prizes.map((p) => p.prizeId).join(',')}}`}::uuid[],
                          ${pgTextArray(prizes.map((p) => p.tierId))}::text[]) c)
         order by s.id for update`,
  );
}

/** The card a prize is fulfilled with now (its substitute, else its tier's card; null when untracked). */
export async function stockCardOfPrize(db: Database, prize: StockPrize): Promise<StockCardView | null> {
  const rows = await queryRows<{ id: string | null }>(
    db,
    sql`select stock_card_id as id from gacha_stock_cards_of(${`{${prize.prizeId}}`}::uuid[], ${pgTextArray([prize.tierId])}::text[])`,
  );
  const id = rows[0]?.id;
  if (!id) return null;
  return (await stockCardsById(db, [id])).get(id) ?? null;
}

/**
 * A prize's card is missing or damaged: it leaves stock (on hand and reserved − 1, skipped when the
 * prize is untracked) and, with a substitute, that card is reserved for the prize from now on: it must
 * have one available once the original has left (another copy of the same card will do) and be worth
 * at least `minValue`, else STOCK_SUBSTITUTE_UNAVAILABLE / STOCK_SUBSTITUTE_TOO_LOW. Both cards are
 * locked in id order first. The caller holds the prize's row lock and rolls back on a refusal.
 * @example await reportPrizeCardGone(tx, { prize, condition: 'missing', requestId, now, substitute: { stockCardId, minValue: 500 } })
 */
export async function reportPrizeCardGone(
  tx: Database,
  input: {
    prize: StockPrize & { gachaId: string };
    condition: 'missing' | 'damaged';
    requestId: string;
    note?: string | null;
    now: Date;
    substitute?: { stockCardId: string; minValue: number };
  },
): Promise<{ original: StockCardView | null; substitute: StockCardView | null }> {
  const original = await stockCardOfPrize(tx, input.prize);
  const substituteId = input.substitute?.stockCardId;
  const locked = await lockCards(tx, [...(original ? [original.id] : []), ...(substituteId ? [substituteId] : [])]);
  if (substituteId && !locked.has(substituteId))
    throw new StockError('STOCK_CARD_NOT_FOUND', { stockCardId: substituteId });
  await queryRows(
    tx,
    sql`select gacha_stock_move_prizes(${`{${input.prize.prizeId}}`}::uuid[], ${pgTextArray([input.prize.tierId])}::text[],
      ${input.condition}::text, ${input.requestId}::uuid, ${input.note ?? null}::text, ${input.now.toISOString()}::timestamptz)`,
  );
  if (!input.substitute || !substituteId) return { original, substitute: null };
  const [card] = await tx.select().from(stockCards).where(eq(stockCards.id, substituteId));
  if (card!.valueCoins < input.substitute.minValue)
    throw new StockError('STOCK_SUBSTITUTE_TOO_LOW', {
      stockCardId: card!.id,
      cardName: card!.cardName,
      valueCoins: card!.valueCoins,
      minValue: input.substitute.minValue,
    });
  if (card!.onHand - card!.reserved < 1)
    throw new StockError('STOCK_SUBSTITUTE_UNAVAILABLE', {
      stockCardId: card!.id,
      cardName: card!.cardName,
      available: Math.max(card!.onHand - card!.reserved, 0),
    });
  const [after] = await tx
    .update(stockCards)
    .set({ reserved: sql`${stockCards.reserved} + 1`, updatedAt: input.now })
    .where(eq(stockCards.id, substituteId))
    .returning();
  await tx
    .insert(stockPrizeCards)
    .values({ prizeId: input.prize.prizeId, stockCardId: substituteId, updatedAt: input.now })
    .onConflictDoUpdate({ target: stockPrizeCards.prizeId, set: { stockCardId: substituteId, updatedAt: input.now } });
  await tx.insert(stockMovements).values({
    stockCardId: substituteId,
    kind: 'substitute',
    onHandDelta: 0,
    reservedDelta: 1,
    gachaId: input.prize.gachaId,
    prizeId: input.prize.prizeId,
    requestId: input.requestId,
    note: input.note ?? null,
    at: input.now,
  });
  return { original, substitute: viewOf(after!) };
}

/**
 * The substitute cards of prizes that have one (for the member's request, the pick list, the slip).
 * @example (await prizeSubstitutes(db, prizeIds)).get(prizeId)?.cardName
 */
export async function prizeSubstitutes(db: Database, prizeIds: string[]): Promise<Map<string, StockCardView>> {
  const ids = [...new Set(prizeIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ prizeId: stockPrizeCards.prizeId, card: stockCards })
    .from(stockPrizeCards)
    .innerJoin(stockCards, eq(stockCards.id, stockPrizeCards.stockCardId))
    .where(inArray(stockPrizeCards.prizeId, ids));
  return new Map(rows.map((r) => [r.prizeId, viewOf(r.card)]));
}
