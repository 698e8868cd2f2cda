// One pack: its card, its genre, its detail with tiers; tier names for lists outside the pack page.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '#db/client';
import { gachas, gachaTiers, type DrawMode } from './schema';
import { type GachaCard, gachaCardColumns } from './lists';
import { isCatalogueId, PUBLIC_GACHA_STATUSES } from './catalogue';
import { photoOf } from './certificates';
import { allZorome } from './kiriban';
import { extraNoteOf } from './extra-prizes';

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
  /** A キリ番賞 on ゾロ目 throughout (11, 22, 111…): the pack page calls it a ゾロ目賞 (issue 34 item 2). */
  zorome: boolean;
  /** A 個人キリ番賞 (decision 088): a member's own lot numbers that win it; null for every other tier. */
  personalKiribanAt: number[] | null;
  /** A ピタリ賞 (decision 088): the tier (id) whose last lot wins it; null for every other tier. */
  pitariOf: string | null;
  /** A 天井賞 (decision 089): the lots in a row without a hit, and the hits (tier ids); null for every other tier. */
  ceilingAfter: number | null;
  ceilingOf: string[] | null;
  /**
   * Who receives an extra prize, in members' words (「100口目・500口目を引いた方」), or null for a lot tier: made
   * here once, so the page's script does not carry the wording of every kind (extra-prizes.ts).
   */
  extraNote: string | null;
  /** A graded card's certificate (issue 33 item 8): its company and number, or null. */
  certificate: { company: string; number: string } | null;
  /** The card's photo kept byte for byte: its SHA-256 and where the original is served, or null. */
  photo: { sha256: string; originalPath: string } | null;
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
  /** How its lots are decided (decision 081): a seed's order, or drand rounds after each draw. */
  drawMode: DrawMode;
  /** The waiting room (decision 087), or null when the pack opens without one. */
  waitingRoom: { windowSeconds: number; batch: number } | null;
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
    drawMode: row.drawMode,
    waitingRoom: row.waitingRoom ? { windowSeconds: row.waitingRoomWindowSeconds, batch: row.waitingRoomBatch } : null,
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
      zorome: allZorome(t.kiribanAt ?? []),
      personalKiribanAt: t.personalKiribanAt ?? null,
      pitariOf: t.pitariOf ?? null,
      ceilingAfter: t.ceilingAfter ?? null,
      ceilingOf: t.ceilingOf ?? null,
      extraNote: extraNoteOf(t, tiers),
      certificate:
        t.certificateCompany && t.certificateNumber
          ? { company: t.certificateCompany, number: t.certificateNumber }
          : null,
      photo: photoOf(t),
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
