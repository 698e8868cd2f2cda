// The support module's door: inquiries from the contact form (members and visitors), their images,
// the acknowledgement and answers by mail (notices.ts: where the mailbox will plug in), and the desk's
// list, thread, answers, status, assignee, note and reply templates (each change audited).
export {
  inquiryCategories,
  inquiryStatuses,
  inquiryRelatedKinds,
  inquiryAuthors,
  type InquiryCategory,
  type InquiryStatus,
  type InquiryRelatedKind,
  type InquiryAuthor,
} from './schema';
export {
  INQUIRY_CATEGORY_LABELS,
  INQUIRY_STATUS_LABELS,
  INQUIRY_RELATED_KIND_LABELS,
  INQUIRY_LIMITS,
  INQUIRY_IMAGE_TYPES,
  INQUIRY_HONEYPOT_FIELD,
  readInquiryReference,
} from './words';
export {
  INQUIRY_IMAGE_REFUSAL_CODES,
  INQUIRY_IMAGE_MAX_PIXELS,
  INQUIRY_IMAGE_EDGE,
  INQUIRY_THUMB_EDGE,
  prepareInquiryImage,
  type InquiryImageRefusalCode,
  type PreparedImage,
} from './images';
export {
  INQUIRY_REFUSAL_CODES,
  createInquiry,
  describeRelated,
  inquiryInputSchema,
  newInquiryReference,
  relatedChoicesOf,
  type CreatedInquiry,
  type InquiryInput,
  type InquiryRefusalCode,
  type RelatedChoice,
  type SupportRules,
} from './inquiries';
export {
  APPEAL_REFUSAL_CODES,
  appealDecisionSchema,
  appealInputSchema,
  appealReferencesOf,
  decideAppealAsOperator,
  submitAppeal,
  type AppealDecision,
  type AppealRefusalCode,
} from './appeals';
export { CONTACT_PAGE_PATH, notifyInquirer, type Inquirer, type InquiryNotice } from './notices';
export {
  INQUIRY_PAGE_SIZE,
  inquiriesOfMember,
  inquiryFilterSchema,
  listInquiries,
  openInquiriesAbout,
  type InquiryFilter,
  type InquiryList,
  type InquiryListItem,
  type OpenInquiry,
} from './desk';
export {
  deleteReplyTemplate,
  listReplyTemplates,
  replyTemplateSchema,
  saveReplyTemplate,
  type ReplyTemplate,
} from './reply-templates';
export { getInquiryForDesk, readInquiryAttachment, type DeskInquiry } from './desk-inquiry';
export {
  inquiryAssignees,
  inquiryNoteSchema,
  inquiryReplySchema,
  inquiryUpdateSchema,
  replyToInquiry,
  setInquiryNote,
  updateInquiry,
  type InquiryReply,
} from './desk-answers';
export { eraseInquirer, erasedInquirerEmailOf, removeInquiryImages, sweepOrphanInquiryImages } from './erasure';
export { supportSettings } from './settings';
export { APPEAL_REFUSAL_WORDS, INQUIRY_REFUSAL_WORDS, INQUIRY_IMAGE_REFUSAL_WORDS } from './refusal-words';
