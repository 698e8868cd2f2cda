// The shipping module's door (addresses, shipping requests, the promised date, the fulfilment desk).
// The address book: addresses.ts (pure pieces for the browser: '#modules/shipping/browser'); members'
// requests: requests.ts, new-requests.ts, request-views.ts, request-changes.ts; the desk: desk.ts,
// desk-reading.ts, desk-moves.ts; the promise: promise.ts; kept prizes' mails: storage.ts.
export {
  PREFECTURES,
  MAX_ADDRESSES_PER_MEMBER,
  ADDRESS_FIELD_LIMITS,
  ADDRESS_FIELD_LABELS,
  isPrefecture,
  readPostalCode,
  formatPostalCode,
  toKatakana,
  postalFill,
  type PostalFill,
  type Prefecture,
} from './address-text';
export { lookupPostalCode, type PostalPlace, type PostalRefusalCode } from './postal';
export {
  addressInputSchema,
  postalCodeSchema,
  readAddressPhone,
  ADDRESS_MESSAGES,
  type AddressFields,
  type AddressInput,
} from './address-input';
export { AddressSealError, openJson, sealJson, type AddressKey, type AddressKeyring } from './sealing';
export {
  ADDRESS_REFUSAL_CODES,
  listAddresses,
  getAddress,
  createAddress,
  updateAddress,
  deleteAddress,
  eraseAddressBook,
  setDefaultAddress,
  sealedAddressForShipping,
  openShippingAddress,
  resealShippingAddress,
  rekeyAddresses,
  type AddressRefusalCode,
  type MemberAddress,
} from './addresses';
export {
  HOLIDAY_DATA_RANGE,
  HolidayDataRangeError,
  businessDaysBetween,
  isBusinessDay,
  jstDateOf,
  promisedShipDate,
  shipDeadlineInstant,
  shippingAcceptanceDate,
  type JstDate,
  type ShippingDateRules,
} from './business-days';
export {
  CARRIERS,
  CARRIER_CODES,
  TRACKING_NUMBER_ERROR_CODES,
  carrierFromText,
  checkTrackingNumber,
  normalizeTrackingNumber,
  shipmentTrackingSchema,
  trackingUrl,
  type Carrier,
  type CarrierCode,
  type ShipmentTracking,
  type TrackingNumberErrorCode,
} from './carriers';
export {
  LABEL_CSV_COLUMNS,
  SHIPPED_CSV_COLUMNS,
  SHIPPED_CSV_FILE_ERROR_CODES,
  SHIPPED_CSV_ROW_ERROR_CODES,
  readShippedCsv,
  writeLabelCsv,
  type LabelCsvBatch,
  type LabelCsvRequest,
  type ShippedCsvImport,
  type ShippedCsvLimits,
  type ShippedCsvRow,
  type ShippedCsvRowError,
} from './shipping-csv';
export {
  OPEN_SHIPPING_STATUSES,
  SHIPPING_ACTIONS,
  SHIPPING_STATUS_LABELS,
  SHIPPING_TRANSITIONS,
  actionsFrom,
  shippingStatuses,
  transition,
  type ShippingAction,
  type ShippingActionBy,
  type ShippingStatus,
  type ShippingTransitionRefusal,
} from './request-states';
export { MISSING_CARD_REASONS, SHIPPING_PAGE_PATHS, jstDateLabel, notifyMember, type ShippingNotice } from './notices';
export {
  FEE_REFUND_MIN_DAYS,
  SHIPPING_REFUSAL_CODES,
  describeShippingRequests,
  getShippingRequest,
  listShippingRequests,
  shippingQuoteInputSchema,
  shippingRequestInputSchema,
  shippingRequestPositionSchema,
  type ShippingRefusalCode,
  type ShippingRequestInput,
  type ShippingRequestPage,
  type ShippingRequestRefusalCode,
  type ShippingRules,
} from './requests';
export { cancelShippingRequest, rekeyShippingRequests } from './request-changes';
export { createShippingRequest, quoteShippingRequest } from './new-requests';
export type {
  ShippingEventView,
  ShippingItemView,
  ShippingQuote,
  ShippingRequestSummary,
  ShippingRequestView,
  SubstituteCardView,
} from './request-views';
export {
  missingCardReportSchema,
  reportMissingCard,
  type MissingCardOutcome,
  type MissingCardReport,
} from './missing-cards';
export {
  SHIPPING_QUEUE_PAGE_SIZE,
  listShippingQueue,
  shippingQueueFilterSchema,
  type ShippingQueue,
  type ShippingQueueFilter,
  type ShippingQueueItem,
} from './desk';
export {
  cancelShippingRequestByShop,
  convertReturnedRequest,
  internalNoteSchema,
  markShippingDelivered,
  markShippingReturned,
  prepareShippingRequests,
  reshipReturnedRequest,
  setShippingInternalNote,
  shipShippingRequest,
  shipShippingRequestsFromCsv,
  type ShippedCsvProblem,
} from './desk-moves';
export {
  exportLabelCsv,
  getShippingRequestForDesk,
  shippingBatchForDesk,
  type DeskParcel,
  type DeskShippingRequest,
} from './desk-reading';
export { compensateLateShipments } from './promise';
export { sendKeptPrizeReminders, storageConversionNotifier } from './storage';
export {
  missingCardConditions,
  shippingActors,
  shippingEventKinds,
  type MissingCardCondition,
  type ShippingActor,
  type ShippingEventKind,
} from './schema';
export { shippingExportBatch } from './export';
export { addressesChangedSince, type AddressSighting } from './risk-feed';
export { addressSpellingsOf, redactShippingNotesOf } from './erasure';
export { shippingSettings } from './settings';
export { ADDRESS_REFUSAL_WORDS, SHIPPING_REFUSAL_WORDS } from './refusal-words';
