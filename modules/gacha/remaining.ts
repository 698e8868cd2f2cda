// Remaining lots of a pack, counted from the lots themselves, and the count cached on the pack row
// for the catalogue lists. Gacha owns the lots; draw claims them through gacha's SQL.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';
import { gachaLots, gachaTiers, gachas, type DrawMode } from './schema';
import { isLotTier, type ExtraPrizeFields } from './extra-prizes';

export interface TierRemaining {
  tierId: string;
  label: string;
  rank: number;
  quantity: number;
  remaining: number;
  isLastOne: boolean;
  /** A キリ番賞's numbers (decision 027), null for other tiers. */
  kiribanAt: number[] | null;
  /** A 個人キリ番賞's numbers and a ピタリ賞's tier (decision 088), null for other tiers. */
  personalKiribanAt: number[] | null;
  pitariOf: string | null;
  /** A 天井賞's lots in a row and hits (decision 089), null for other tiers. */
  ceilingAfter: number | null;
  ceilingOf: string[] | null;
}

/**
 * Remaining lots of a pack in total and per tier, counted from the lots themselves.
 * @example const { remaining, tiers } = await getRemaining(db, 'stellar-pokemon-001')
 */
export async function getRemaining(
  db: Database,
  gachaId: string,
): Promise<{ gachaId: string; total: number; remaining: number; soldOut: boolean; tiers: TierRemaining[] }> {
  const tiers = await db
    .select()
    .from(gachaTiers)
    .where(eq(gachaTiers.gachaId, gachaId))
    .orderBy(asc(gachaTiers.rank), asc(gachaTiers.id));
  const [pack] = await db
    .select({ total: gachas.totalLots, status: gachas.status, drawMode: gachas.drawMode })
    .from(gachas)
    .where(eq(gachas.id, gachaId));
  const [unclaimed, given] = await Promise.all([
    countUnclaimed(db, gachaId, pack?.drawMode),
    countMemberPrizesGiven(db, gachaId, tiers),
  ]);
  const soldOut = pack?.status === 'sold_out';
  const counted = remainingOf(tiers, unclaimed, soldOut, given);
  return {
    gachaId,
    total: pack?.total ?? 0,
    remaining: counted.remaining,
    soldOut,
    tiers: tiers.map((t) => ({
      tierId: t.id,
      label: t.label,
      rank: t.rank,
      quantity: t.quantity,
      isLastOne: t.isLastOne,
      kiribanAt: t.kiribanAt ?? null,
      personalKiribanAt: t.personalKiribanAt ?? null,
      pitariOf: t.pitariOf ?? null,
      ceilingAfter: t.ceilingAfter ?? null,
      ceilingOf: t.ceilingOf ?? null,
      remaining: counted.tiers[t.id]!,
    })),
  };
}

/**
 * A pack's lots still to be drawn: `total` in all, and `byTier` the lots of each tier nobody has won yet. In a
 * sequence pack both are the unclaimed lots (one query). In a beacon pack (decision 081) a claimed slot gets its
 * tier only when its draw is settled, so `total` counts the unclaimed slots and `byTier` each tier's quantity
 * less what settled draws won: the multiset the next settlements draw from (two queries).
 */
export interface LotCounts {
  total: number;
  byTier: Map<string, number>;
}

/** A pack's lots still to be drawn (LotCounts). */
export async function countUnclaimed(db: Database, gachaId: string, mode: DrawMode = 'sequence'): Promise<LotCounts> {
  if (mode === 'beacon') {
    // One after another: the settlement calls this inside its transaction (one connection).
    const slots = await db
      .select({ n: sql<string>`count(*)` })
      .from(gachaLots)
      .where(and(eq(gachaLots.gachaId, gachaId), sql`${gachaLots.drawId} is null`));
    const won = await db
      .select({ tierId: gachaLots.tierId, n: sql<string>`count(*)` })
      .from(gachaLots)
      .where(and(eq(gachaLots.gachaId, gachaId), sql`${gachaLots.tierId} is not null`))
      .groupBy(gachaLots.tierId);
    const tiers = await db
      .select({ id: gachaTiers.id, quantity: gachaTiers.quantity })
      .from(gachaTiers)
      .where(
        and(
          eq(gachaTiers.gachaId, gachaId),
          sql`not ${gachaTiers.isLastOne} and ${gachaTiers.kiribanAt} is null and ${gachaTiers.personalKiribanAt} is null
               and ${gachaTiers.pitariOf} is null and ${gachaTiers.ceilingAfter} is null`,
        ),
      );
    const wonBy = new Map(won.map((w) => [w.tierId, Number(w.n)]));
    return {
      total: Number(slots[0]?.n ?? 0),
      byTier: new Map(tiers.map((t) => [t.id, t.quantity - (wonBy.get(t.id) ?? 0)])),
    };
  }
  const counts = await db
    .select({ tierId: gachaLots.tierId, n: sql<string>`count(*)` })
    .from(gachaLots)
    .where(and(eq(gachaLots.gachaId, gachaId), sql`${gachaLots.drawId} is null`))
    .groupBy(gachaLots.tierId);
  const byTier = new Map(counts.map((c) => [c.tierId ?? '', Number(c.n)]));
  return { total: [...byTier.values()].reduce((sum, n) => sum + n, 0), byTier };
}

/**
 * How many of each 個人キリ番賞 and 天井賞 (decisions 088, 089) have been given: these prizes come from a stock
 * of their own, not from the lots, so their prizes count them. One query, and none for a pack without them.
 * @example remainingOf(pack.tiers, unclaimed, soldOut, await countMemberPrizesGiven(db, pack.id, pack.tiers))
 */
export async function countMemberPrizesGiven(
  db: Database,
  gachaId: string,
  tiers: ExtraPrizeFields[],
): Promise<Map<string, number>> {
  if (!tiers.some((t) => t.personalKiribanAt?.length || t.ceilingAfter)) return new Map();
  // The prizes table is draw's; its two partial indexes on (gacha_id, member_id, …) serve this count.
  const rows = await queryRows<{ tier_id: string; n: string }>(
    db,
    sql`select tier_id, count(*) as n from prizes
         where gacha_id = ${gachaId} and (personal_kiriban_no is not null or ceiling_no is not null)
         group by tier_id`,
  );
  return new Map(rows.map((r) => [r.tier_id, Number(r.n)]));
}

/**
 * Remaining lots in total and per tier (the ラストワン賞 counts 1 until it is won, a キリ番賞 its numbers not yet
 * reached, a 個人キリ番賞 or 天井賞 its stock less those `given`), for a caller that already has the pack's tiers.
 * @example remainingOf(pack.tiers, await countUnclaimed(db, pack.id), pack.status === 'sold_out', given)
 */
export function remainingOf(
  tiers: ({ id: string; isLastOne: boolean; quantity: number } & ExtraPrizeFields)[],
  counts: LotCounts,
  soldOut: boolean,
  given: ReadonlyMap<string, number> = new Map(),
) {
  const unclaimed = counts.byTier;
  const remaining = counts.total;
  let notWon = 0;
  for (const n of unclaimed.values()) notWon += n;
  const total = tiers.filter(isLotTier).reduce((sum, t) => sum + t.quantity, 0);
  // Lots sold in sale order: in a beacon pack, those settled (a キリ番 is reached in the settled order).
  const sold = soldOut && notWon === 0 ? total : total - notWon;
  const byTier = Object.fromEntries(
    tiers.map((t) => [
      t.id,
      t.kiribanAt
        ? t.kiribanAt.filter((k) => k > sold).length
        : t.pitariOf
          ? (unclaimed.get(t.pitariOf) ?? 0) > 0
            ? 1
            : 0
          : t.personalKiribanAt || t.ceilingAfter
            ? // the most it can still give (each member's numbers are theirs alone): its stock less those given,
              // none once the pack is sold out
              soldOut
              ? 0
              : Math.max(t.quantity - (given.get(t.id) ?? 0), 0)
            : t.isLastOne
              ? soldOut && notWon === 0
                ? 0
                : 1
              : (unclaimed.get(t.id) ?? 0),
    ]),
  );
  return { remaining, tiers: byTier };
}

/** Stores the counted remaining lots on the pack row (the catalogue lists read it). */
export async function refreshRemainingCache(db: Database, gachaId: string, remaining: number): Promise<void> {
  // A count taken before the final draw committed must not undo its zero.
  await db
    .update(gachas)
    .set({ remainingLots: remaining })
    .where(
      and(eq(gachas.id, gachaId), sql`${gachas.remainingLots} <> ${remaining}`, sql`${gachas.status} <> 'sold_out'`),
    );
}

/**
 * Recounts every pack on sale and stores the counts on the pack rows (a job, and after bulk
 * draws such as the demo data's): heals counts that a crashed instance never refreshed.
 * @example await refreshAllRemaining(db) // → packs whose count changed
 */
export async function refreshAllRemaining(db: Database): Promise<number> {
  const packs = await db
    .select({ id: gachas.id, cached: gachas.remainingLots })
    .from(gachas)
    .where(and(inArray(gachas.status, ['on_sale', 'scheduled']), sql`${gachas.commitment} is not null`));
  let changed = 0;
  for (const pack of packs) {
    const { remaining } = await getRemaining(db, pack.id);
    if (remaining !== pack.cached) {
      await refreshRemainingCache(db, pack.id, remaining);
      changed += 1;
    }
  }
  return changed;
}
