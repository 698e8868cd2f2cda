// The content module's public API: the one content interface and its two sources (decision 039),
// the field kinds, the banner console, the default legal pages.
export * from './rich-text';
export * from './fields';
export * from './source';
export {
  createBuiltinSource,
  documentUrl,
  noticeShown,
  byNoticeOrder,
  PAGE_UID_PATTERN,
  NOTICE_UID_PATTERN,
  type DraftReader,
} from './builtin-source';
export {
  defaultContentDocuments,
  legalPages,
  kobutsuFooterNote,
  type AccountPolicyFacts,
  type LegalFacts,
} from './defaults';
export {
  CONTENT_IMAGE_MAX_BYTES,
  CONTENT_IMAGE_MAX_WIDTH,
  CONTENT_IMAGE_PATH_PREFIX,
  prepareContentImage,
  writeContentImage,
} from './images';
export { contentImagesInUse } from './images-in-use';

export {
  CONTENT_REFUSAL_CODES,
  CONTENT_STATUSES,
  CONTENT_STATUS_LABELS,
  CONTENT_TYPE_LABELS,
  EDITABLE_CONTENT_TYPES,
  contentStatusOf,
  getDocumentForEditor,
  getVersion,
  listDocuments,
  listVersions,
  type ContentDocumentSummary,
  type ContentDraft,
  type ContentEditorDocument,
  type ContentRefusalCode,
  type ContentStatus,
  type ContentVersion,
  type EditableContentType,
} from './versions';
export { RESERVED_UID_SEGMENTS, checkContentDraft, checkContentUid } from './version-checks';
export {
  cancelSchedule,
  createDocument,
  publish,
  publishScheduled,
  rollback,
  saveDraft,
  schedule,
  unpublish,
} from './version-writes';
export { diffVersions, versionDiff, versionText, type DiffLine } from './version-diff';

export { richTextFromMarkup } from './markup';
export {
  BANNER_IMAGE_HEIGHT,
  BANNER_IMAGE_MAX_BYTES,
  BANNER_IMAGE_PATH_PREFIX,
  BANNER_IMAGE_WIDTH,
  BANNER_REFUSAL_CODES,
  bannerFormSchema,
  bannerShown,
  listAllBanners,
  moveBanner,
  prepareBannerImage,
  saveBanner,
  setBannerActive,
  writeBannerImage,
  type BannerAdminView,
  type BannerForm,
  type BannerRefusalCode,
} from './banners';

export { addDocuments, type ContentDocumentInput } from './add-documents';

export { CONTENT_ERROR_CODES, ContentError, isContentError, type ContentErrorCode } from './errors';
export { createPrismicSource, PRISMIC_RULES, type PrismicSource, type PrismicSourceOptions } from './prismic/source';
export { PRISMIC_ROUTES, prismicLinkResolver, type PrismicBannerData } from './prismic/documents';
export { MAX_BLOCKS, MAX_HTML_LENGTH, canonicalSpans, htmlToRichText } from './sanitize';
export { escapeHtml, richTextToHtml } from './rich-text-html';
export {
  normaliseEmbed,
  normaliseImage,
  normaliseLink,
  normaliseNoticeData,
  normalisePageData,
  normaliseRichText,
  normaliseSlices,
  normaliseTable,
} from './normalise';
export { markedSegments, safeImageUrl, type MarkedSegment, type Marks } from './render';
export {
  EMBED_FRAME_ORIGINS,
  EMBED_PROVIDER_LABELS,
  parseEmbed,
  type AllowedEmbed,
  type EmbedProvider,
} from './embeds';
export { contentSettings } from './settings';
export { BANNER_REFUSAL_WORDS, CONTENT_REFUSAL_WORDS } from './refusal-words';
