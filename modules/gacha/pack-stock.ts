// A pack's stock (docs/decisions/023): what a published pack reserves, what it is short of, and the
// release when it ends. Takes the caller's transaction and does not audit.
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';
import { gachaLots, gachaTiers, stockCards, stockMovements } from './schema';
import { type StockIdentity, stockIdentityKey, lockCards, type StockCardRow } from './stock';

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
 * the draw of the final lot wins it, and that draw sells the pack out), of the キリ番賞 whose number
 * was not reached (decision 027), of a ピタリ賞 whose tier was not emptied, of the 個人キリ番賞 no member reached
 * (decision 088) and of the 天井賞 not given (decision 089) are no longer promised. Call
 * it after the pack's unclaimed lots are locked (no draw can claim one any more); for a beacon pack, once
 * its last receipt is settled as well.
 */
export async function releaseStockOfEndedPack(tx: Database, gachaId: string, now: Date): Promise<void> {
  const rows = await queryRows<{ tier_id: string; label: string; stock_card_id: string; n: number }>(
    tx,
    sql`select t.id as tier_id, t.label, t.stock_card_id,
          (case when t.is_last_one then 1
                when t.kiriban_at is not null then
                  (select count(*) from unnest(t.kiriban_at) k
                    where k > (select count(*) from ${gachaLots} l where l.gacha_id = t.gacha_id and l.draw_id is not null
                                  and l.tier_id is not null))
                -- a ピタリ賞 (decision 088) was won when its tier's last lot was claimed
                when t.pitari_of is not null then
                  (case when exists (select 1 from ${gachaLots} l where l.gacha_id = t.gacha_id and l.tier_id = t.pitari_of
                                       and l.draw_id is null) then 1 else 0 end)
                -- a 個人キリ番賞's most, less one for each number a member reached
                when t.personal_kiriban_at is not null then
                  t.quantity - (select count(*)
                                  from (select count(*) as n from ${gachaLots} l
                                         where l.gacha_id = t.gacha_id and l.draw_id is not null group by l.member_id) m,
                                       unnest(t.personal_kiriban_at) k
                                 where k <= m.n)
                -- a 天井賞's most, less each one given (decision 089: only its prizes count it)
                when t.ceiling_after is not null then
                  t.quantity - (select count(*) from prizes p where p.tier_id = t.id and p.ceiling_no is not null)
                -- the tier's lots nobody won: its unclaimed lots, or in a beacon pack (whose unclaimed slots have no
                -- tier) what no settled draw took
                else t.quantity - (select count(*) from ${gachaLots} l where l.gacha_id = t.gacha_id and l.tier_id = t.id
                                     and l.draw_id is not null)
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
