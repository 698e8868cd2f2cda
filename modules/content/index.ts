// The content module's public API: the one content interface and its two sources (decision 039),
// the field kinds, the banner console, the default legal pages.
import type { Database } from '#db/client';
import { contentDocuments } from './schema';
import { addFirstVersions } from './version-writes';

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
export { defaultContentDocuments, legalPages, kobutsuFooterNote, type LegalFacts } from './defaults';
export {
  CONTENT_IMAGE_MAX_BYTES,
  CONTENT_IMAGE_MAX_WIDTH,
  CONTENT_IMAGE_PATH_PREFIX,
  contentImageFile,
  prepareContentImage,
  writeContentImage,
} from './images';

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
  bannerImageFile,
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

/** A content document as the store keeps it (pages, special pages, banners). */
export type ContentDocumentInput = typeof contentDocuments.$inferInsert;

/**
 * Adds the documents whose id does not exist yet; existing ones (perhaps edited since) stay. Each one
 * added starts its history at version 1 (published when it comes with published_at).
 * @example await addDocuments(db, legalAndEditorialPages())
 */
export async function addDocuments(db: Database, documents: ContentDocumentInput[]): Promise<void> {
  if (!documents.length) return;
  await db.transaction(async (tx) => {
    const added = await tx
      .insert(contentDocuments)
      .values(
        documents.map((d) => ({
          ...d,
          currentVersion: 1,
          publishedVersion: d.publishedAt && d.type !== 'banner' ? 1 : null,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: contentDocuments.id });
    const ids = new Set(added.map((row) => row.id));
    await addFirstVersions(
      tx,
      documents.filter((d) => ids.has(d.id)),
    );
  });
}

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
