// The versioned built-in store (docs/decisions/040). Every save of a page, special page or notice is a
// new row of the append-only content_versions; content_documents keeps the published snapshot that
// the pages read (uid, tags and data of published_version, served while published_at <= now). A
// document never published keeps its newest draft in the snapshot too (not served: published_at is
// null), so the list shows its title and the unique (type, uid, lang) index covers drafts as well.
// Publishing copies a version into the snapshot; a rollback is a new version copying an old one, then
// published; a scheduled publication is carried out by the job content.publish-scheduled.
// Every function takes the caller's transaction: the admin module runs them inside runAdminAction.
// Here: the vocabulary and the reads; the checks on a draft: version-checks.ts; the writes: version-writes.ts;
// what changed between two versions: version-diff.ts.
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '#db/client';
import { contentDocuments, contentVersions } from './schema';
import type { NoticeData, PageData } from './source';

/** Refusals of the content editor (words in refusal-words.ts). */
export const CONTENT_REFUSAL_CODES = [
  'CONTENT_NOT_FOUND',
  'CONTENT_VERSION_NOT_FOUND',
  'CONTENT_VERSION_CONFLICT',
  'CONTENT_UID_INVALID',
  'CONTENT_UID_RESERVED',
  'CONTENT_UID_TAKEN',
  'CONTENT_INVALID',
  'CONTENT_NOT_PUBLISHED',
  'CONTENT_SCHEDULE_IN_PAST',
  'CONTENT_NOT_SCHEDULED',
  'CONTENT_IMAGE_TOO_LARGE',
  'CONTENT_IMAGE_TYPE',
] as const;
export type ContentRefusalCode = (typeof CONTENT_REFUSAL_CODES)[number];

/** The types edited in /admin/content (banners keep their own console, decision 031). */
export const EDITABLE_CONTENT_TYPES = ['page', 'special', 'notice'] as const;
export type EditableContentType = (typeof EDITABLE_CONTENT_TYPES)[number];
export const CONTENT_TYPE_LABELS: Record<EditableContentType, string> = {
  page: 'ページ',
  special: '特集ページ',
  notice: 'お知らせ',
};

/** Where a document stands, as the list shows and filters it. */
export const CONTENT_STATUSES = ['published', 'draft', 'scheduled', 'unpublished'] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];
export const CONTENT_STATUS_LABELS: Record<ContentStatus, string> = {
  published: '公開中',
  draft: '下書き',
  scheduled: '予約',
  unpublished: '非公開',
};

/** A version's editable part: what the editor saves. */
export interface ContentDraft {
  uid: string;
  tags: string[];
  data: PageData | NoticeData;
}

/** A document in the admin list. */
export interface ContentDocumentSummary {
  id: string;
  type: EditableContentType;
  uid: string;
  title: string;
  status: ContentStatus;
  currentVersion: number;
  publishedVersion: number | null;
  publishedAt: Date | null;
  scheduledVersion: number | null;
  scheduledAt: Date | null;
  updatedAt: Date;
}

/** The document's state: scheduled wins, then served (published), then ever published (unpublished). */
export function contentStatusOf(
  doc: { publishedAt: Date | null; publishedVersion: number | null; scheduledAt: Date | null },
  now: Date,
): ContentStatus {
  if (doc.scheduledAt) return 'scheduled';
  if (doc.publishedAt && doc.publishedAt <= now) return 'published';
  if (doc.publishedVersion === null) return 'draft';
  return 'unpublished';
}

function statusWhere(status: ContentStatus, now: Date): SQL {
  const d = contentDocuments;
  switch (status) {
    case 'scheduled':
      return isNotNull(d.scheduledAt);
    case 'published':
      return and(isNull(d.scheduledAt), isNotNull(d.publishedAt), lte(d.publishedAt, now))!;
    case 'draft':
      return and(isNull(d.scheduledAt), isNull(d.publishedVersion))!;
    case 'unpublished':
      return and(
        isNull(d.scheduledAt),
        isNotNull(d.publishedVersion),
        or(isNull(d.publishedAt), sql`${d.publishedAt} > ${now}`),
      )!;
  }
}

const summaryColumns = {
  id: contentDocuments.id,
  type: contentDocuments.type,
  uid: contentDocuments.uid,
  data: contentDocuments.data,
  currentVersion: contentDocuments.currentVersion,
  publishedVersion: contentDocuments.publishedVersion,
  publishedAt: contentDocuments.publishedAt,
  scheduledVersion: contentDocuments.scheduledVersion,
  scheduledAt: contentDocuments.scheduledAt,
  updatedAt: contentDocuments.updatedAt,
};
type SummaryRow = {
  [K in keyof typeof summaryColumns]: (typeof summaryColumns)[K]['_']['notNull'] extends true
    ? (typeof summaryColumns)[K]['_']['data']
    : (typeof summaryColumns)[K]['_']['data'] | null;
};
const summaryOf = (row: SummaryRow, now: Date): ContentDocumentSummary => ({
  id: row.id,
  type: row.type as EditableContentType,
  uid: row.uid,
  title: (row.data as { title?: string }).title ?? '',
  status: contentStatusOf(row, now),
  currentVersion: row.currentVersion,
  publishedVersion: row.publishedVersion,
  publishedAt: row.publishedAt,
  scheduledVersion: row.scheduledVersion,
  scheduledAt: row.scheduledAt,
  updatedAt: row.updatedAt,
});

/**
 * The editable documents, newest change first, filtered by type and status, a page at a time.
 * @example const { documents, total } = await listDocuments(db, { type: 'page', status: 'draft', page: 1 })
 */
export async function listDocuments(
  db: Database,
  filter: { type?: EditableContentType; status?: ContentStatus; page?: number; pageSize?: number } = {},
  now = new Date(),
): Promise<{ documents: ContentDocumentSummary[]; total: number }> {
  const pageSize = filter.pageSize ?? 50;
  const page = Math.max(1, filter.page ?? 1);
  const where = and(
    filter.type ? eq(contentDocuments.type, filter.type) : inArray(contentDocuments.type, [...EDITABLE_CONTENT_TYPES]),
    filter.status ? statusWhere(filter.status, now) : undefined,
  );
  const [rows, [totals]] = await Promise.all([
    db
      .select(summaryColumns)
      .from(contentDocuments)
      .where(where)
      .orderBy(desc(contentDocuments.updatedAt), asc(contentDocuments.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(contentDocuments).where(where),
  ]);
  return { documents: rows.map((row) => summaryOf(row, now)), total: totals?.n ?? 0 };
}

/** One saved version. */
export interface ContentVersion extends ContentDraft {
  documentId: string;
  version: number;
  type: EditableContentType;
  lang: string;
  createdBy: string | null;
  createdAt: Date;
  note: string | null;
}

const versionOf = (row: typeof contentVersions.$inferSelect): ContentVersion => ({
  documentId: row.documentId,
  version: row.version,
  type: row.type as EditableContentType,
  uid: row.uid,
  lang: row.lang,
  tags: row.tags,
  data: row.data as PageData | NoticeData,
  createdBy: row.createdBy,
  createdAt: row.createdAt,
  note: row.note,
});

/** A version of a document, or null. */
export async function getVersion(db: Database, documentId: string, version: number): Promise<ContentVersion | null> {
  const [row] = await db
    .select()
    .from(contentVersions)
    .where(and(eq(contentVersions.documentId, documentId), eq(contentVersions.version, version)));
  return row ? versionOf(row) : null;
}

/** The history, newest first (without the data: the list names each version by its title). */
export async function listVersions(
  db: Database,
  documentId: string,
): Promise<
  { version: number; uid: string; title: string; createdBy: string | null; createdAt: Date; note: string | null }[]
> {
  const rows = await db
    .select({
      version: contentVersions.version,
      uid: contentVersions.uid,
      data: contentVersions.data,
      createdBy: contentVersions.createdBy,
      createdAt: contentVersions.createdAt,
      note: contentVersions.note,
    })
    .from(contentVersions)
    .where(eq(contentVersions.documentId, documentId))
    .orderBy(desc(contentVersions.version));
  return rows.map(({ data, ...row }) => ({ ...row, title: (data as { title?: string }).title ?? '' }));
}

/** What the editor opens: the document's state and its newest version. */
export interface ContentEditorDocument extends ContentDocumentSummary {
  lang: string;
  createdAt: Date;
  draft: ContentVersion;
}

/** The document with its newest version, or null (also for banners, which are not edited here). */
export async function getDocumentForEditor(
  db: Database,
  documentId: string,
  now = new Date(),
): Promise<ContentEditorDocument | null> {
  const [row] = await db
    .select({
      ...summaryColumns,
      lang: contentDocuments.lang,
      tags: contentDocuments.tags,
      createdAt: contentDocuments.createdAt,
    })
    .from(contentDocuments)
    .where(and(eq(contentDocuments.id, documentId), inArray(contentDocuments.type, [...EDITABLE_CONTENT_TYPES])));
  if (!row) return null;
  const draft = (await getVersion(db, documentId, row.currentVersion)) ?? {
    // A document whose history predates versioning and was not backfilled: its snapshot is version 1.
    documentId,
    version: row.currentVersion,
    type: row.type as EditableContentType,
    uid: row.uid,
    lang: row.lang,
    tags: row.tags,
    data: row.data as PageData | NoticeData,
    createdBy: null,
    createdAt: row.createdAt,
    note: null,
  };
  return { ...summaryOf(row, now), lang: row.lang, createdAt: row.createdAt, draft };
}
