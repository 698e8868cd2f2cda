// The draw's door: it only re-exports (issue 30 item 1). Drawing (execute.ts), its contract and request
// schemas (contract.ts), the prize box and draw listings (listings.ts), prize choices and the
// auto-conversion job (choices.ts), undo (conversion-undo.ts), storage and shipping (prize-storage.ts),
// a finished pack's reveal (reveal.ts), winners, history, rollups and the feeds other modules read.
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
  prizesHeldByMember,
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
  type DrawnPack,
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
export * from './contract';
export * from './execute';
export * from './listings';
export * from './choices';
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
export { drawSettings } from './settings';
export {
  DRAW_REFUSAL_WORDS,
  DRAW_LOOKUP_REFUSAL_WORDS,
  PRIZE_CHOICE_REFUSAL_WORDS,
  CONVERSION_UNDO_REFUSAL_WORDS,
  DRAW_LOG_REFUSAL_WORDS,
} from './refusal-words';
export {
  drawReceipt,
  beaconDrawProof,
  closeBeaconRounds,
  settleBeaconRounds,
  lateSettledReceipts,
  markReceiptsNotified,
  type BeaconOfRound,
  type SettleOptions,
  type SettledRound,
} from './beacon';
export {
  beaconDrawLog,
  DRAW_LOG_REFUSAL_CODES,
  DRAW_LOG_MAX_PAGE,
  type DrawLogRefusalCode,
  type DrawLogQuery,
  type ReceiptSigner,
} from './beacon-log';
