// Remaining lots of a pack, counted from the lots themselves, and the count cached on the pack row
// for the catalogue lists. Gacha owns the lots; draw claims them through gacha's SQL.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { gachaLots, gachaTiers, gachas } from './schema';

export interface TierRemaining {
  tierId: string;
  label: string;
  rank: number;
  quantity: number;
  remaining: number;
  isLastOne: boolean;
  /** A キリ番賞's numbers (decision 027), null for other tiers. */
  kiribanAt: number[] | null;
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
  const unclaimed = await countUnclaimed(db, gachaId);
  const [pack] = await db
    .select({ total: gachas.totalLots, status: gachas.status })
    .from(gachas)
    .where(eq(gachas.id, gachaId));
  const soldOut = pack?.status === 'sold_out';
  const counted = remainingOf(tiers, unclaimed, soldOut);
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
      remaining: counted.tiers[t.id]!,
    })),
  };
}

/** Unclaimed lots of a pack by tier, in one query. */
export async function countUnclaimed(db: Database, gachaId: string): Promise<Map<string, number>> {
  const counts = await db
    .select({ tierId: gachaLots.tierId, n: sql<string>`count(*)` })
    .from(gachaLots)
    .where(and(eq(gachaLots.gachaId, gachaId), sql`${gachaLots.drawId} is null`))
    .groupBy(gachaLots.tierId);
  return new Map(counts.map((c) => [c.tierId, Number(c.n)]));
}

/**
 * Remaining lots in total and per tier (the ラストワン賞 counts 1 until the pack sells out, a キリ番賞 its
 * numbers not yet reached), for a caller that already has the pack's tiers.
 * @example remainingOf(pack.tiers, await countUnclaimed(db, pack.id), pack.status === 'sold_out')
 */
export function remainingOf(
  tiers: { id: string; isLastOne: boolean; quantity: number; kiribanAt?: number[] | null }[],
  unclaimed: Map<string, number>,
  soldOut: boolean,
) {
  let remaining = 0;
  for (const n of unclaimed.values()) remaining += n;
  const total = tiers.filter((t) => !t.isLastOne && !t.kiribanAt).reduce((sum, t) => sum + t.quantity, 0);
  const sold = soldOut ? total : total - remaining;
  const byTier = Object.fromEntries(
    tiers.map((t) => [
      t.id,
      t.kiribanAt
        ? t.kiribanAt.filter((k) => k > sold).length
        : t.isLastOne
          ? soldOut
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
