// The support module's browser door: the contact form's words and limits, nothing that reaches a
// table, a file or sharp (the main door would carry those into the page's scripts).
export {
  INQUIRY_CATEGORY_LABELS,
  INQUIRY_STATUS_LABELS,
  INQUIRY_RELATED_KIND_LABELS,
  INQUIRY_LIMITS,
  INQUIRY_IMAGE_TYPES,
  INQUIRY_HONEYPOT_FIELD,
  readInquiryReference,
} from './words';
