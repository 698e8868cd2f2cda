// 特典コード: redeeming a code for free coins (once per member, within a window and a total cap, with
// optional new-member and rank conditions), and the operators' codes and batches (docs/decisions/032).
// The door only re-exports (issue 30 item 1): refusals and the codes' shape (codes.ts), redeeming
// (redeem.ts), the operators' codes and batches (operators.ts).
export {
  PROMO_REFUSAL_CODES,
  PROMO_ADMIN_REFUSAL_CODES,
  PROMO_CODE_MAX_LENGTH,
  normalizePromoCode,
  PROMO_CODE_ALPHABET,
  GENERATED_CODE_LENGTH,
  MAX_BATCH_SIZE,
  randomPromoCode,
  type PromoRefusalCode,
  type PromoAdminRefusalCode,
} from './codes';
export {
  PROMO_RATE_LIMITS,
  redeemPromoCode,
  listMemberRedemptions,
  type RedeemInput,
  type Redeemed,
  type RedemptionView,
} from './redeem';
export {
  createPromoCode,
  createPromoBatch,
  listPromoCodes,
  promoBatchCsv,
  deactivatePromoCode,
  type PromoCodeTerms,
  type PromoCodeRow,
} from './operators';
export { PROMO_REFUSAL_WORDS } from './refusal-words';
