// The draw's contract: what a draw and a prize look like to callers, the refusal codes, the request
// schemas (pages and the API read the same ones) and the idempotency hash.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { PrizeStatus } from './schema';
import { uuidSchema, type Refusal } from '#modules/kernel';

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
  /** A 個人キリ番賞: the member's own lot number it was won for (decision 088); null for every other prize. */
  personalKiriban: number | null;
  /** A ピタリ賞: the tier (id) whose last lot this draw took (decision 088); null for every other prize. */
  pitariOf: string | null;
  /** A 天井賞: the member's how-manieth 天井賞 of the pack it is (decision 089); null for every other prize. */
  ceilingNo: number | null;
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
  /**
   * A beacon pack's draw (decision 081): its receipt's stored fields. While `settled` is false the draw is
   * 抽選中: `items` is empty and its lots arrive when round `round` (or a later one) settles it.
   */
  receipt?: DrawReceiptState;
}

/** What the draw's answer carries of a beacon receipt (the server adds the commitment, pseudonym and signature). */
export interface DrawReceiptState {
  slots: number[];
  acceptedAt: string;
  round: number;
  afterHead: string;
  afterRound: number;
  settled: boolean;
}

/** Every refusal a draw can answer (the SQL's codes and DRAW_BUSY); refusal-words.ts words each one. */
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
  // The closure (the shop module's sales stop, read inside the draw's transaction; decision 085).
  'SALES_STOPPED',
  // The waiting room (decision 087): the member's window, read inside the draw's transaction.
  'WAITING_ROOM_NOT_JOINED',
  'WAITING_ROOM_NOT_YOUR_TURN',
  'WAITING_ROOM_WINDOW_CLOSED',
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
