// The draw's public API: draw lots, read a result, the prize box and its choices, the
// auto-conversion job, and a finished pack's reveal. The web pages, the JSON API and
// the operator's command line all call these functions.
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Database } from '#db/client';
import { prizes, draws, gachaMemberDraws, type PrizeStatus } from './schema';
import { returnPrizesFromShipping, storageEnd } from './prize-storage';
import { packTitles, tierCards } from '#modules/gacha';
import { SESSION_MAX_AGE_SECONDS, SESSION_UPDATE_AGE_SECONDS } from '#modules/identity';
import { isUuid, refuse, uuidSchema, type Outcome, type Refusal } from '#modules/kernel';
import { jstMonthStart, nextJstMonthStart } from '#modules/limits';

export { prizeStatuses, type PrizeStatus } from './schema';
export { getPackReveal, verifiedReveal } from './reveal';
export {
  KEPT_PRIZE_STORAGE_DAYS,
  KEPT_PRIZE_REMINDER_DAYS,
  storageEnd,
  reservePrizesForShipping,
  returnPrizesFromShipping,
  shippingPrizeCards,
  shippingPrizeRefs,
  lockShippingPrize,
  compensatePrizeFromShipping,
  remindKeptPrizes,
  type ShippingPrizeRef,
  type KeptPrizeReminderDays,
  type KeptPrizeReminder,
  type ShippingPrizeCard,
  type ShippingReservation,
} from './prize-storage';
export { completedDrawsForFold, type FoldedDraw } from './ranking-feed';
export {
  CONVERSION_UNDO_REFUSAL_CODES,
  undoConversion,
  type ConversionUndoOutcome,
  type ConversionUndoRefusal,
  type ConversionUndoRefusalCode,
} from './conversion-undo';
export { BEST_TIER_RANK, TOP_TIER_EFFECTS, isSOrBetter, isTopTier, type TopTierFacts } from './top-tier';
export {
  recordWins,
  recordRecentWins,
  recentlyDrawnPacks,
  listWins,
  winnerFeedPositionSchema,
  WINNER_FEED_MAX_PAGE,
  type WinnerFeedEntry,
  type WinnerFeedPosition,
} from './winners';
export {
  listDrawHistory,
  drawnPacksOf,
  drawHistoryFilterSchema,
  drawHistoryPositionSchema,
  DRAW_HISTORY_PERIODS,
  DRAW_HISTORY_HITS,
  DRAW_HISTORY_MAX_PAGE,
  type DrawHistoryFilter,
  type DrawHistoryPosition,
  type DrawHistoryItem,
  type DrawHistoryTier,
  type DrawHistoryPeriod,
  type DrawHistoryHits,
} from './history';
export {
  foldDrawRollups,
  drawDailyFigures,
  foldedLotsByPack,
  drawRollupsFoldedTo,
  type DrawDayFigures,
  type FoldOutcome,
  type RollupFoldRules,
} from './rollups';

/** Default choice window for a prize (docs/product.md): unchosen after it, converted automatically. */
export const PRIZE_DECISION_DAYS = 14;

export interface PrizeItem {
  prizeId: string;
  position: number | null;
  tierId: string;
  tierLabel: string;
  tierRank: number;
  effect: 'lastone' | 'rainbow' | 'gold' | 'silver' | 'normal';
  cardName: string;
  imagePath: string;
  rarity: string | null;
  cardGrade: string | null;
  conversionValue: number;
  isLastOne: boolean;
  /** A キリ番賞: the lot number it was won for (decision 027); null for every other prize. */
  kiriban: number | null;
  status: PrizeStatus;
  decideBy: string;
}

export interface DrawResult {
  drawId: string;
  gachaId: string;
  count: number;
  cost: number;
  lastOne: boolean;
  /** The キリ番 numbers this draw won (decision 027), ascending; usually empty. */
  kiriban: number[];
  createdAt: string;
  replay: boolean;
  items: PrizeItem[];
  balance: { paid: number; free: number };
}

/** Every refusal a draw can answer (the SQL's codes and DRAW_BUSY); server/refusals.ts words each one. */
export const DRAW_REFUSAL_CODES = [
  'GACHA_NOT_FOUND',
  'UNAUTHENTICATED',
  'STAFF_CANNOT_DRAW',
  'DRAW_COUNT_INVALID',
  'IDEMPOTENCY_KEY_REUSED',
  'SOLD_OUT',
  'NOT_ENOUGH_LOTS',
  'GACHA_ENDED',
  'GACHA_NOT_ON_SALE',
  'RANK_TOO_LOW',
  'INSUFFICIENT_COINS',
  'DRAW_LIMIT_REACHED',
  // Self-limits (docs/decisions/035): read in the draw's own call through the limits module's function.
  'SELF_EXCLUDED',
  'DRAW_SPEND_LIMIT_REACHED',
  'DRAW_BUSY',
  // Maintenance mode (the shop module's switch, read inside the draw's transaction).
  'MAINTENANCE',
] as const;
export type DrawRefusalCode = (typeof DRAW_REFUSAL_CODES)[number];

/** What the edge answers when getDrawResult or getPackReveal finds nothing to show. */
export const DRAW_LOOKUP_REFUSAL_CODES = ['DRAW_NOT_FOUND', 'NOT_REVEALED_YET'] as const;
export type DrawLookupRefusalCode = (typeof DRAW_LOOKUP_REFUSAL_CODES)[number];

/**
 * A draw's answer. A refusal's details carry what its message needs (NOT_ENOUGH_LOTS: remaining;
 * INSUFFICIENT_COINS: required, balance; DRAW_LIMIT_REACHED: limit, used); `stored` says whether
 * the refusal was recorded under the idempotency key.
 */
export type DrawOutcome =
  { ok: true; result: DrawResult } | (Refusal<DrawRefusalCode> & { stored: boolean; drawId?: string });

// ---------------------------------------------------------------------------------------------
// Inputs: one schema each, used by the pack page's action and the API's createDraw alike.

/** The most lots one draw may ask for; the pack's own options are checked by the draw (DRAW_COUNT_INVALID). */
export const MAX_DRAW_COUNT = 1000;

/** A draw request: how many lots. */
export const drawRequestSchema = z.object({
  count: z.int().min(1).max(MAX_DRAW_COUNT).meta({ description: '回数（例: 1, 10, 100）' }),
});
export type DrawRequest = z.output<typeof drawRequestSchema>;

/** The most cards one prize choice may name (a 100連 and then some). */
export const MAX_PRIZES_PER_CHOICE = 200;

/** A prize choice (keep for shipping): the member's prize ids. */
export const prizeChoiceSchema = z.object({
  prizeIds: z
    .array(uuidSchema)
    .min(1)
    .max(MAX_PRIZES_PER_CHOICE)
    .meta({ description: `獲得商品IDの一覧（1〜${MAX_PRIZES_PER_CHOICE}件）` }),
});

/** A conversion to coins: the prize ids, and whether kept cards may be among them. */
export const prizeConversionSchema = prizeChoiceSchema.extend({
  includeKept: z.boolean().optional().meta({
    description:
      '発送用に保管中（kept）のカードも交換するときだけ true。省略または false のとき、保管中のカードを含む依頼は何も交換せず 409 PRIZE_KEPT になります（まとめて交換で保管中のカードが消えないように）。',
  }),
});
export type PrizeConversionRequest = z.output<typeof prizeConversionSchema>;

/** A UTC instant as the prize box's paging hands it out (microseconds), and a real one (not 2024-02-31). */
const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
const isRealInstant = (text: string) =>
  Date.parse(text) >= 0 && new Date(text).toISOString().slice(0, 19) === text.slice(0, 19);

/**
 * Where a prize box page starts: after the prize with this claim time and id (listPrizes' `next`).
 * The page's links and the API's cursor both carry it; anything else would be a database error.
 */
export const prizeBoxPositionSchema = z.object({
  createdAt: z.string().regex(CURSOR_TIME).refine(isRealInstant),
  id: uuidSchema,
});

/** The hash stored with an idempotency key: the same key with another request is refused. */
export const drawRequestHash = (gachaId: string, count: number) =>
  createHash('sha256')
    .update(JSON.stringify({ op: 'createDraw', gachaId, count }))
    .digest('hex');

const RETRYABLE = new Set(['40001', '40P01', '55P03']);

/** The SQLSTATE of a database error, wrapped by Drizzle or not. */
export function sqlState(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RawAnswer {
  status: 'completed' | 'refused' | 'rejected';
  drawId?: string;
  code?: DrawRefusalCode;
  details?: Record<string, unknown>;
  replay?: boolean;
  gachaId?: string;
  count?: number;
  cost?: number;
  lastOne?: boolean;
  createdAt?: string;
  items?: PrizeItem[];
  balance?: { paid: number; free: number };
}

function toOutcome(raw: RawAnswer): DrawOutcome {
  if (raw.status === 'completed') {
    return {
      ok: true,
      result: {
        drawId: raw.drawId!,
        gachaId: raw.gachaId!,
        count: raw.count!,
        cost: raw.cost!,
        lastOne: Boolean(raw.lastOne),
        createdAt: new Date(raw.createdAt!).toISOString(),
        replay: Boolean(raw.replay),
        kiriban: (raw.items ?? [])
          .flatMap((item) => (item.kiriban == null ? [] : [item.kiriban]))
          .sort((a, b) => a - b),
        items: (raw.items ?? []).map((item) => ({
          ...item,
          kiriban: item.kiriban ?? null,
          decideBy: new Date(item.decideBy).toISOString(),
        })),
        balance: raw.balance ?? { paid: 0, free: 0 },
      },
    };
  }
  return { ...refuse(raw.code!, raw.details ?? {}), stored: raw.status === 'refused', drawId: raw.drawId };
}

/** The window in which better-auth would extend a session (a draw then goes the slower way). */
const REFRESH_BEFORE = `${SESSION_MAX_AGE_SECONDS - SESSION_UPDATE_AGE_SECONDS} seconds`;

export interface DrawInput {
  memberId: string;
  gachaId: string;
  count: number;
  /** The client's Idempotency-Key (1–255 characters). */
  idempotencyKey: string;
  /** The member's rank, needed only for packs with a minimum rank. */
  rank?: number;
  /** Days a prize waits for the member's choice (PRIZE_DECISION_DAYS): the shop's setting, always passed. */
  decisionDays: number;
  now?: Date;
}

/**
 * Draws `count` lots in one database call and one transaction. Retries the call itself when the
 * database asks (end-of-pack contention, deadlock); a retry is safe because nothing committed.
 * @example const outcome = await drawLots(db, { memberId, gachaId: 'stellar-pokemon-001', count: 10, idempotencyKey })
 */
export async function drawLots(db: Database, input: DrawInput): Promise<DrawOutcome> {
  const hash = drawRequestHash(input.gachaId, input.count);
  if (!Number.isSafeInteger(input.decisionDays) || input.decisionDays < 1)
    throw new RangeError('decisionDays must be a positive integer');
  const days = input.decisionDays;
  const query = sql`select draw_execute(${input.memberId}::text, ${input.gachaId}::text, ${input.count}::int,
    ${input.idempotencyKey}::text, ${hash}::text, ${input.rank ?? 0}::int, ${`${days} days`}::interval,
    ${input.now ? input.now.toISOString() : null}::timestamptz) as r`;
  return runDraw(db, query) as Promise<DrawOutcome>;
}

/**
 * The API's draw in one round trip: the session token (its signature already checked) is resolved
 * inside the same database call. Answers 'refresh' when the session is due for better-auth's daily
 * extension; the caller then resolves the member the usual way and calls drawLots.
 * @example const outcome = await drawLotsForSession(db, { sessionToken, gachaId, count: 1, idempotencyKey })
 */
export async function drawLotsForSession(
  db: Database,
  input: Omit<DrawInput, 'memberId'> & { sessionToken: string },
): Promise<DrawOutcome | 'refresh'> {
  const hash = drawRequestHash(input.gachaId, input.count);
  if (!Number.isSafeInteger(input.decisionDays) || input.decisionDays < 1)
    throw new RangeError('decisionDays must be a positive integer');
  const days = input.decisionDays;
  const query = sql`select draw_execute_for_session(${input.sessionToken}::text, ${REFRESH_BEFORE}::interval, ${input.gachaId}::text,
    ${input.count}::int, ${input.idempotencyKey}::text, ${hash}::text, ${input.rank ?? 0}::int, ${`${days} days`}::interval,
    ${input.now ? input.now.toISOString() : null}::timestamptz) as r`;
  return runDraw(db, query);
}

async function runDraw(db: Database, query: ReturnType<typeof sql>): Promise<DrawOutcome | 'refresh'> {
  for (let attempt = 0; ; attempt++) {
    try {
      const [row] = await queryRows<{ r: RawAnswer | { status: 'refresh' } }>(db, query);
      const raw = row!.r;
      return raw.status === 'refresh' ? 'refresh' : toOutcome(raw as RawAnswer);
    } catch (error) {
      const state = sqlState(error);
      if (!state || !RETRYABLE.has(state)) throw error;
      if (attempt >= 30) return { ...refuse('DRAW_BUSY'), stored: false };
      await sleep(Math.min(200, 2 + Math.random() * 4 * (attempt + 1) ** 1.5));
    }
  }
}

/**
 * A draw's result for its own member, or null (missing or someone else's: the caller answers 404).
 * @example const result = await getDrawResult(db, member.id, params.resultId)
 */
export async function getDrawResult(db: Database, memberId: string, drawId: string): Promise<DrawResult | null> {
  if (!isUuid(drawId)) return null;
  const [row] = await db
    .select({ memberId: draws.memberId, status: draws.status })
    .from(draws)
    .where(eq(draws.id, drawId));
  if (!row || row.memberId !== memberId || row.status !== 'completed') return null;
  const [answer] = await queryRows<{ r: RawAnswer }>(db, sql`select draw_answer(${drawId}::uuid, true) as r`);
  const outcome = toOutcome(answer!.r);
  return outcome.ok ? outcome.result : null;
}

export interface PrizeBoxItem extends PrizeItem {
  /** How many of its pack's regular tiers stand below the prize's (0: the pack's lowest; decision 057). */
  tiersBelow: number;
  /** A kept prize's end of storage (then it is converted); null for the others. */
  keepUntil: string | null;
  drawId: string;
  gachaId: string;
  gachaTitle: string;
  genreId: string;
  createdAt: string;
}

/**
 * The member's prize box, newest first. `status` filters (default: the undecided and kept ones).
 * @example const { items, nextBefore } = await listPrizes(db, member.id, { status: ['pending'] })
 */
export async function listPrizes(
  db: Database,
  memberId: string,
  options: { status?: PrizeStatus[]; limit?: number; before?: { createdAt: string; id: string } } = {},
): Promise<{ items: PrizeBoxItem[]; next: { createdAt: string; id: string } | null }> {
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 100);
  const statuses = options.status?.length ? options.status : (['pending', 'kept'] as PrizeStatus[]);
  const before = options.before;
  const rows = await db
    .select({
      prizeId: prizes.id,
      drawId: prizes.drawId,
      gachaId: prizes.gachaId,
      position: prizes.position,
      kiriban: prizes.kiribanNo,
      status: prizes.status,
      decideBy: prizes.decideBy,
      keepUntil: prizes.keepUntil,
      conversionValue: prizes.conversionValue,
      createdAt: prizes.createdAt,
      tierId: prizes.tierId,
      // The cursor keeps the full microsecond precision of the claim time.
      cursorAt: sql<string>`to_char(${prizes.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(prizes)
    .where(
      and(
        eq(prizes.memberId, memberId),
        inArray(prizes.status, statuses),
        before
          ? sql`(${prizes.createdAt}, ${prizes.id}) < (${before.createdAt}::timestamptz, ${before.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(prizes.createdAt), desc(prizes.id))
    .limit(limit + 1);
  const cards = await tierCards(
    db,
    rows.slice(0, limit).map((r) => r.tierId),
  );
  const items = rows.slice(0, limit).flatMap(({ cursorAt: _cursorAt, ...r }) => {
    const card = cards.get(r.tierId);
    if (!card) return [];
    const { gachaId: _gachaId, ...named } = card;
    return [
      {
        ...r,
        ...named,
        decideBy: new Date(r.decideBy).toISOString(),
        keepUntil: r.status === 'kept' && r.keepUntil ? new Date(r.keepUntil).toISOString() : null,
        createdAt: new Date(r.createdAt).toISOString(),
      },
    ];
  });
  const last = rows[limit - 1];
  return { items, next: rows.length > limit && last ? { createdAt: last.cursorAt, id: last.prizeId } : null };
}

/** One of a member's draws as the operators' member console lists it. */
export interface MemberDrawRow {
  id: string;
  gachaId: string;
  gachaTitle: string;
  count: number;
  cost: number;
  status: string;
  errorCode: string | null;
  lastOne: boolean;
  /** The キリ番 this draw won (lot numbers), if any. */
  kiriban: number[];
  createdAt: string;
}

/**
 * A member's draws, newest first, a page of `limit` before the cursor (draws_member_idx serves it).
 * @example const { items, next } = await listMemberDraws(db, memberId, { limit: 20 })
 */
export async function listMemberDraws(
  db: Database,
  memberId: string,
  options: { limit: number; before?: { createdAt: string; id: string } },
): Promise<{ items: MemberDrawRow[]; next: { createdAt: string; id: string } | null }> {
  const limit = Math.min(Math.max(options.limit, 1), 100);
  const before = options.before && isUuid(options.before.id) ? options.before : undefined;
  const rows = await db
    .select({
      id: draws.id,
      gachaId: draws.gachaId,
      count: draws.count,
      cost: draws.cost,
      status: draws.status,
      errorCode: draws.errorCode,
      lastOne: draws.lastOne,
      createdAt: draws.createdAt,
      cursorAt: sql<string>`to_char(${draws.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(draws)
    .where(
      and(
        eq(draws.memberId, memberId),
        before
          ? sql`(${draws.createdAt}, ${draws.id}) < (${before.createdAt}::timestamptz, ${before.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(draws.createdAt), desc(draws.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const packs = await packTitles(
    db,
    page.map((r) => r.gachaId),
  );
  const kiriban = page.length
    ? await db
        .select({ drawId: prizes.drawId, no: prizes.kiribanNo })
        .from(prizes)
        .where(
          and(
            eq(prizes.memberId, memberId),
            inArray(
              prizes.drawId,
              page.map((r) => r.id),
            ),
            isNotNull(prizes.kiribanNo),
          ),
        )
    : [];
  const last = page.at(-1);
  return {
    items: page.map(({ cursorAt: _cursorAt, ...r }) => ({
      ...r,
      kiriban: kiriban.filter((k) => k.drawId === r.id).map((k) => k.no!),
      gachaTitle: packs.get(r.gachaId)?.title ?? r.gachaId,
      createdAt: new Date(r.createdAt).toISOString(),
    })),
    next: rows.length > limit && last ? { createdAt: last.cursorAt, id: last.id } : null,
  };
}

/**
 * What the member's own draws were (pack and count), for the coin history. Another member's draw
 * is simply absent.
 * @example (await describeDraws(db, member.id, [drawId])).get(drawId)?.gachaTitle
 */
export async function describeDraws(
  db: Database,
  memberId: string,
  drawIds: string[],
): Promise<Map<string, { gachaId: string; genreId: string; gachaTitle: string; count: number }>> {
  const ids = drawIds.filter(isUuid);
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: draws.id, gachaId: draws.gachaId, count: draws.count })
    .from(draws)
    .where(and(eq(draws.memberId, memberId), inArray(draws.id, ids)));
  const packs = await packTitles(
    db,
    rows.map((r) => r.gachaId),
  );
  return new Map(
    rows.flatMap(({ id, gachaId, count }) => {
      const pack = packs.get(gachaId);
      return pack ? [[id, { gachaId, genreId: pack.genreId, gachaTitle: pack.title, count }] as const] : [];
    }),
  );
}

/**
 * The member's latest completed draws, newest first (pack title and count): what a member may name in
 * an inquiry. Another member's draws never appear.
 * @example const draws = await listRecentDraws(db, member.id, 10)
 */
export async function listRecentDraws(
  db: Database,
  memberId: string,
  limit: number,
): Promise<
  { drawId: string; gachaId: string; genreId: string; gachaTitle: string; count: number; createdAt: string }[]
> {
  const rows = await db
    .select({ id: draws.id, gachaId: draws.gachaId, count: draws.count, createdAt: draws.createdAt })
    .from(draws)
    .where(and(eq(draws.memberId, memberId), eq(draws.status, 'completed')))
    .orderBy(desc(draws.createdAt), desc(draws.id))
    .limit(Math.min(Math.max(limit, 1), 100));
  const packs = await packTitles(
    db,
    rows.map((r) => r.gachaId),
  );
  return rows.flatMap((r) => {
    const pack = packs.get(r.gachaId);
    return pack
      ? [
          {
            drawId: r.id,
            gachaId: r.gachaId,
            genreId: pack.genreId,
            gachaTitle: pack.title,
            count: r.count,
            createdAt: r.createdAt.toISOString(),
          },
        ]
      : [];
  });
}

/**
 * The member's own prizes by id (tier and card), for the coin history's conversion rows.
 * @example (await describePrizes(db, member.id, prizeIds)).get(prizeId)?.cardName
 */
export async function describePrizes(
  db: Database,
  memberId: string,
  prizeIds: string[],
): Promise<
  Map<
    string,
    {
      tierLabel: string;
      tierRank: number;
      isLastOne: boolean;
      effect: PrizeItem['effect'];
      cardName: string;
      conversionValue: number;
    }
  >
> {
  const ids = prizeIds.filter(isUuid);
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: prizes.id, conversionValue: prizes.conversionValue, tierId: prizes.tierId })
    .from(prizes)
    .where(and(eq(prizes.memberId, memberId), inArray(prizes.id, ids)));
  const cards = await tierCards(
    db,
    rows.map((r) => r.tierId),
  );
  return new Map(
    rows.flatMap(({ id, conversionValue, tierId }) => {
      const card = cards.get(tierId);
      if (!card) return [];
      const { tierLabel, tierRank, isLastOne, effect, cardName } = card;
      return [[id, { tierLabel, tierRank, isLastOne, effect, cardName, conversionValue }] as const];
    }),
  );
}

/**
 * How many of the member's prizes are in each state (the prize box's filters).
 * @example await countPrizesByStatus(db, member.id) // { pending: 12, kept: 3, converted: 80, shipping: 0 }
 */
export async function countPrizesByStatus(db: Database, memberId: string): Promise<Record<PrizeStatus, number>> {
  const rows = await db
    .select({ status: prizes.status, n: sql<string>`count(*)` })
    .from(prizes)
    .where(eq(prizes.memberId, memberId))
    .groupBy(prizes.status);
  const counts: Record<PrizeStatus, number> = { pending: 0, kept: 0, converted: 0, shipping: 0 };
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}

/** Every refusal of a prize choice (convert, keep); the SQL's prize_convert answers the same codes. */
export const PRIZE_CHOICE_REFUSAL_CODES = ['PRIZE_NOT_FOUND', 'PRIZE_ALREADY_DECIDED', 'PRIZE_KEPT'] as const;
export type PrizeChoiceRefusalCode = (typeof PRIZE_CHOICE_REFUSAL_CODES)[number];
export type PrizeChoiceRefusal = Refusal<PrizeChoiceRefusalCode>;

export type PrizeChoiceOutcome = Outcome<
  {
    ok: true;
    converted: { prizeId: string; coins: number }[];
    total: number;
    balance: { paid: number; free: number };
    /** With `undoSeconds`: the conversion's id for undoConversion, and until when (decision 057); else null. */
    undo: { conversionId: string; until: string } | null;
  },
  PrizeChoiceRefusalCode
>;

export interface ConvertOptions {
  /** The deadline job: converts only what is still undecided and due, never a kept prize. */
  auto?: boolean;
  /**
   * A kept prize may be converted only when the request says so (one card, after its own
   * confirmation). Without it a request that names a kept prize converts nothing (PRIZE_KEPT).
   */
  includeKept?: boolean;
  now?: Date;
  /** Lifetime of the free coins a conversion grants (FREE_COIN_EXPIRY_DAYS): the shop's setting, always passed. */
  freeCoinDays: number;
  /**
   * A member's own conversion (CONVERT_UNDO_SECONDS): it may be undone for this many seconds with
   * undoConversion (decision 057). Left out by the deadline job and the shipping desk: theirs cannot be.
   */
  undoSeconds?: number;
}

/**
 * Converts the member's chosen prizes to free coins (all or none; each a ledger entry). Prizes kept
 * for shipping are refused unless `includeKept` is set.
 * @example await convertPrizes(db, member.id, [prizeId])
 */
export async function convertPrizes(
  db: Database,
  memberId: string,
  prizeIds: string[],
  options: ConvertOptions,
): Promise<PrizeChoiceOutcome> {
  // A setting lost on the way (a partial config cast) must stop here, not reach SQL as 'undefined days'.
  if (!Number.isSafeInteger(options.freeCoinDays) || options.freeCoinDays < 1)
    throw new RangeError('freeCoinDays must be a positive integer');
  if (prizeIds.length === 0 || !prizeIds.every(isUuid)) return refuse('PRIZE_NOT_FOUND');
  const undoSeconds = options.auto ? undefined : options.undoSeconds;
  if (undoSeconds !== undefined && (!Number.isSafeInteger(undoSeconds) || undoSeconds < 1))
    throw new RangeError('undoSeconds must be a positive integer');
  type Converted = {
    status: string;
    code?: string;
    converted?: { prizeId: string; coins: number }[];
    total?: number;
    balance?: { paid: number; free: number };
    conversionId?: string | null;
    undoUntil?: string | null;
  };
  const [row] = await queryRows<{ r: Converted }>(
    db,
    sql`select prize_convert(${memberId}::text, ${`{${prizeIds.join(',')}}`}::uuid[], ${options.auto ?? false}::boolean,
    ${options.includeKept ?? false}::boolean, ${`${options.freeCoinDays} days`}::interval,
    ${options.now ? options.now.toISOString() : null}::timestamptz,
    ${undoSeconds ? `${undoSeconds} seconds` : null}::interval) as r`,
  );
  const raw = row!.r;
  if (raw.status !== 'completed') {
    const code = PRIZE_CHOICE_REFUSAL_CODES.find((c) => c === raw.code) ?? 'PRIZE_NOT_FOUND';
    return refuse(code);
  }
  return {
    ok: true,
    converted: raw.converted ?? [],
    total: raw.total ?? 0,
    balance: raw.balance ?? { paid: 0, free: 0 },
    undo:
      raw.conversionId && raw.undoUntil
        ? { conversionId: raw.conversionId, until: new Date(raw.undoUntil).toISOString() }
        : null,
  };
}

/**
 * Keeps undecided prizes for shipping: they leave the auto-conversion deadline and wait for a shipping
 * request until the end of their storage period (`storageDays`, KEPT_PRIZE_STORAGE_DAYS), which keeping
 * an already kept prize again does not extend.
 * @example await keepPrizes(db, member.id, [prizeId], { storageDays: config.KEPT_PRIZE_STORAGE_DAYS })
 */
export async function keepPrizes(
  db: Database,
  memberId: string,
  prizeIds: string[],
  options: { storageDays: number; now?: Date },
): Promise<Outcome<{ ok: true; kept: number }, 'PRIZE_NOT_FOUND' | 'PRIZE_ALREADY_DECIDED'>> {
  const now = options.now ?? new Date();
  const keepUntil = storageEnd(now, options.storageDays);
  if (prizeIds.length === 0 || !prizeIds.every(isUuid)) return refuse('PRIZE_NOT_FOUND');
  return db.transaction(async (tx) => {
    const owned = await tx
      .select({ id: prizes.id, status: prizes.status })
      .from(prizes)
      .where(and(eq(prizes.memberId, memberId), inArray(prizes.id, prizeIds)))
      .orderBy(asc(prizes.id))
      .for('update');
    if (owned.length !== new Set(prizeIds).size) return refuse('PRIZE_NOT_FOUND');
    if (owned.some((p) => p.status !== 'pending' && p.status !== 'kept')) return refuse('PRIZE_ALREADY_DECIDED');
    await tx
      .update(prizes)
      .set({
        status: 'kept',
        decidedAt: now,
        keepUntil: sql`coalesce(${prizes.keepUntil}, ${keepUntil.toISOString()}::timestamptz)`,
      })
      .where(and(eq(prizes.memberId, memberId), inArray(prizes.id, prizeIds)));
    return { ok: true as const, kept: owned.length };
  });
}

/**
 * A returned or canceled shipping request's prizes, converted to free coins on the operator's word
 * (each a ledger entry, reason prize_conversion). Call it inside the request's transaction; the
 * prizes must be the member's and in 'shipping' (anything else is a broken invariant and throws).
 * @example await convertPrizesFromShipping(tx, request.memberId, prizeIds, { freeCoinDays: config.FREE_COIN_EXPIRY_DAYS })
 */
export async function convertPrizesFromShipping(
  tx: Database,
  memberId: string,
  prizeIds: string[],
  options: { freeCoinDays: number; now?: Date },
): Promise<{ converted: { prizeId: string; coins: number }[]; total: number }> {
  const now = options.now ?? new Date();
  // Back to the box for an instant, then the one conversion rule (prize_convert) under the same locks.
  await returnPrizesFromShipping(tx, memberId, prizeIds, { storageDays: 1, now });
  const outcome = await convertPrizes(tx, memberId, prizeIds, {
    includeKept: true,
    freeCoinDays: options.freeCoinDays,
    now,
  });
  if (!outcome.ok) throw new Error(`convertPrizesFromShipping: ${outcome.code} for prizes in a shipping request`);
  return { converted: outcome.converted, total: outcome.total };
}

/** What the deadline job converted for one member, handed to its `onConverted` in the same transaction. */
export interface AutoConversion {
  memberId: string;
  /** Each prize converted; `wasKept` for a kept prize whose storage period ended (its own mail). */
  converted: { prizeId: string; coins: number; wasKept: boolean }[];
  total: number;
}

/**
 * The deadline job: converts every undecided prize past its choice window and every kept prize past
 * its storage period, member by member (decision 009: a kept prize goes only at the end of its
 * storage, never with the undecided ones). `onConverted` runs in each member's conversion
 * transaction (the shipping module's mail), so the notice exists exactly when the conversion does.
 * @example await autoConvertDuePrizes(db, config.FREE_COIN_EXPIRY_DAYS) // → number of prizes converted
 */
export async function autoConvertDuePrizes(
  db: Database,
  freeCoinDays: number,
  now = new Date(),
  batch = 200,
  onConverted?: (tx: Database, conversion: AutoConversion) => Promise<void>,
): Promise<number> {
  let total = 0;
  const at = now.toISOString();
  for (;;) {
    const due = await db
      .select({ id: prizes.id, memberId: prizes.memberId, status: prizes.status })
      .from(prizes)
      .where(
        or(
          and(eq(prizes.status, 'pending'), sql`${prizes.decideBy} <= ${at}::timestamptz`),
          and(eq(prizes.status, 'kept'), sql`${prizes.keepUntil} <= ${at}::timestamptz`),
        ),
      )
      .orderBy(asc(prizes.id))
      .limit(batch);
    if (due.length === 0) return total;
    const byMember = new Map<string, string[]>();
    for (const p of due) byMember.set(p.memberId, [...(byMember.get(p.memberId) ?? []), p.id]);
    const wasKept = new Set(due.filter((p) => p.status === 'kept').map((p) => p.id));
    for (const [memberId, ids] of byMember) {
      // Under the row locks only what is still due is converted: a choice, a keep or a shipping
      // request made since the selection above stands. A prize converted here was in the state it
      // was selected in (a pending one kept meanwhile is no longer due), so `wasKept` holds.
      const converted = await db.transaction(async (tx) => {
        const outcome = await convertPrizes(tx, memberId, ids, { auto: true, now, freeCoinDays });
        if (!outcome.ok || outcome.converted.length === 0) return 0;
        if (onConverted)
          await onConverted(tx, {
            memberId,
            converted: outcome.converted.map((c) => ({ ...c, wasKept: wasKept.has(c.prizeId) })),
            total: outcome.total,
          });
        return outcome.converted.length;
      });
      total += converted;
    }
    if (due.length < batch) return total;
  }
}

/** Lots a member has drawn from a pack with a per-member limit (0 when none). */
export async function memberDrawnLots(db: Database, gachaId: string, memberId: string): Promise<number> {
  const [row] = await db
    .select({ lots: gachaMemberDraws.lots })
    .from(gachaMemberDraws)
    .where(and(eq(gachaMemberDraws.gachaId, gachaId), eq(gachaMemberDraws.memberId, memberId)));
  return row?.lots ?? 0;
}
export { drawsExportBatch } from './export';
export { drawVelocitySince, type DrawVelocity } from './risk-feed';
export {
  firstDrawsByPack,
  lastDrawBefore,
  membersWhoDrewFrom,
  membersWhoDrewBetween,
  pendingPrizeDeadlines,
  type PrizeDeadlineGroup,
} from './activity';

/**
 * Coins the member spent on completed draws in the Japan-time month of `now`: what the
 * draw-spend limit counts (draw.sql counts the same inside the draw). One range read on draws_member_idx.
 * @example const spent = await monthlyDrawSpend(db, memberId) // 12000
 */
export async function monthlyDrawSpend(db: Database, memberId: string, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${draws.cost}), 0)` })
    .from(draws)
    .where(
      and(
        eq(draws.memberId, memberId),
        sql`${draws.createdAt} >= ${jstMonthStart(now).toISOString()}::timestamptz`,
        sql`${draws.createdAt} < ${nextJstMonthStart(now).toISOString()}::timestamptz`,
        eq(draws.status, 'completed'),
      ),
    );
  return Number(row?.total ?? 0);
}
