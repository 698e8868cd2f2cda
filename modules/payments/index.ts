// The coin shop's door: it only re-exports (issue 30 item 1). Its rules: which packs a member may buy, the
// monthly caps, orders, crediting coins exactly once when the provider confirms, reversing them on a refund
// or chargeback, and the 資金決済法 report. Providers are reached only through the PaymentProvider interface,
// and never inside a database transaction (docs/architecture.md).
export { orderStatuses, type OrderStatus } from './schema';
export {
  ORDER_LIST_PAGE_SIZE,
  coinPackFormSchema,
  listOrdersForDesk,
  orderForOperator,
  ordersExportBatch,
  orderListFilterSchema,
  type OrderEventView,
  type OrderListFilter,
} from './operator-orders';
export * from './methods';
export {
  baseDateOnOrAfter,
  foldSalesRollups,
  refreshUnusedPaidSnapshot,
  salesDailyFigures,
  unusedPaidSnapshotFor,
  type SalesDayFigures,
  type UnusedPaidSnapshot,
} from './rollups';
export { ProviderError, WebhookRejected, type PaymentProvider, type ProviderPayment } from './providers/types';
export {
  PAYMENT_PROVIDERS,
  ProviderSettingsError,
  type PaymentProviderDescriptor,
  type PaymentSettings,
  type ProviderLog,
  type ProviderPageSources,
  type ProviderSetup,
} from './providers';
export {
  type PaymentGateway,
  type ShopPaymentRules,
  PAYMENT_OUTCOMES,
  type PaymentOutcome,
  DEFAULT_PAYMENT_RULES,
  PAYMENT_REFUSAL_CODES,
  type PurchaseRefusalCode,
  PurchaseRefused,
  yen,
  monthStartJst,
} from './rules';
export {
  type CoinPackView,
  FIRST_PURCHASE_ONLY_REASON,
  type PurchaseStanding,
  getPurchaseStanding,
  monthlyPurchasedJpy,
  listCoinPacks,
  declareAge,
  purchaseHoldOf,
  type PurchaseHoldKind,
  OPERATOR_HOLD,
  holdKindOf,
  purchaseHoldsOf,
  placePurchaseHold,
  purchaseProfileOf,
  clearPurchaseHold,
  type Quote,
  quotePurchase,
} from './packs';
export { type OrderView, ORDER_STATUS_LABELS, type DrawContext } from './orders';
export {
  coinPackIdSchema,
  purchaseRequestSchema,
  type PurchaseRequest,
  MAX_SHOWN_AMOUNT,
  CHECKOUT_FORM_INVALID_MESSAGE,
  checkoutConfirmationSchema,
  type CheckoutConfirmation,
  drawContextSchema,
  isDrawContextShape,
  type StartCheckoutInput,
  type CheckoutStarted,
  startCheckout,
  getOrder,
  listOrders,
} from './purchase-inputs';
export {
  type SyncResult,
  syncOrder,
  applyProviderPayment,
  reviewReasonText,
  REVIEW_DECISIONS,
  type ReviewDecision,
  reviewDecisionsFor,
  decideReviewedOrder,
} from './confirmation';
export {
  receiveWebhook,
  processPaymentEvents,
  expireStaleOrders,
  cancelPendingOrder,
  reconcilePaidOrders,
  refundAtProvider,
  refundOrder,
} from './webhooks';
export {
  type UnusedBalanceReport,
  UNUSED_BALANCE_THRESHOLD_JPY,
  baseDateBefore,
  unusedPaidBalanceReport,
  checkPaymentInvariants,
} from './unused-paid-report';
export {
  type CoinPackRecord,
  type CoinPackDefinition,
  type PaymentOrderRecord,
  listAllCoinPacks,
  saveCoinPack,
  listOrdersForOperator,
  DEFAULT_COIN_PACKS,
  ensureDefaultCoinPacks,
} from './operators';
export { spendVelocitySince, chargebacksSince, type SpendVelocity, type ChargebackSighting } from './risk-feed';
export { firstPurchasesOf, creditedPurchasesSince } from './referral-feed';
export { redactPaymentEventsOf } from './erasure';
export { openCheckoutIds, openCheckoutOf, openFirstPurchaseCheckoutOf, type OpenCheckoutView } from './open-checkouts';
export { paymentsSettings, paymentSandboxOf } from './settings';
export { PAYMENT_REFUSAL_WORDS } from './refusal-words';
