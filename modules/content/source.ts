// One content interface, two sources (docs/decisions/039): the built-in store in the shop's database
// (the default, edited in /admin) and Prismic (the specification's headless service, sections 7–9).
// Pages, the sitemap, the home banners and notices and the footer read content only through this.
import type { BannerData, RichText } from './rich-text';
import type { ImageField, SliceZone } from './fields';

/** The document types the shop serves. */
export const CONTENT_DOCUMENT_TYPES = ['page', 'special', 'banner', 'notice'] as const;
export type ContentDocumentType = (typeof CONTENT_DOCUMENT_TYPES)[number];

/** Specification section 3: a content document (id, uid, type, tags, lang, url, data). */
export interface ContentDocument<Data = ContentData> {
  id: string;
  uid: string;
  type: ContentDocumentType;
  tags: string[];
  lang: string;
  /** The document's own path on the site (/{uid} for pages), or null for banners. */
  url: string | null;
  /** When this version went live (Prismic: last_publication_date); null in a draft preview. */
  publishedAt: string | null;
  data: Data;
}

/** Pages and special pages (and the legal pages). */
export interface PageData {
  title: string;
  description?: string;
  /** Special pages: a hero image (a site path or an image field). */
  heroImage?: string | ImageField;
  /** A line every page's footer shows (the kobutsu page: 古物商許可番号 and the issuing 公安委員会). */
  footerNote?: string;
  /** The main rich text (may be empty when the page is made of slices). */
  body: RichText;
  /** The slice zone after the body: text, image, embed, table, button. */
  slices?: SliceZone;
}

/** Home notices (お知らせ): shown on the home page inside their window; each is also a page at its url. */
export interface NoticeData {
  title: string;
  body: RichText;
  /** ISO instants; absent means open-ended. */
  startsAt?: string | null;
  endsAt?: string | null;
  /** 重要: shown first and marked. */
  important?: boolean;
}

/** A home banner as the carousel shows it (the built-in store's are edited in /admin/banners, decision 031). */
export type HomeBanner = BannerData & { uid: string; alt: string };

export type ContentData = PageData | NoticeData | BannerData;

/** The state of a source, for /api/health and the logs. */
export interface ContentSourceHealth {
  source: 'builtin' | 'prismic';
  /** True when the last refresh failed and pages are served from the last good copy. */
  stale: boolean;
  lastSuccessAt: string | null;
  lastError: string | null;
}

/** A preview request: the built-in store's draft version, or a Prismic preview ref. */
export type ContentPreview =
  { kind: 'builtin'; documentId: string; version: number } | { kind: 'prismic'; ref: string };

/**
 * What pages read. Every method answers from the source's last good copy when the source is down
 * (Prismic), and never throws for "not there": that is null or [].
 */
export interface ContentSource {
  readonly kind: 'builtin' | 'prismic';
  /** A published page or special page by uid; special pages win when both exist. */
  getPage(uid: string, types?: readonly ('page' | 'special')[]): Promise<ContentDocument<PageData> | null>;
  /** Every published page and special page, for sitemap.xml. */
  listPages(): Promise<Pick<ContentDocument, 'uid' | 'type' | 'url' | 'publishedAt'>[]>;
  /** The home banners shown at `now`, in order. */
  listBanners(now?: Date): Promise<HomeBanner[]>;
  /** The notices shown at `now`, important first, newest first. */
  listNotices(now?: Date): Promise<ContentDocument<NoticeData>[]>;
  /** A notice by uid, if published (its window is not checked: an old notice's link keeps working). */
  getNotice(uid: string): Promise<ContentDocument<NoticeData> | null>;
  /** A draft or preview-ref document; null when the preview does not resolve. */
  getPreview(preview: ContentPreview & { documentId?: string }): Promise<ContentDocument | null>;
  health(): ContentSourceHealth;
}
