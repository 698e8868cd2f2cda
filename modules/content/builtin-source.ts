// The built-in content source (docs/decisions/039): the published snapshot in content_documents, read
// straight from the shop's database. The editor (decision 040) keeps every version; what is served is
// the row's data while published_at <= now.
import { and, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import type { Database } from '#db/client';
import { contentDocuments } from './schema';
import type { BannerData } from './rich-text';
import { bannerShown, bannerView } from './banners';
import type {
  ContentDocument,
  ContentDocumentType,
  ContentPreview,
  ContentSource,
  ContentSourceHealth,
  HomeBanner,
  NoticeData,
  PageData,
} from './source';

/** A page's uid: up to four lower-case path segments (the URL after the first slash). */
export const PAGE_UID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,79}(\/[a-z0-9][a-z0-9_-]{0,79}){0,3}$/;
/** A notice's uid: one segment; the notice lives at /notices/{uid}. */
export const NOTICE_UID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,79}$/;

/** Where a document lives on the site; banners have no page of their own. */
export function documentUrl(type: ContentDocumentType, uid: string): string | null {
  if (type === 'page' || type === 'special') return `/${uid}`;
  if (type === 'notice') return `/notices/${uid}`;
  return null;
}

type Row = {
  id: string;
  uid: string;
  type: ContentDocumentType;
  tags: string[];
  lang: string;
  data: unknown;
  publishedAt: Date | null;
};

const columns = {
  id: contentDocuments.id,
  uid: contentDocuments.uid,
  type: contentDocuments.type,
  tags: contentDocuments.tags,
  lang: contentDocuments.lang,
  data: contentDocuments.data,
  publishedAt: contentDocuments.publishedAt,
};

function toDocument<Data>(row: Row): ContentDocument<Data> {
  return {
    id: row.id,
    uid: row.uid,
    type: row.type,
    tags: row.tags,
    lang: row.lang,
    url: documentUrl(row.type, row.uid),
    publishedAt: row.publishedAt ? row.publishedAt.toISOString() : null,
    data: row.data as Data,
  };
}

const live = (now: Date) => and(isNotNull(contentDocuments.publishedAt), lte(contentDocuments.publishedAt, now));

/** Whether a notice is inside its window at `now` (open ends allowed). */
export function noticeShown(data: Pick<NoticeData, 'startsAt' | 'endsAt'>, now: Date): boolean {
  if (data.startsAt && new Date(data.startsAt) > now) return false;
  if (data.endsAt && new Date(data.endsAt) <= now) return false;
  return true;
}

/** Important first, then the newest start (or publication) first. */
export function byNoticeOrder(a: ContentDocument<NoticeData>, b: ContentDocument<NoticeData>): number {
  const importance = Number(!!b.data.important) - Number(!!a.data.important);
  if (importance) return importance;
  const at = (d: ContentDocument<NoticeData>) => Date.parse(d.data.startsAt ?? d.publishedAt ?? '') || 0;
  return at(b) - at(a) || a.uid.localeCompare(b.uid);
}

/**
 * Reads drafts for /preview; the versioned editor (decision 040) supplies it, so the source itself
 * stays a reader of the published snapshot.
 */
export type DraftReader = (documentId: string, version: number) => Promise<ContentDocument | null>;

/**
 * The built-in source over one database.
 * @example const content = createBuiltinSource(db); await content.getPage('terms')
 */
export function createBuiltinSource(db: Database, options: { readDraft?: DraftReader } = {}): ContentSource {
  const health: ContentSourceHealth = { source: 'builtin', stale: false, lastSuccessAt: null, lastError: null };
  return {
    kind: 'builtin',
    async getPage(uid, types = ['special', 'page']) {
      if (!PAGE_UID_PATTERN.test(uid)) return null;
      const rows = await db
        .select(columns)
        .from(contentDocuments)
        .where(and(eq(contentDocuments.uid, uid), inArray(contentDocuments.type, [...types]), live(new Date())));
      const row = rows.find((r) => r.type === 'special') ?? rows[0];
      return row ? toDocument<PageData>(row) : null;
    },
    async listPages() {
      const rows = await db
        .select(columns)
        .from(contentDocuments)
        .where(and(inArray(contentDocuments.type, ['page', 'special']), live(new Date())));
      return rows
        .map((row) => toDocument<PageData>(row))
        .map(({ uid, type, url, publishedAt }) => ({ uid, type, url, publishedAt }))
        .sort((a, b) => a.uid.localeCompare(b.uid));
    },
    async listBanners(now = new Date()): Promise<HomeBanner[]> {
      const rows = await db
        .select({ uid: contentDocuments.uid, data: contentDocuments.data })
        .from(contentDocuments)
        .where(and(eq(contentDocuments.type, 'banner'), live(now)));
      return rows
        .map((row) => ({ row, view: bannerView(row.uid, row.data) }))
        .filter(({ view }) => bannerShown(view, now))
        .sort((a, b) => a.view.order - b.view.order || a.view.uid.localeCompare(b.view.uid))
        .map(({ row, view }) => ({ ...(row.data as BannerData), uid: row.uid, alt: view.alt }));
    },
    async listNotices(now = new Date()) {
      const rows = await db
        .select(columns)
        .from(contentDocuments)
        .where(and(eq(contentDocuments.type, 'notice'), live(now)));
      return rows
        .map((row) => toDocument<NoticeData>(row))
        .filter((doc) => noticeShown(doc.data, now))
        .sort(byNoticeOrder);
    },
    async getNotice(uid) {
      if (!NOTICE_UID_PATTERN.test(uid)) return null;
      const [row] = await db
        .select(columns)
        .from(contentDocuments)
        .where(and(eq(contentDocuments.type, 'notice'), eq(contentDocuments.uid, uid), live(new Date())));
      return row ? toDocument<NoticeData>(row) : null;
    },
    async getPreview(preview: ContentPreview) {
      if (preview.kind !== 'builtin' || !options.readDraft) return null;
      return options.readDraft(preview.documentId, preview.version);
    },
    health() {
      return health;
    },
  };
}
