// The pack's side of a sequence pack's reveal (decisions 005, 027): its committed terms, the seed and the lot
// order once the pack is over, and when its record stopped changing. The draw module adds its log.
import { asc, eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import type { PackTier } from '#modules/fairness';
import { gachas, gachaLots, gachaSecrets } from './schema';
import { committedTiers } from './admin';

/** What gacha holds of a finished pack's reveal: terms, secret seed and lot order (draw adds its log). */
export interface PackRevealTerms {
  gacha: { id: string; title: string; pricePerDraw: number };
  tiers: PackTier[];
  commitment: string;
  committedAt: Date;
  seed: string;
  revealSalt: string;
  lots: string[];
  lastOneTierId: string | undefined;
  revealedAt: Date;
}

/**
 * The pack's side of the reveal of a pack that sold out or ended, or null while it is still on sale.
 * @example const terms = await packRevealTerms(db, 'stellar-yugioh-002')
 */
export async function packRevealTerms(db: Database, gachaId: string): Promise<PackRevealTerms | null> {
  const [pack] = await db.select().from(gachas).where(eq(gachas.id, gachaId));
  if (!pack || !pack.commitment || !pack.committedAt) return null;
  if (pack.status !== 'sold_out' && pack.status !== 'ended') return null;
  const [secret] = await db.select().from(gachaSecrets).where(eq(gachaSecrets.gachaId, gachaId));
  // A beacon pack has no seed and no v1/v2 reveal: its proof is the live draw log (decision 081).
  if (!secret || secret.seed === null) return null;
  const tiers = await committedTiers(db, gachaId);
  const lots = await db
    .select({ tierId: gachaLots.tierId })
    .from(gachaLots)
    .where(eq(gachaLots.gachaId, gachaId))
    .orderBy(asc(gachaLots.position));
  return {
    gacha: { id: pack.id, title: pack.title, pricePerDraw: pack.pricePerDraw },
    tiers,
    commitment: pack.commitment,
    committedAt: pack.committedAt,
    seed: secret.seed,
    revealSalt: secret.revealSalt,
    lots: lots.map((l) => l.tierId ?? ''),
    lastOneTierId: tiers.find((t) => t.isLastOne)?.id,
    revealedAt: pack.revealedAt ?? pack.soldOutAt ?? new Date(),
  };
}

/**
 * When a pack's record stopped changing (revealed or sold out), or null while it is on sale: the
 * key under which a verified reveal may be kept.
 */
export async function packRevealStamp(db: Database, gachaId: string): Promise<Date | null> {
  const [pack] = await db
    .select({ revealedAt: gachas.revealedAt, soldOutAt: gachas.soldOutAt })
    .from(gachas)
    .where(eq(gachas.id, gachaId));
  const at = pack?.revealedAt ?? pack?.soldOutAt;
  return at ? new Date(at) : null;
}
