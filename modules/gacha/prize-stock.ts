// Each prize's card (docs/decisions/023) as it is shipped, comes back, is converted or goes missing,
// and its substitutes. Takes the caller's transaction and does not audit.
import { eq, inArray, sql } from 'drizzle-orm';
import { pgTextArray, queryRows, type Database } from '#db/client';
import { stockCards, stockMovements, stockPrizeCards } from './schema';
import { type StockCardView, stockCardsById, lockCards, StockError, viewOf } from './stock';

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
