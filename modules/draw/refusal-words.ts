// The draw's refusal words: each code's HTTP status and Japanese message (gathered by modules/refusals).
// Codes the draw shares with gacha, wallet, limits and shop take those modules' words, so each is worded once.
import { COMMON_REFUSAL_WORDS, digits, type RefusalWords } from '#modules/kernel';
import { GACHA_LOOKUP_REFUSAL_WORDS } from '#modules/gacha';
import { WALLET_REFUSAL_WORDS } from '#modules/wallet';
import { SELF_EXCLUSION_REFUSAL_WORDS } from '#modules/limits';
import { MAINTENANCE_REFUSAL_WORDS, SALES_STOPPED_REFUSAL_WORDS } from '#modules/shop';
import { WAITING_ROOM_DRAW_REFUSAL_WORDS } from '#modules/waitingroom';
import type { DrawRefusalCode, DrawLookupRefusalCode } from './contract';
import type { PrizeChoiceRefusalCode } from './choices';
import type { ConversionUndoRefusalCode } from './conversion-undo';
import type { DrawLogRefusalCode } from './beacon-log';

export const DRAW_REFUSAL_WORDS: RefusalWords<DrawRefusalCode> = {
  GACHA_NOT_FOUND: GACHA_LOOKUP_REFUSAL_WORDS.GACHA_NOT_FOUND,
  UNAUTHENTICATED: COMMON_REFUSAL_WORDS.UNAUTHENTICATED,
  STAFF_CANNOT_DRAW: { status: 403, message: 'スタッフアカウントではガチャを引けません。' },
  DRAW_COUNT_INVALID: { status: 400, message: 'このガチャでは選べない回数です。' },
  IDEMPOTENCY_KEY_REUSED: COMMON_REFUSAL_WORDS.IDEMPOTENCY_KEY_REUSED,
  SOLD_OUT: { status: 409, message: 'このガチャは完売しました。' },
  NOT_ENOUGH_LOTS: {
    status: 409,
    message: (d) => `残り口数が足りません（残り${digits(d.remaining)}口）。残りの口数以下でお試しください。`,
  },
  GACHA_ENDED: { status: 422, message: 'このガチャの販売は終了しました。' },
  GACHA_NOT_ON_SALE: { status: 422, message: 'このガチャはまだ販売開始前です。' },
  RANK_TOO_LOW: { status: 403, message: 'このガチャは対象ランク以上の会員様限定です。' },
  INSUFFICIENT_COINS: WALLET_REFUSAL_WORDS.INSUFFICIENT_COINS,
  DRAW_LIMIT_REACHED: {
    status: 422,
    message: (d) => `このガチャはお一人様${digits(d.limit)}口までです（購入済み ${digits(d.used)}口）。`,
  },
  SELF_EXCLUDED: SELF_EXCLUSION_REFUSAL_WORDS.SELF_EXCLUDED,
  DRAW_SPEND_LIMIT_REACHED: {
    status: 422,
    message: (d) =>
      `今月のガチャ消費上限（${digits(d.limitCoins)}コイン）に達しています（今月の消費 ${digits(d.usedCoins)}コイン、残り ${digits(d.remainingCoins)}コイン）。上限はマイページの「利用上限・自己除外」で確認できます。`,
  },
  DRAW_BUSY: {
    status: 409,
    message: 'ただいま混み合っています。少し待ってからもう一度お試しください。',
    headers: { 'Retry-After': '1' },
  },
  MAINTENANCE: MAINTENANCE_REFUSAL_WORDS.MAINTENANCE,
  SALES_STOPPED: SALES_STOPPED_REFUSAL_WORDS.SALES_STOPPED,
  ...WAITING_ROOM_DRAW_REFUSAL_WORDS,
};

export const DRAW_LOOKUP_REFUSAL_WORDS: RefusalWords<DrawLookupRefusalCode> = {
  DRAW_NOT_FOUND: { status: 404, message: '抽選結果が見つかりません。' },
  NOT_REVEALED_YET: { status: 409, message: 'シードと抽選ログは完売または販売終了後に公開されます。' },
};

export const PRIZE_CHOICE_REFUSAL_WORDS: RefusalWords<PrizeChoiceRefusalCode> = {
  SALES_STOPPED: SALES_STOPPED_REFUSAL_WORDS.SALES_STOPPED,
  PRIZE_NOT_FOUND: { status: 404, message: '対象のカードが見つかりません。' },
  PRIZE_ALREADY_DECIDED: { status: 409, message: 'すでにコイン交換または発送手続き済みのカードが含まれています。' },
  PRIZE_KEPT: {
    status: 409,
    message: '発送用に保管中のカードが含まれています。保管中のカードは1枚ずつ確認してから交換してください。',
  },
};

export const CONVERSION_UNDO_REFUSAL_WORDS: RefusalWords<ConversionUndoRefusalCode> = {
  CONVERSION_NOT_FOUND: { status: 404, message: '元に戻せる交換が見つかりません。' },
  UNDO_EXPIRED: {
    status: 409,
    message: '元に戻せる時間を過ぎました。交換したコインは無償コインとして付与されています。',
  },
  COINS_SPENT: {
    status: 409,
    message: '交換で受け取ったコインをすでに使ったため、元に戻せません。',
  },
  UNDO_UNAVAILABLE: { status: 409, message: 'この交換は元に戻せなくなりました。カードの状態をご確認ください。' },
};

export const DRAW_LOG_REFUSAL_WORDS: RefusalWords<DrawLogRefusalCode> = {
  GACHA_NOT_FOUND: GACHA_LOOKUP_REFUSAL_WORDS.GACHA_NOT_FOUND,
  DRAW_LOG_NOT_FOUND: {
    status: 404,
    message: 'このガチャには抽選ごとの公開ログがありません（ビーコン抽選のガチャだけが公開します）。',
  },
};
