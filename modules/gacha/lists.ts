// Pack lists: by genre and sort, with each pack's headline prize; the rank-only packs.
import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { gachas, type GachaStatus } from './schema';
import { PUBLIC_GACHA_STATUSES } from './catalogue';
import { inShownGenre } from './shown-genres';
import { isLotTier, type ExtraPrizeFields } from './extra-prizes';

export const GACHA_SORTS = ['recommended', 'new', 'price_asc', 'price_desc'] as const;
export type GachaSort = (typeof GACHA_SORTS)[number];

export interface GachaCard {
  id: string;
  genreId: string;
  title: string;
  imagePath: string;
  pricePerDraw: number;
  totalLots: number;
  remainingLots: number;
  status: GachaStatus;
  tags: string[];
}

/** The prize a pack card leads with: the best regular tier (the ラストワン賞 only when it is the only tier). */
export interface HeadlinePrize {
  label: string;
  cardName: string;
  cardImagePath: string;
}

/** A pack in a list, with its headline prize (null for a pack without tiers). */
export interface GachaListItem extends GachaCard {
  headline: HeadlinePrize | null;
}

export const gachaCardColumns = {
  id: gachas.id,
  genreId: gachas.genreId,
  title: gachas.title,
  imagePath: gachas.imagePath,
  pricePerDraw: gachas.pricePerDraw,
  totalLots: gachas.totalLots,
  remainingLots: gachas.remainingLots,
  status: gachas.status,
  tags: gachas.tags,
};

/**
 * The headline prize of each listed pack, in the same query: one correlated look-up per row on
 * gacha_tiers_gacha_idx (gacha_id, rank), so a list never costs a query per pack. Regular tiers come
 * before the extra prizes (ラストワン賞, キリ番賞, 個人キリ番賞, ピタリ賞; rank 0 would otherwise win), then the lowest rank. The outer
 * column is written qualified by hand: drizzle leaves it bare in a one-table select, where it would
 * name the tier's own id.
 */
const headlineColumn = sql<HeadlinePrize | string | null>`(
  select json_build_object('label', t.label, 'cardName', t.card_name, 'cardImagePath', t.card_image_path)
  from gacha_tiers t where t.gacha_id = "gachas"."id"
  order by (t.is_last_one or t.kiriban_at is not null or t.personal_kiriban_at is not null or t.pitari_of is not null
            or t.ceiling_after is not null) asc,
    t.rank asc, t.id asc limit 1)`;

/** Both engines answer json as an object; a driver that leaves it as text is read the same way. */
const toHeadline = (value: HeadlinePrize | string | null): HeadlinePrize | null =>
  value === null ? null : typeof value === 'string' ? (JSON.parse(value) as HeadlinePrize) : value;

/**
 * Public packs, on sale first, then sold out; in the chosen order; each with its headline prize.
 * @example await listGachas(db, { genreId: 'pokemon', sort: 'price_asc' })
 */
export async function listGachas(
  db: Database,
  options: { genreId?: string; sort?: GachaSort; limit?: number } = {},
): Promise<GachaListItem[]> {
  const sort = options.sort ?? 'recommended';
  const onSaleFirst = sql`case ${gachas.status} when 'on_sale' then 0 when 'scheduled' then 1 else 2 end`;
  const order =
    sort === 'new'
      ? [desc(gachas.saleStartsAt)]
      : sort === 'price_asc'
        ? [asc(gachas.pricePerDraw)]
        : sort === 'price_desc'
          ? [desc(gachas.pricePerDraw)]
          : [asc(gachas.sortOrder)];
  const rows = await db
    .select({ ...gachaCardColumns, headline: headlineColumn })
    .from(gachas)
    .where(
      and(
        inArray(gachas.status, PUBLIC_GACHA_STATUSES),
        options.genreId ? eq(gachas.genreId, options.genreId) : undefined,
        // A hidden genre's packs (or one outside its window) are not listed: their pages answer 404.
        inShownGenre(db),
      ),
    )
    .orderBy(onSaleFirst, ...order, asc(gachas.id))
    .limit(Math.min(options.limit ?? 100, 200));
  return rows.map((row) => ({ ...row, headline: toHeadline(row.headline) }));
}

/**
 * Public packs on sale or coming that only members of a rank may draw (min_rank > 0): a rank perk /myrank
 * lists. Lowest rank first.
 * @example await rankOnlyPacks(db) // [{ id, genreId, title, minRank: 3, pricePerDraw: 1000, status: 'on_sale' }]
 */
export async function rankOnlyPacks(db: Database, limit = 20) {
  const rows = await db
    .select({
      id: gachas.id,
      genreId: gachas.genreId,
      title: gachas.title,
      minRank: gachas.minRank,
      pricePerDraw: gachas.pricePerDraw,
      status: gachas.status,
    })
    .from(gachas)
    .where(and(inArray(gachas.status, ['on_sale', 'scheduled']), gt(gachas.minRank, 0), inShownGenre(db)))
    .orderBy(asc(gachas.minRank), asc(gachas.sortOrder), asc(gachas.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, minRank: row.minRank ?? 0 }));
}

/**
 * The tier a pack leads with, from its tiers as getGachaDetail lists them (the same rule as the list).
 * @example headlineTier([{ rank: 0, isLastOne: true, … }, { rank: 1, isLastOne: false, … }]).rank === 1
 */
export function headlineTier<T extends { rank: number } & ExtraPrizeFields>(tiers: readonly T[]): T | null {
  const regular = tiers.filter(isLotTier);
  const pool = regular.length > 0 ? regular : tiers;
  return pool.reduce<T | null>((best, t) => (best === null || t.rank < best.rank ? t : best), null);
}

/** @example parseGachaSort('price_asc') === 'price_asc'; parseGachaSort('bogus') === 'recommended' */
export function parseGachaSort(value: string | null | undefined): GachaSort {
  return (GACHA_SORTS as readonly string[]).includes(value ?? '') ? (value as GachaSort) : 'recommended';
}
