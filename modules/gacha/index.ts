// The catalogue's public API: genres and packs for pages, the API and the guards; the operators'
// pack lifecycle (admin.ts), remaining lots (remaining.ts) and the card read model (cards.ts).
import { and, asc, desc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { genres, gachas, gachaTiers, type GachaStatus } from './schema';

export type { GachaStatus } from './schema';
export {
  getRemaining,
  countUnclaimed,
  remainingOf,
  refreshRemainingCache,
  refreshAllRemaining,
  type TierRemaining,
} from './remaining';
export {
  tierCards,
  packTitles,
  packIdsInGenre,
  shownPackIds,
  revealedPackProofs,
  type TierCard,
  type PackProof,
} from './cards';
export { kiribanProgress, type KiribanProgress } from './kiriban';
export {
  createPack,
  publishPack,
  endPack,
  advanceSaleWindows,
  listPublishedPackIds,
  packRevealTerms,
  packRevealStamp,
  addGenres,
  packExists,
  deleteUnpublishedPacks,
  packDefinitionSchema,
  tierDefinitionSchema,
  PackAdminError,
  PACK_ADMIN_REFUSAL_CODES,
  type PackAdminRefusalCode,
  type PackDefinition,
  type PackRevealTerms,
  type GenreDefinition,
} from './admin';
export {
  packBasicsSchema,
  packSaleSchema,
  tierRowSchema,
  packTiersSchema,
  tierRowOf,
  packForEditor,
  listPacksForEditor,
  createDraft,
  updateDraft,
  setDraftTiers,
  setDraftTierImage,
  copyPackToDraft,
  packNumbers,
  forbiddenWordsIn,
  prePublishChecks,
  drawOptionsOverLots,
  DEFAULT_FORBIDDEN_PACK_WORDS,
  PACK_TAGS,
  TIER_KINDS,
  GRADE_COMPANIES,
  type PackBasics,
  type PackSale,
  type TierRow,
  type PackNumbers,
  type PackCostRules,
  type PrePublishCheck,
  type DraftChange,
} from './editor';
export { listPublicPackPaths } from './sitemap';
export {
  stockIdentityKey,
  stockReceiptSchema,
  stockAdjustmentSchema,
  stockListFilterSchema,
  receiveStock,
  adjustStock,
  listStock,
  substituteCandidates,
  stockCardsById,
  stockCardOfPrize,
  moveStockOfPrizes,
  lockStockOfPrizes,
  reportPrizeCardGone,
  prizeSubstitutes,
  StockError,
  STOCK_REFUSAL_CODES,
  STOCK_PAGE_SIZE,
  type StockRefusalCode,
  type StockIdentity,
  type StockReceipt,
  type StockAdjustment,
  type StockListFilter,
  type StockCardView,
  type StockShortfall,
  type StockPrize,
  type PrizeStockMove,
} from './stock';

/** Statuses a visitor may see; drafts stay hidden. */
export const PUBLIC_GACHA_STATUSES: GachaStatus[] = ['scheduled', 'on_sale', 'sold_out', 'ended'];

/** What the edge answers when a pack or genre asked for does not exist (or is not public). */
export const GACHA_LOOKUP_REFUSAL_CODES = ['GACHA_NOT_FOUND', 'GENRE_NOT_FOUND'] as const;
export type GachaLookupRefusalCode = (typeof GACHA_LOOKUP_REFUSAL_CODES)[number];

/** A pack id as the catalogue, the draw and the API accept it (ids are short slugs). */
export const gachaIdSchema = z.string().min(1).max(100);

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

/** Ids of genres and packs: ASCII letters, digits, '-' and '_' (they appear in URLs). */
const CATALOGUE_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** @example isCatalogueId('stellar-pokemon-001') === true; isCatalogueId('a b') === false */
export const isCatalogueId = (value: string) => CATALOGUE_ID.test(value);

/** Packs whose genre members see (the lists and the sitemap): a hidden genre's pages answer 404. */
export const inShownGenre = (db: Database) =>
  inArray(gachas.genreId, db.select({ id: genres.id }).from(genres).where(genreShown()));

/**
 * A genre members see: shown, and inside its window if it has one (docs/decisions/031), compared at
 * read time with the server's clock.
 */
function genreShown() {
  const now = new Date();
  return and(
    eq(genres.visible, true),
    or(isNull(genres.startsAt), lte(genres.startsAt, now)),
    or(isNull(genres.endsAt), gt(genres.endsAt, now)),
  );
}

/** @example const tabs = await listGenres(db) */
export async function listGenres(db: Database): Promise<GenreSummary[]> {
  return db
    .select({ id: genres.id, name: genres.name, iconPath: genres.iconPath })
    .from(genres)
    .where(genreShown())
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
    .where(and(genreShown(), sql`(${genres.id} = ${wanted} or ${wanted} = any(${genres.aliases}))`))
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
 * The headline prize of each listed pack, in the same query: one correlated look-up per row on
 * gacha_tiers_gacha_idx (gacha_id, rank), so a list never costs a query per pack. Regular tiers come
 * before the ラストワン賞 and キリ番賞 (extra prizes; rank 0 would otherwise win), then the lowest rank. The outer
 * column is written qualified by hand: drizzle leaves it bare in a one-table select, where it would
 * name the tier's own id.
 */
const headlineColumn = sql<HeadlinePrize | string | null>`(
  select json_build_object('label', t.label, 'cardName', t.card_name, 'cardImagePath', t.card_image_path)
  from gacha_tiers t where t.gacha_id = "gachas"."id"
  order by (t.is_last_one or t.kiriban_at is not null) asc, t.rank asc, t.id asc limit 1)`;

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
export function headlineTier<T extends { rank: number; isLastOne: boolean; kiribanAt?: number[] | null }>(
  tiers: readonly T[],
): T | null {
  const regular = tiers.filter((t) => !t.isLastOne && !t.kiribanAt);
  const pool = regular.length > 0 ? regular : tiers;
  return pool.reduce<T | null>((best, t) => (best === null || t.rank < best.rank ? t : best), null);
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
export async function genreOfGacha(
  db: Database,
  gachaId: string,
  options: { draft?: boolean } = {},
): Promise<string | null> {
  const found = (await getGacha(db, gachaId))?.genreId ?? null;
  if (found || !options.draft || !isCatalogueId(gachaId)) return found;
  // A draft, for the editor's preview only (the caller has checked the operator).
  const [draft] = await db
    .select({ genreId: gachas.genreId })
    .from(gachas)
    .where(and(eq(gachas.id, gachaId), eq(gachas.status, 'draft')));
  return draft?.genreId ?? null;
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
  /** A キリ番賞 (decision 027): the lot numbers, in sale order, that win it; null for every other tier. */
  kiribanAt: number[] | null;
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
export async function getGachaDetail(
  db: Database,
  gachaId: string,
  options: { draft?: boolean } = {},
): Promise<GachaDetail | null> {
  if (!isCatalogueId(gachaId)) return null;
  // `draft`: the editor's preview of a draft (the page checks the operator first); never for visitors.
  const statuses = options.draft ? (['draft'] as const) : PUBLIC_GACHA_STATUSES;
  const [row] = await db
    .select()
    .from(gachas)
    .where(and(eq(gachas.id, gachaId), inArray(gachas.status, statuses)));
  if (!row) return null;
  const tiers = await db
    .select()
    .from(gachaTiers)
    .where(eq(gachaTiers.gachaId, gachaId))
    .orderBy(asc(gachaTiers.rank), asc(gachaTiers.id));
  return {
    id: row.id,
    genreId: row.genreId,
    title: row.title,
    imagePath: row.imagePath,
    pricePerDraw: row.pricePerDraw,
    totalLots: row.totalLots,
    remainingLots: row.remainingLots,
    status: row.status,
    tags: row.tags,
    description: row.description,
    drawOptions: row.drawOptions,
    perMemberLimit: row.perMemberLimit,
    minRank: row.minRank,
    commitment: row.commitment,
    committedAt: iso(row.committedAt),
    saleStartsAt: iso(row.saleStartsAt),
    saleEndsAt: iso(row.saleEndsAt),
    revealed: row.status === 'sold_out' || row.status === 'ended',
    tiers: tiers.map((t) => ({
      id: t.id,
      label: t.label,
      rank: t.rank,
      effect: t.effect,
      cardName: t.cardName,
      cardImagePath: t.cardImagePath,
      rarity: t.rarity,
      cardGrade: t.cardGrade,
      cardSet: t.cardSet,
      cardNumber: t.cardNumber,
      quantity: t.quantity,
      conversionValue: t.conversionValue,
      isLastOne: t.isLastOne,
      kiribanAt: t.kiribanAt ?? null,
    })),
  };
}

/** A prize tier named for lists outside the pack page (ranking boards). */
export interface TierName {
  tierId: string;
  gachaId: string;
  packTitle: string;
  label: string;
  cardName: string;
  cardImagePath: string;
}

/**
 * Names of the given tiers of public packs, in one query (at most 200 ids are read).
 * @example (await describeTiers(db, ['stellar-pokemon-001.S'])).get('stellar-pokemon-001.S')?.label // 'S賞'
 */
export async function describeTiers(db: Database, tierIds: string[]): Promise<Map<string, TierName>> {
  const ids = [...new Set(tierIds)].slice(0, 200);
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      tierId: gachaTiers.id,
      gachaId: gachaTiers.gachaId,
      packTitle: gachas.title,
      label: gachaTiers.label,
      cardName: gachaTiers.cardName,
      cardImagePath: gachaTiers.cardImagePath,
    })
    .from(gachaTiers)
    .innerJoin(gachas, eq(gachas.id, gachaTiers.gachaId))
    .where(and(inArray(gachaTiers.id, ids), inArray(gachas.status, PUBLIC_GACHA_STATUSES)));
  return new Map(rows.map((row) => [row.tierId, row]));
}
export {
  GENRE_REFUSAL_CODES,
  genreFormSchema,
  listAllGenres,
  saveGenre,
  type GenreAdminView,
  type GenreForm,
  type GenreRefusalCode,
} from './genres';
export { gachaSettings } from './settings';
export {
  GACHA_LOOKUP_REFUSAL_WORDS,
  GENRE_REFUSAL_WORDS,
  PACK_ADMIN_REFUSAL_WORDS,
  STOCK_REFUSAL_WORDS,
} from './refusal-words';
