// The kernel's door: the small vocabulary every module shares (no tables, no other module): the
// refusal shape and shared input schemas. Listed first in MODULE_DEPENDENCIES; every module may use it.
export { refuse, isRefusal, RefusalError, type Refusal, type Outcome } from './refusal';
export { isUuid, uuidSchema } from './inputs';
export {
  isWithinWindow,
  jstLocalInput,
  jstText,
  parseJstDateTime,
  refineWindow,
  saleWindowFields,
  windowPhase,
  windowText,
  type SaleWindow,
} from './window';
export {
  booleanFlag,
  coinList,
  declareSettings,
  isLoopbackHost,
  wordList,
  type SettingDoc,
  type SettingsContext,
  type SettingsDeclaration,
} from './settings';
export {
  COMMON_REFUSAL_WORDS,
  digits,
  megabytes,
  type RefusalEntry,
  type RefusalStatus,
  type RefusalWords,
} from './refusal-words';
export { japaneseIssueMessage, JAPANESE_PARSE, fieldMessages, parseWithMessage } from './validation';
export {
  MEDIA_STORE_REFUSAL_CODES,
  MEDIA_STORE_REFUSAL_WORDS,
  MEDIA_STORE_RETRY_AFTER_SECONDS,
  MEDIA_STORE_UNAVAILABLE_MESSAGE,
  MediaStoreUnavailable,
  isMediaKey,
  isMediaStoreUnavailable,
  mediaKeyOf,
  type MediaStore,
  type MediaStoreRefusalCode,
  type StoredMediaObject,
} from './media-store';
