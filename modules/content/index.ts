// The built-in content store's public API: published pages by uid (special pages first).
import { and, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import type { Database } from '#db/client';
import { contentDocuments, type ContentType } from './schema';
import type { ContentPageData, BannerData } from './rich-text';
import { bannerShown, bannerView } from './banners';

export * from './rich-text';
export { listPublishedPageUids } from './sitemap';
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

export interface ContentPage {
  uid: string;
  type: ContentType;
  data: ContentPageData;
  publishedAt: Date | null;
}

const UID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,79}(\/[a-z0-9][a-z0-9_-]{0,79}){0,3}$/;

/**
 * A published page or special page at /{uid}; special pages win when both exist.
 * @example await getPublishedPage(db, 'tokushoho')
 */
export async function getPublishedPage(
  db: Database,
  uid: string,
  types: ContentType[] = ['special', 'page'],
): Promise<ContentPage | null> {
  if (!UID_PATTERN.test(uid)) return null;
  const rows = await db
    .select({
      uid: contentDocuments.uid,
      type: contentDocuments.type,
      data: contentDocuments.data,
      publishedAt: contentDocuments.publishedAt,
    })
    .from(contentDocuments)
    .where(
      and(
        eq(contentDocuments.uid, uid),
        inArray(contentDocuments.type, types),
        isNotNull(contentDocuments.publishedAt),
        lte(contentDocuments.publishedAt, new Date()),
      ),
    );
  const page = rows.find((row) => row.type === 'special') ?? rows[0];
  return page ? { ...page, data: page.data as ContentPageData } : null;
}

/**
 * The home banners members see now: published, active and inside their window (docs/decisions/031),
 * compared at read time; in their order.
 */
export async function listBanners(
  db: Database,
  now = new Date(),
): Promise<(BannerData & { uid: string; alt: string })[]> {
  const rows = await db
    .select({ uid: contentDocuments.uid, data: contentDocuments.data })
    .from(contentDocuments)
    .where(
      and(
        eq(contentDocuments.type, 'banner'),
        isNotNull(contentDocuments.publishedAt),
        lte(contentDocuments.publishedAt, now),
      ),
    );
  return rows
    .map((row) => ({ row, view: bannerView(row.uid, row.data) }))
    .filter(({ view }) => bannerShown(view, now))
    .sort((a, b) => a.view.order - b.view.order || a.view.uid.localeCompare(b.view.uid))
    .map(({ row, view }) => ({ ...(row.data as BannerData), uid: row.uid, alt: view.alt }));
}

/** A content document as the store keeps it (pages, special pages, banners). */
export type ContentDocumentInput = typeof contentDocuments.$inferInsert;

/**
 * Adds the documents whose id does not exist yet; existing ones (perhaps edited since) stay.
 * @example await addDocuments(db, legalAndEditorialPages())
 */
export async function addDocuments(db: Database, documents: ContentDocumentInput[]): Promise<void> {
  if (documents.length) await db.insert(contentDocuments).values(documents).onConflictDoNothing();
}
export {
  MAX_BLOCKS,
  MAX_HTML_LENGTH,
  canonicalSpans,
  escapeHtml,
  htmlToRichText,
  normaliseEmbed,
  normaliseImage,
  normaliseLink,
  normaliseNoticeData,
  normalisePageData,
  normaliseRichText,
  normaliseSlices,
  normaliseTable,
  richTextToHtml,
} from './sanitize';
export { markedSegments, safeImageUrl, type MarkedSegment, type Marks } from './render';
export {
  EMBED_FRAME_ORIGINS,
  EMBED_PROVIDER_LABELS,
  parseEmbed,
  type AllowedEmbed,
  type EmbedProvider,
} from './embeds';
