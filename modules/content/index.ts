// The content module's public API: the one content interface and its two sources (decision 039),
// the field kinds, the banner console, the default legal pages.
import type { Database } from '#db/client';
import { contentDocuments } from './schema';

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
 * Adds the documents whose id does not exist yet; existing ones (perhaps edited since) stay.
 * @example await addDocuments(db, legalAndEditorialPages())
 */
export async function addDocuments(db: Database, documents: ContentDocumentInput[]): Promise<void> {
  if (documents.length) await db.insert(contentDocuments).values(documents).onConflictDoNothing();
}

export { CONTENT_ERROR_CODES, ContentError, isContentError, type ContentErrorCode } from './errors';
export { createPrismicSource, PRISMIC_RULES, type PrismicSource, type PrismicSourceOptions } from './prismic/source';
export { PRISMIC_ROUTES, prismicLinkResolver, type PrismicBannerData } from './prismic/documents';
