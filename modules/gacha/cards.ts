// Gacha's read model for other modules: what a tier's card looks like and which pack it belongs to,
// by id, in one query each (draw names its prizes and draws with these instead of joining our tables).
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { gachas, gachaSecrets, gachaTiers } from './schema';
import { PUBLIC_GACHA_STATUSES } from './catalogue';
import { inShownGenre } from './shown-genres';

/** A prize tier's card as a prize list shows it. */
export interface TierCard {
  tierId: string;
  gachaId: string;
  gachaTitle: string;
  genreId: string;
  tierLabel: string;
  tierRank: number;
  effect: 'lastone' | 'rainbow' | 'gold' | 'silver' | 'normal';
  cardName: string;
  imagePath: string;
  rarity: string | null;
  cardGrade: string | null;
  /** The card's set and collector number (the pick list finds the card by them). */
  cardSet: string | null;
  cardNumber: string | null;
  isLastOne: boolean;
  /**
   * How many of the pack's regular tiers stand below this one (0: the pack's lowest tier, such as C賞).
   * A conversion names every card above the lowest few (decision 057).
   */
  tiersBelow: number;
}

/**
 * The cards of the given tiers, whatever the pack's status (a member's prizes outlive the sale).
 * @example (await tierCards(db, ['stellar-pokemon-001.S'])).get('stellar-pokemon-001.S')?.cardName
 */
export async function tierCards(db: Database, tierIds: string[]): Promise<Map<string, TierCard>> {
  const ids = [...new Set(tierIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      tierId: gachaTiers.id,
      gachaId: gachaTiers.gachaId,
      gachaTitle: gachas.title,
      genreId: gachas.genreId,
      tierLabel: gachaTiers.label,
      tierRank: gachaTiers.rank,
      effect: gachaTiers.effect,
      cardName: gachaTiers.cardName,
      imagePath: gachaTiers.cardImagePath,
      rarity: gachaTiers.rarity,
      cardGrade: gachaTiers.cardGrade,
      cardSet: gachaTiers.cardSet,
      cardNumber: gachaTiers.cardNumber,
      isLastOne: gachaTiers.isLastOne,
      // The same pack's regular tiers ranked below this one (the inner table is aliased, so the
      // qualified names are the outer row's).
      tiersBelow: sql<number>`(select count(*)::int from ${gachaTiers} as below_tier
        where below_tier.gacha_id = ${gachaTiers.gachaId} and below_tier.rank > ${gachaTiers.rank}
        and not below_tier.is_last_one)`.mapWith(Number),
    })
    .from(gachaTiers)
    .innerJoin(gachas, eq(gachas.id, gachaTiers.gachaId))
    .where(inArray(gachaTiers.id, ids));
  return new Map(rows.map((row) => [row.tierId, row]));
}

/**
 * Title, genre and lot count of the given packs, whatever their status.
 * @example (await packTitles(db, ['stellar-pokemon-001'])).get('stellar-pokemon-001')?.title
 */
export async function packTitles(
  db: Database,
  gachaIds: string[],
): Promise<Map<string, { title: string; genreId: string; totalLots: number }>> {
  const ids = [...new Set(gachaIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: gachas.id, title: gachas.title, genreId: gachas.genreId, totalLots: gachas.totalLots })
    .from(gachas)
    .where(inArray(gachas.id, ids));
  return new Map(rows.map(({ id, ...rest }) => [id, rest]));
}

/**
 * Ids of every pack of the genre, whatever its status (a genre's buyers are those who drew from any of them).
 * @example await packIdsInGenre(db, 'pokemon') // ['stellar-pokemon-001', …]
 */
export async function packIdsInGenre(db: Database, genreId: string): Promise<string[]> {
  const rows = await db.select({ id: gachas.id }).from(gachas).where(eq(gachas.genreId, genreId));
  return rows.map((r) => r.id);
}

/**
 * Ids of the packs a visitor may see: a public status (never a draft) in a shown genre (compared at
 * read time). The winners feed lists wins of these packs only.
 * @example const shown = await shownPackIds(db)
 */
export async function shownPackIds(db: Database): Promise<string[]> {
  const rows = await db
    .select({ id: gachas.id })
    .from(gachas)
    .where(and(inArray(gachas.status, PUBLIC_GACHA_STATUSES), inShownGenre(db)));
  return rows.map((r) => r.id);
}

/** What a member needs to check a draw of a finished pack: the published seed and the commitment. */
export interface PackProof {
  seed: string;
  commitment: string;
  committedAt: string;
}

/**
 * The proofs of the given packs that are over (sold out or ended: their seed is public); a pack still
 * on sale is absent, so its seed never leaves the database early.
 * @example (await revealedPackProofs(db, ['stellar-yugioh-002'])).get('stellar-yugioh-002')?.seed
 */
export async function revealedPackProofs(db: Database, gachaIds: string[]): Promise<Map<string, PackProof>> {
  const ids = [...new Set(gachaIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: gachas.id,
      seed: gachaSecrets.seed,
      commitment: gachas.commitment,
      committedAt: gachas.committedAt,
    })
    .from(gachas)
    .innerJoin(gachaSecrets, eq(gachaSecrets.gachaId, gachas.id))
    .where(
      and(
        inArray(gachas.id, ids),
        inArray(gachas.status, ['sold_out', 'ended']),
        isNotNull(gachas.commitment),
        isNotNull(gachas.committedAt),
        isNotNull(gachaSecrets.seed),
      ),
    );
  return new Map(
    rows.map((r) => [
      r.id,
      { seed: r.seed!, commitment: r.commitment!, committedAt: new Date(r.committedAt!).toISOString() },
    ]),
  );
}
