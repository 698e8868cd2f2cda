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
export { japaneseIssueMessage, JAPANESE_PARSE, fieldMessages, parseWithMessage } from './validation';
