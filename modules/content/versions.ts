// The versioned built-in store (docs/decisions/040). Every save of a page, special page or notice is a
// new row of the append-only content_versions; content_documents keeps the published snapshot that
// the pages read (uid, tags and data of published_version, served while published_at <= now). A
// document never published keeps its newest draft in the snapshot too (not served: published_at is
// null), so the list shows its title and the unique (type, uid, lang) index covers drafts as well.
// Publishing copies a version into the snapshot; a rollback is a new version copying an old one, then
// published; a scheduled publication is carried out by the job content.publish-scheduled.
// Every function takes the caller's transaction: the admin module runs them inside runAdminAction.
import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { diffLines } from 'diff';
import { z } from 'zod';
import type { Database } from '#db/client';
import { refuse, RefusalError } from '#modules/kernel';
import { contentDocuments, contentVersions } from './schema';
import {
  isRichTextFilled,
  safeLinkUrl,
  savableLinkUrl,
  SAVABLE_LINK_MESSAGE,
  unsavableLinkIn,
  type RichText,
  type RichTextBlock,
} from './rich-text';
import type { NoticeData, PageData } from './source';
import type { Slice } from './fields';

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

// ---- validation -------------------------------------------------------------------------------

/** One URL segment: lower-case letters, digits, '-' and '_' (the same rule getPublishedPage reads). */
const SEGMENT = '[a-z0-9][a-z0-9_-]{0,79}';
const PAGE_UID = new RegExp(`^${SEGMENT}(/${SEGMENT}){0,3}$`);
const SPECIAL_UID = new RegExp(`^${SEGMENT}$`);
const NOTICE_UID = new RegExp(`^${SEGMENT}$`);

/**
 * First path segments the app's own routes use (app/routes.ts and server/app.ts): a page there would
 * never be reached, or would hide a route. 'notices' belongs to notices.
 */
export const RESERVED_UID_SEGMENTS: ReadonlySet<string> = new Set([
  'auth',
  'app',
  'admin',
  'api',
  'gacha',
  'mypage',
  'myinbox',
  'mylevel',
  'myrank',
  'ranking',
  'r',
  'shop',
  'preview',
  'contact',
  'dev',
  'media',
  'images',
  'assets',
  'build',
  'builds',
  'sitemap.xml',
  'robots.txt',
  'notices',
  'sandbox',
  'favicon.ico',
  '_img',
  '_operator',
]);

/**
 * Checks a uid for its type; throws the refusal. Pages: up to 4 segments; special pages: one (they
 * live at /{specialId}); notices: one segment (they live at /notices/{uid}).
 */
export function checkContentUid(type: EditableContentType, uid: string): void {
  if (type === 'notice') {
    if (!NOTICE_UID.test(uid)) throw new RefusalError(refuse('CONTENT_UID_INVALID', { type, uid }));
    return;
  }
  const pattern = type === 'special' ? SPECIAL_UID : PAGE_UID;
  if (!pattern.test(uid)) throw new RefusalError(refuse('CONTENT_UID_INVALID', { type, uid }));
  const first = uid.split('/')[0]!;
  if (RESERVED_UID_SEGMENTS.has(first)) throw new RefusalError(refuse('CONTENT_UID_RESERVED', { uid, segment: first }));
}

const message = (text: string) => ({ error: text });
const linkUrlSchema = z
  .string()
  .trim()
  .max(500, message('リンク先は500文字以内で入力してください。'))
  .refine((url) => savableLinkUrl(url) !== null, message(SAVABLE_LINK_MESSAGE));
const richTextSchema = z
  .array(z.looseObject({ type: z.string() }), message('本文の形式が正しくありません。'))
  .max(2000, message('本文が長すぎます。'))
  .superRefine((blocks, ctx) => {
    const refused = unsavableLinkIn(blocks);
    if (refused)
      ctx.addIssue({ code: 'custom', message: `本文のリンク「${refused}」は使えません。${SAVABLE_LINK_MESSAGE}` });
  })
  .transform((blocks) => blocks as unknown as RichText);
const imageFieldSchema = z.object({
  url: linkUrlSchema,
  alt: z.string().trim().max(200, message('画像の説明は200文字以内で入力してください。')).nullable(),
  dimensions: z.object({ width: z.number().int().min(1).max(10_000), height: z.number().int().min(1).max(10_000) }),
});
const webLinkSchema = z.object({ link_type: z.literal('Web'), url: linkUrlSchema });
const tableRowSchema = z.object({
  cells: z
    .array(z.object({ type: z.enum(['header', 'data']), content: richTextSchema }))
    .min(1)
    .max(20, message('表の列は20列までです。')),
});
const sliceSchema = z.discriminatedUnion('slice_type', [
  z.object({ slice_type: z.literal('text'), primary: z.object({ text: richTextSchema }), items: z.array(z.never()) }),
  z.object({
    slice_type: z.literal('image'),
    primary: z.object({ image: imageFieldSchema, caption: z.string().max(200).nullable().optional() }),
    items: z.array(z.never()),
  }),
  z.object({
    slice_type: z.literal('embed'),
    primary: z.object({
      embed: z.object({
        embed_url: z
          .string()
          .trim()
          .max(500)
          .refine(
            (url) => /^https:\/\//.test(url) && safeLinkUrl(url) !== null,
            message('埋め込みのURLは https:// で始まるURLにしてください。'),
          ),
      }),
      caption: z.string().max(200).nullable().optional(),
    }),
    items: z.array(z.never()),
  }),
  z.object({
    slice_type: z.literal('table'),
    primary: z.object({
      table: z.object({
        head: z.object({ rows: z.array(tableRowSchema).max(1) }).optional(),
        body: z.object({ rows: z.array(tableRowSchema).max(100, message('表の行は100行までです。')) }),
      }),
      caption: z.string().max(200).nullable().optional(),
    }),
    items: z.array(z.never()),
  }),
  z.object({
    slice_type: z.literal('button'),
    primary: z.object({
      label: z
        .string()
        .trim()
        .min(1, message('ボタンの文言を入力してください。'))
        .max(60, message('ボタンの文言は60文字以内です。')),
      link: webLinkSchema,
    }),
    items: z.array(z.never()),
  }),
]);
const titleSchema = z
  .string()
  .trim()
  .min(1, message('タイトルを入力してください。'))
  .max(120, message('タイトルは120文字以内で入力してください。'));
const pageDataSchema = z.object({
  title: titleSchema,
  description: z.string().trim().max(300, message('説明は300文字以内で入力してください。')).optional(),
  heroImage: z.union([linkUrlSchema, imageFieldSchema]).optional(),
  footerNote: z.string().trim().max(200, message('フッターの表示は200文字以内で入力してください。')).optional(),
  body: richTextSchema,
  slices: z.array(sliceSchema).max(50, message('スライスは50個までです。')).optional(),
});
const isoInstant = z.iso.datetime({ offset: true }).nullable().optional();
const noticeDataSchema = z
  .object({
    title: titleSchema,
    body: richTextSchema,
    startsAt: isoInstant,
    endsAt: isoInstant,
    important: z.boolean().optional(),
  })
  .refine((n) => !n.startsAt || !n.endsAt || Date.parse(n.endsAt) > Date.parse(n.startsAt), {
    message: '表示終了は表示開始より後にしてください。',
  });
const tagsSchema = z
  .array(z.string().trim().min(1).max(40, message('タグは40文字以内です。')))
  .max(10, message('タグは10個までです。'));

/** What a notice without text (specification section 5: rich text counts only with text) is refused with. */
export const NOTICE_BODY_REQUIRED = '本文を入力してください。';

/** Throws CONTENT_INVALID for a notice whose body has no text (an image alone, spaces alone, nothing). */
function checkNoticeBody(type: string, data: unknown): void {
  if (type !== 'notice') return;
  const body = (data as Partial<NoticeData> | null)?.body;
  if (!isRichTextFilled(body))
    throw new RefusalError(refuse('CONTENT_INVALID', { message: NOTICE_BODY_REQUIRED, path: 'body' }));
}

/**
 * Checks a draft for its type and answers it normalised; throws CONTENT_INVALID / the uid refusals.
 * A notice's body must have text, except in a new document's first version (`newDocument`): the list's
 * 新規作成 form asks only for the URL and title, and publishing checks the body again (publishLocked).
 */
export function checkContentDraft(
  type: EditableContentType,
  draft: ContentDraft,
  options: { newDocument?: boolean } = {},
): ContentDraft {
  checkContentUid(type, draft.uid);
  const tags = tagsSchema.safeParse(draft.tags);
  if (!tags.success) throw new RefusalError(refuse('CONTENT_INVALID', { message: tags.error.issues[0]?.message }));
  const data = (type === 'notice' ? noticeDataSchema : pageDataSchema).safeParse(draft.data);
  if (!data.success) {
    const issue = data.error.issues[0];
    throw new RefusalError(refuse('CONTENT_INVALID', { message: issue?.message, path: issue?.path.join('.') }));
  }
  if (!options.newDocument) checkNoticeBody(type, data.data);
  return { uid: draft.uid, tags: [...new Set(tags.data)], data: data.data as PageData | NoticeData };
}

// ---- reading ----------------------------------------------------------------------------------

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

// ---- writing ----------------------------------------------------------------------------------

async function lockDocument(tx: Database, documentId: string) {
  const [row] = await tx
    .select()
    .from(contentDocuments)
    .where(and(eq(contentDocuments.id, documentId), inArray(contentDocuments.type, [...EDITABLE_CONTENT_TYPES])))
    .for('update');
  if (!row) throw new RefusalError(refuse('CONTENT_NOT_FOUND', { documentId }));
  return row;
}

/**
 * Refuses a uid another document of the same URL space (pages and special pages share /{uid}) uses,
 * published or in its newest draft.
 */
async function checkUidFree(
  tx: Database,
  documentId: string | null,
  type: EditableContentType,
  uid: string,
  lang: string,
) {
  const space = type === 'notice' ? ['notice'] : ['page', 'special'];
  const others = documentId ? ne(contentDocuments.id, documentId) : undefined;
  const [taken] = await tx
    .select({ id: contentDocuments.id })
    .from(contentDocuments)
    .leftJoin(
      contentVersions,
      and(
        eq(contentVersions.documentId, contentDocuments.id),
        eq(contentVersions.version, contentDocuments.currentVersion),
      ),
    )
    .where(
      and(
        inArray(contentDocuments.type, space as EditableContentType[]),
        eq(contentDocuments.lang, lang),
        or(eq(contentDocuments.uid, uid), eq(contentVersions.uid, uid)),
        others,
      ),
    )
    .limit(1);
  if (taken) throw new RefusalError(refuse('CONTENT_UID_TAKEN', { uid }));
}

async function insertVersion(
  tx: Database,
  row: {
    documentId: string;
    version: number;
    type: EditableContentType;
    lang: string;
    createdBy: string | null;
    note?: string | null;
  } & ContentDraft,
  now: Date,
) {
  await tx.insert(contentVersions).values({
    documentId: row.documentId,
    version: row.version,
    type: row.type,
    uid: row.uid,
    lang: row.lang,
    tags: row.tags,
    data: row.data,
    createdBy: row.createdBy,
    createdAt: now,
    note: row.note ?? null,
  });
}

/**
 * Creates a document as a draft at version 1 (not served until published).
 * @example const { id } = await createDocument(tx, { type: 'page', draft: { uid: 'guide/faq', tags: [], data }, createdBy: memberId })
 */
export async function createDocument(
  tx: Database,
  input: {
    type: EditableContentType;
    draft: ContentDraft;
    createdBy: string | null;
    lang?: string;
    note?: string | null;
  },
  now = new Date(),
): Promise<{ id: string; version: 1; draft: ContentDraft }> {
  if (!EDITABLE_CONTENT_TYPES.includes(input.type))
    throw new RefusalError(refuse('CONTENT_INVALID', { message: '種類を選んでください。' }));
  const draft = checkContentDraft(input.type, input.draft, { newDocument: true });
  const lang = input.lang ?? 'ja-jp';
  await checkUidFree(tx, null, input.type, draft.uid, lang);
  const id = randomUUID();
  await tx.insert(contentDocuments).values({
    id,
    type: input.type,
    uid: draft.uid,
    lang,
    tags: draft.tags,
    data: draft.data,
    publishedAt: null,
    createdAt: now,
    updatedAt: now,
    currentVersion: 1,
  });
  await insertVersion(
    tx,
    { documentId: id, version: 1, type: input.type, lang, createdBy: input.createdBy, note: input.note, ...draft },
    now,
  );
  return { id, version: 1, draft };
}

/**
 * Saves the editor's fields as a new version. `expectedVersion` is the version the editor opened:
 * when someone saved since, the save is refused (CONTENT_VERSION_CONFLICT) rather than overwriting it.
 * @example const { version } = await saveDraft(tx, id, draft, 3, memberId) // 4
 */
export async function saveDraft(
  tx: Database,
  documentId: string,
  input: ContentDraft,
  expectedVersion: number,
  createdBy: string | null,
  now = new Date(),
  note: string | null = null,
): Promise<{ version: number; previousVersion: number; draft: ContentDraft }> {
  const doc = await lockDocument(tx, documentId);
  if (doc.currentVersion !== expectedVersion)
    throw new RefusalError(
      refuse('CONTENT_VERSION_CONFLICT', { expected: expectedVersion, current: doc.currentVersion }),
    );
  const type = doc.type as EditableContentType;
  const draft = checkContentDraft(type, input);
  await checkUidFree(tx, documentId, type, draft.uid, doc.lang);
  const version = doc.currentVersion + 1;
  await insertVersion(tx, { documentId, version, type, lang: doc.lang, createdBy, note, ...draft }, now);
  await tx
    .update(contentDocuments)
    .set({
      currentVersion: version,
      updatedAt: now,
      // Never published: the snapshot follows the draft (still not served), so the list and the
      // unique index see the newest uid and title.
      ...(doc.publishedVersion === null ? { uid: draft.uid, tags: draft.tags, data: draft.data } : {}),
    })
    .where(eq(contentDocuments.id, documentId));
  return { version, previousVersion: doc.currentVersion, draft };
}

/** Copies a version into the served snapshot (the caller holds the row lock). */
async function publishLocked(
  tx: Database,
  doc: { id: string; type: string; lang: string },
  version: number,
  now: Date,
) {
  const saved = await getVersion(tx, doc.id, version);
  if (!saved) throw new RefusalError(refuse('CONTENT_VERSION_NOT_FOUND', { documentId: doc.id, version }));
  // A notice's blank first version (or any version saved before this rule) never reaches the site.
  checkNoticeBody(doc.type, saved.data);
  await checkUidFree(tx, doc.id, doc.type as EditableContentType, saved.uid, doc.lang);
  await tx
    .update(contentDocuments)
    .set({
      uid: saved.uid,
      tags: saved.tags,
      data: saved.data,
      publishedAt: now,
      publishedVersion: version,
      // A publication by hand supersedes any booked one.
      scheduledAt: null,
      scheduledVersion: null,
      updatedAt: now,
    })
    .where(eq(contentDocuments.id, doc.id));
  return saved;
}

/**
 * Publishes a version now: the page serves it from this instant.
 * @example await publish(tx, id, 4)
 */
export async function publish(
  tx: Database,
  documentId: string,
  version: number,
  now = new Date(),
): Promise<{ before: { publishedVersion: number | null; publishedAt: Date | null }; version: number; uid: string }> {
  const doc = await lockDocument(tx, documentId);
  const saved = await publishLocked(tx, doc, version, now);
  return { before: { publishedVersion: doc.publishedVersion, publishedAt: doc.publishedAt }, version, uid: saved.uid };
}

/** Takes a document off the site (its snapshot stays, to be published again). */
export async function unpublish(
  tx: Database,
  documentId: string,
  now = new Date(),
): Promise<{ publishedVersion: number | null; uid: string }> {
  const doc = await lockDocument(tx, documentId);
  if (!doc.publishedAt) throw new RefusalError(refuse('CONTENT_NOT_PUBLISHED', { documentId }));
  await tx
    .update(contentDocuments)
    .set({ publishedAt: null, updatedAt: now })
    .where(eq(contentDocuments.id, documentId));
  return { publishedVersion: doc.publishedVersion, uid: doc.uid };
}

/**
 * Rolls back to an old version: a NEW version with the old one's fields (history is never rewritten),
 * published at once.
 * @example const { version } = await rollback(tx, id, 2, memberId) // 5, equal to 2
 */
export async function rollback(
  tx: Database,
  documentId: string,
  toVersion: number,
  createdBy: string | null,
  now = new Date(),
): Promise<{ version: number; fromVersion: number; previousPublished: number | null }> {
  const doc = await lockDocument(tx, documentId);
  const old = await getVersion(tx, documentId, toVersion);
  if (!old) throw new RefusalError(refuse('CONTENT_VERSION_NOT_FOUND', { documentId, version: toVersion }));
  const version = doc.currentVersion + 1;
  await insertVersion(
    tx,
    {
      documentId,
      version,
      type: doc.type as EditableContentType,
      lang: doc.lang,
      createdBy,
      note: `版${toVersion}に戻す`,
      uid: old.uid,
      tags: old.tags,
      data: old.data,
    },
    now,
  );
  await tx.update(contentDocuments).set({ currentVersion: version }).where(eq(contentDocuments.id, documentId));
  await publishLocked(tx, doc, version, now);
  return { version, fromVersion: toVersion, previousPublished: doc.publishedVersion };
}

/** Books a version's publication at `at` (later than now); replaces an earlier booking. */
export async function schedule(
  tx: Database,
  documentId: string,
  version: number,
  at: Date,
  now = new Date(),
): Promise<{ before: { version: number | null; at: Date | null } }> {
  const doc = await lockDocument(tx, documentId);
  if (!(at.getTime() > now.getTime()))
    throw new RefusalError(refuse('CONTENT_SCHEDULE_IN_PAST', { at: at.toISOString() }));
  const saved = await getVersion(tx, documentId, version);
  if (!saved) throw new RefusalError(refuse('CONTENT_VERSION_NOT_FOUND', { documentId, version }));
  // Refused at booking rather than dropped by the job when it falls due.
  checkNoticeBody(doc.type, saved.data);
  await tx
    .update(contentDocuments)
    .set({ scheduledVersion: version, scheduledAt: at, updatedAt: now })
    .where(eq(contentDocuments.id, documentId));
  return { before: { version: doc.scheduledVersion, at: doc.scheduledAt } };
}

/** Cancels a booked publication. */
export async function cancelSchedule(
  tx: Database,
  documentId: string,
  now = new Date(),
): Promise<{ version: number; at: Date }> {
  const doc = await lockDocument(tx, documentId);
  if (!doc.scheduledAt || doc.scheduledVersion === null)
    throw new RefusalError(refuse('CONTENT_NOT_SCHEDULED', { documentId }));
  await tx
    .update(contentDocuments)
    .set({ scheduledVersion: null, scheduledAt: null, updatedAt: now })
    .where(eq(contentDocuments.id, documentId));
  return { version: doc.scheduledVersion, at: doc.scheduledAt };
}

/**
 * Carries out the publications due at `now` (the job content.publish-scheduled). Rows are taken FOR
 * UPDATE SKIP LOCKED, so two runs at once never take the same document, and a document published is
 * no longer booked: a repeat publishes nothing twice. Call it inside a transaction.
 * @example const done = await publishScheduled(tx, new Date()) // [{ documentId, version, uid }]
 */
export async function publishScheduled(
  tx: Database,
  now: Date,
  limit = 100,
): Promise<{ documentId: string; version: number; uid: string; scheduledAt: Date; refused?: string }[]> {
  const due = await tx
    .select()
    .from(contentDocuments)
    .where(and(isNotNull(contentDocuments.scheduledAt), lte(contentDocuments.scheduledAt, now)))
    .orderBy(asc(contentDocuments.scheduledAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  const done: { documentId: string; version: number; uid: string; scheduledAt: Date; refused?: string }[] = [];
  for (const doc of due) {
    if (doc.scheduledVersion === null || !doc.scheduledAt) continue;
    try {
      const saved = await publishLocked(tx, doc, doc.scheduledVersion, now);
      done.push({ documentId: doc.id, version: doc.scheduledVersion, uid: saved.uid, scheduledAt: doc.scheduledAt });
    } catch (error) {
      // The booked version cannot go out (its uid was taken since): the booking is dropped and the
      // refusal recorded, instead of failing every run after it. Nothing was written for it yet.
      if (!(error instanceof RefusalError)) throw error;
      await tx
        .update(contentDocuments)
        .set({ scheduledAt: null, scheduledVersion: null, updatedAt: now })
        .where(eq(contentDocuments.id, doc.id));
      done.push({
        documentId: doc.id,
        version: doc.scheduledVersion,
        uid: doc.uid,
        scheduledAt: doc.scheduledAt,
        refused: (error as RefusalError).refusal.code,
      });
    }
  }
  return done;
}

/** Seeds version 1 of documents just inserted by addDocuments (banners are not versioned). */
export async function addFirstVersions(
  tx: Database,
  documents: { id: string; type: string; uid: string; lang?: string | null; tags?: string[] | null; data: unknown }[],
  now = new Date(),
): Promise<void> {
  const rows = documents
    .filter((d) => (EDITABLE_CONTENT_TYPES as readonly string[]).includes(d.type))
    .map((d) => ({
      documentId: d.id,
      version: 1,
      type: d.type as EditableContentType,
      uid: d.uid,
      lang: d.lang ?? 'ja-jp',
      tags: d.tags ?? [],
      data: d.data,
      createdBy: null,
      createdAt: now,
      note: '初版（既定の内容）',
    }));
  if (rows.length) await tx.insert(contentVersions).values(rows).onConflictDoNothing();
}

// ---- diff -------------------------------------------------------------------------------------

function blockLine(block: RichTextBlock): string {
  switch (block.type) {
    case 'image':
      return `[画像] ${block.url}${block.alt ? `（${block.alt}）` : ''}`;
    case 'embed':
      return `[埋め込み] ${block.oembed.embed_url}`;
    default: {
      const prefix =
        {
          heading1: '# ',
          heading2: '## ',
          heading3: '### ',
          heading4: '#### ',
          'list-item': '・',
          'o-list-item': '1. ',
          preformatted: '    ',
          paragraph: '',
        }[block.type] ?? '';
      const links = block.spans
        .filter((s) => s.type === 'hyperlink')
        .map((s) => {
          const data = s.data as { url?: string };
          return ` [リンク: ${block.text.slice(s.start, s.end)} → ${data.url ?? ''}]`;
        })
        .join('');
      return `${prefix}${block.text}${links}`;
    }
  }
}

const richTextLines = (richText: RichText | undefined, indent = '') =>
  (richText ?? []).flatMap((block) =>
    blockLine(block)
      .split('\n')
      .map((line) => `${indent}${line}`),
  );

function sliceLines(slice: Slice, index: number): string[] {
  const head = `スライス${index + 1}`;
  switch (slice.slice_type) {
    case 'text':
      return [`${head}（文章）:`, ...richTextLines(slice.primary.text, '  ')];
    case 'image':
      return [
        `${head}（画像）: ${slice.primary.image.url}（${slice.primary.image.alt ?? ''}）${slice.primary.caption ? ` ${slice.primary.caption}` : ''}`,
      ];
    case 'embed':
      return [`${head}（埋め込み）: ${slice.primary.embed.embed_url}`];
    case 'button':
      return [
        `${head}（ボタン）: ${slice.primary.label} → ${'url' in slice.primary.link ? slice.primary.link.url : ''}`,
      ];
    case 'table': {
      const rows = [...(slice.primary.table.head?.rows ?? []), ...slice.primary.table.body.rows];
      return [
        `${head}（表${slice.primary.table.head?.rows.length ? '・見出し行あり' : ''}）:`,
        ...rows.map((row) => `  | ${row.cells.map((cell) => richTextLines(cell.content).join(' ')).join(' | ')} |`),
      ];
    }
  }
}

/** A version as readable lines (title, description, uid, tags, body, each slice): what the diff compares. */
export function versionText(version: Pick<ContentVersion, 'uid' | 'tags' | 'type' | 'data'>): string {
  const data = version.data as Partial<PageData & NoticeData>;
  const lines = [`タイトル: ${data.title ?? ''}`];
  if (data.description) lines.push(`説明: ${data.description}`);
  if (data.footerNote) lines.push(`フッターの表示: ${data.footerNote}`);
  lines.push(`URL: /${version.uid}`, `タグ: ${version.tags.join(', ')}`);
  if (data.heroImage)
    lines.push(`メイン画像: ${typeof data.heroImage === 'string' ? data.heroImage : data.heroImage.url}`);
  if (version.type === 'notice') {
    lines.push(
      `表示開始: ${data.startsAt ?? 'なし'}`,
      `表示終了: ${data.endsAt ?? 'なし'}`,
      `重要: ${data.important ? 'はい' : 'いいえ'}`,
    );
  }
  lines.push('本文:', ...richTextLines(data.body, '  '));
  (data.slices ?? []).forEach((slice, index) => lines.push(...sliceLines(slice, index)));
  return `${lines.join('\n')}\n`;
}

export interface DiffLine {
  kind: 'added' | 'removed' | 'same';
  text: string;
}

/** The line diff from version `a` to version `b` (jsdiff's diffLines over versionText). */
export function diffVersions(a: ContentVersion, b: ContentVersion): DiffLine[] {
  return diffLines(versionText(a), versionText(b)).flatMap((change) =>
    change.value
      .replace(/\n$/, '')
      .split('\n')
      .map((text) => ({ kind: change.added ? 'added' : change.removed ? 'removed' : 'same', text }) as DiffLine),
  );
}

/**
 * The diff between two saved versions of a document, or null when either is missing.
 * @example const lines = await versionDiff(db, id, 2, 5) // [{ kind: 'removed', text: 'タイトル: 旧' }, …]
 */
export async function versionDiff(db: Database, documentId: string, a: number, b: number): Promise<DiffLine[] | null> {
  const [from, to] = await Promise.all([getVersion(db, documentId, a), getVersion(db, documentId, b)]);
  return from && to ? diffVersions(from, to) : null;
}
