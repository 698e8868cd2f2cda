// The catalogue's public API: genres and packs for pages, the API and the guards; the operators'
// pack lifecycle (admin.ts), remaining lots (remaining.ts) and the card read model (cards.ts). The door
// only re-exports (issue 30 item 1): ids and public statuses (catalogue.ts), the genres members see
// (shown-genres.ts), pack lists (lists.ts), one pack and tier names (pack.ts).
export type { GachaStatus, DrawMode } from './schema';
export {
  getRemaining,
  countUnclaimed,
  countMemberPrizesGiven,
  remainingOf,
  refreshRemainingCache,
  refreshAllRemaining,
  type LotCounts,
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
export { allZorome, isZorome, kiribanProgress, zoromeNumbers, type KiribanProgress } from './kiriban';
export {
  extraPrizeOdds,
  extraChancePerLot,
  personalKiribanMeter,
  ceilingMeter,
  ceilingWords,
  isExtraPrize,
  isLotTier,
  type ExtraPrizeOdds,
  type ExtraPrizeFields,
} from './extra-prizes';
export { packRevealTerms, packRevealStamp, type PackRevealTerms } from './reveal-terms';
export { endPack, advanceSaleWindows, endEveryPackOnSale } from './pack-end';
export { beaconPackTerms, releaseStockOfSettledBeaconPack, type BeaconPackTerms } from './beacon-terms';
export {
  createPack,
  publishPack,
  listPublishedPackIds,
  addGenres,
  packExists,
  deleteUnpublishedPacks,
  packDefinitionSchema,
  tierDefinitionSchema,
  PackAdminError,
  PACK_ADMIN_REFUSAL_CODES,
  type PackAdminRefusalCode,
  type PackDefinition,
  type BeaconPublishTerms,
  type PublishRequirements,
  type GenreDefinition,
} from './admin';
export {
  GRADE_COMPANIES,
  gradeCompanyOf,
  needsCertificate,
  certificateProblems,
  certificateNumberSchema,
  type GradeCompany,
  type TierPhoto,
} from './certificates';
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
  PACK_TAGS,
  TIER_KINDS,
  type PackBasics,
  type PackSale,
  type TierRow,
  type DraftChange,
} from './editor';
export { packNumbers, type PackNumbers, type PackCostRules } from './pack-numbers';
export {
  forbiddenWordsIn,
  unbackedClaimsIn,
  prePublishChecks,
  drawOptionsOverLots,
  DEFAULT_FORBIDDEN_PACK_WORDS,
  type PrePublishCheck,
} from './pre-publish';
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
  StockError,
  STOCK_REFUSAL_CODES,
  STOCK_PAGE_SIZE,
  type StockRefusalCode,
  type StockIdentity,
  type StockReceipt,
  type StockAdjustment,
  type StockListFilter,
  type StockCardView,
} from './stock';
export {
  stockCardOfPrize,
  moveStockOfPrizes,
  lockStockOfPrizes,
  reportPrizeCardGone,
  prizeSubstitutes,
  type StockPrize,
  type PrizeStockMove,
} from './prize-stock';
export { type StockShortfall } from './pack-stock';
export {
  PUBLIC_GACHA_STATUSES,
  GACHA_LOOKUP_REFUSAL_CODES,
  gachaIdSchema,
  isCatalogueId,
  type GachaLookupRefusalCode,
} from './catalogue';
export {
  GACHA_SORTS,
  listGachas,
  rankOnlyPacks,
  headlineTier,
  parseGachaSort,
  type GachaSort,
  type GachaCard,
  type HeadlinePrize,
  type GachaListItem,
} from './lists';
export { inShownGenre, listGenres, resolveGenre, type GenreSummary } from './shown-genres';
export {
  getGacha,
  genreOfGacha,
  getGachaDetail,
  describeTiers,
  type GachaTierView,
  type GachaDetail,
  type TierName,
} from './pack';
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
export { catalogueImagesInUse } from './images-in-use';
