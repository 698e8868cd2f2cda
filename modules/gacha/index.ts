// The catalogue's public API: genres and packs for pages, the API and the guards.
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { genres, gachas, gachaTiers, type GachaStatus } from './schema';

export { genres, gachas, gachaTiers, gachaLots } from './schema';
export type { GachaStatus } from './schema';

/** Statuses a visitor may see; drafts stay hidden. */
export const PUBLIC_GACHA_STATUSES: GachaStatus[] = ['scheduled', 'on_sale', 'sold_out', 'ended'];

export const GACHA_SORTS = ['recommended', 'new', 'price_asc', 'price_desc'] as const;
export type GachaSort = (typeof GACHA_SORTS)[number];

export interface GenreSummary {
  id: string;
  name: string;
  iconPath: string | null;
}

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

/** Ids of genres and packs: ASCII letters, digits, '-' and '_' (they appear in URLs). */
const CATALOGUE_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** @example isCatalogueId('stellar-pokemon-001') === true; isCatalogueId('a b') === false */
export const isCatalogueId = (value: string) => CATALOGUE_ID.test(value);

/** @example const tabs = await listGenres(db) */
export async function listGenres(db: Database): Promise<GenreSummary[]> {
  return db
    .select({ id: genres.id, name: genres.name, iconPath: genres.iconPath })
    .from(genres)
    .where(eq(genres.visible, true))
    .orderBy(asc(genres.sortOrder), asc(genres.id));
}

/**
 * The canonical genre id for an id or alias in any case, or null.
 * @example await resolveGenre(db, 'POKEMON-card') // 'pokemon'
 */
export async function resolveGenre(db: Database, idOrAlias: string): Promise<string | null> {
  const wanted = idOrAlias.trim().toLowerCase();
  if (!isCatalogueId(wanted)) return null;
  const rows = await db
    .select({ id: genres.id })
    .from(genres)
    .where(and(eq(genres.visible, true), sql`(${genres.id} = ${wanted} or ${wanted} = any(${genres.aliases}))`))
    .limit(1);
  return rows[0]?.id ?? null;
}

const gachaCardColumns = {
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
 * Public packs, on sale first, then sold out; in the chosen order.
 * @example await listGachas(db, { genreId: 'pokemon', sort: 'price_asc' })
 */
export async function listGachas(db: Database, options: { genreId?: string; sort?: GachaSort; limit?: number } = {}): Promise<GachaCard[]> {
  const sort = options.sort ?? 'recommended';
  const onSaleFirst = sql`case ${gachas.status} when 'on_sale' then 0 when 'scheduled' then 1 else 2 end`;
  const order =
    sort === 'new' ? [desc(gachas.saleStartsAt)] :
    sort === 'price_asc' ? [asc(gachas.pricePerDraw)] :
    sort === 'price_desc' ? [desc(gachas.pricePerDraw)] :
    [asc(gachas.sortOrder)];
  return db
    .select(gachaCardColumns)
    .from(gachas)
    .where(and(inArray(gachas.status, PUBLIC_GACHA_STATUSES), options.genreId ? eq(gachas.genreId, options.genreId) : undefined))
    .orderBy(onSaleFirst, ...order, asc(gachas.id))
    .limit(Math.min(options.limit ?? 100, 200));
}

/** @example await getGacha(db, 'stellar-pokemon-001') */
export async function getGacha(db: Database, gachaId: string): Promise<GachaCard | null> {
  if (!isCatalogueId(gachaId)) return null;
  const rows = await db
    .select(gachaCardColumns)
    .from(gachas)
    .where(and(eq(gachas.id, gachaId), inArray(gachas.status, PUBLIC_GACHA_STATUSES)))
    .limit(1);
  return rows[0] ?? null;
}

/** The genre a public pack belongs to (the redirect-onepiece guard), or null. */
export async function genreOfGacha(db: Database, gachaId: string): Promise<string | null> {
  return (await getGacha(db, gachaId))?.genreId ?? null;
}

/** @example parseGachaSort('price_asc') === 'price_asc'; parseGachaSort('bogus') === 'recommended' */
export function parseGachaSort(value: string | null | undefined): GachaSort {
  return (GACHA_SORTS as readonly string[]).includes(value ?? '') ? (value as GachaSort) : 'recommended';
}

export interface GachaTierView {
  id: string;
  label: string;
  rank: number;
  effect: 'lastone' | 'rainbow' | 'gold' | 'silver' | 'normal';
  cardName: string;
  cardImagePath: string;
  rarity: string | null;
  cardGrade: string | null;
  cardSet: string | null;
  cardNumber: string | null;
  quantity: number;
  conversionValue: number;
  isLastOne: boolean;
}

export interface GachaDetail extends GachaCard {
  description: string;
  drawOptions: number[];
  perMemberLimit: number | null;
  minRank: number | null;
  commitment: string | null;
  committedAt: string | null;
  saleStartsAt: string | null;
  saleEndsAt: string | null;
  revealed: boolean;
  tiers: GachaTierView[];
}

const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);

/**
 * A public pack with its terms and prize tiers (best first; the ラストワン賞 leads).
 * @example const pack = await getGachaDetail(db, 'stellar-pokemon-004')
 */
export async function getGachaDetail(db: Database, gachaId: string): Promise<GachaDetail | null> {
  if (!isCatalogueId(gachaId)) return null;
  const [row] = await db.select().from(gachas).where(and(eq(gachas.id, gachaId), inArray(gachas.status, PUBLIC_GACHA_STATUSES)));
  if (!row) return null;
  const tiers = await db.select().from(gachaTiers).where(eq(gachaTiers.gachaId, gachaId)).orderBy(asc(gachaTiers.rank), asc(gachaTiers.id));
  return {
    id: row.id, genreId: row.genreId, title: row.title, imagePath: row.imagePath, pricePerDraw: row.pricePerDraw,
    totalLots: row.totalLots, remainingLots: row.remainingLots, status: row.status, tags: row.tags,
    description: row.description, drawOptions: row.drawOptions, perMemberLimit: row.perMemberLimit, minRank: row.minRank,
    commitment: row.commitment, committedAt: iso(row.committedAt), saleStartsAt: iso(row.saleStartsAt), saleEndsAt: iso(row.saleEndsAt),
    revealed: row.status === 'sold_out' || row.status === 'ended',
    tiers: tiers.map((t) => ({
      id: t.id, label: t.label, rank: t.rank, effect: t.effect, cardName: t.cardName, cardImagePath: t.cardImagePath,
      rarity: t.rarity, cardGrade: t.cardGrade, cardSet: t.cardSet, cardNumber: t.cardNumber, quantity: t.quantity,
      conversionValue: t.conversionValue, isLastOne: t.isLastOne,
    })),
  };
}
