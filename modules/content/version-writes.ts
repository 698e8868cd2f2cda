// Writing the versioned store (docs/decisions/040): create, save a draft, publish, unpublish, roll back,
// schedule and carry out bookings. Every function takes the caller's transaction (runAdminAction).
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNotNull, lte, ne, or } from 'drizzle-orm';
import type { Database } from '#db/client';
import { refuse, RefusalError } from '#modules/kernel';
import { contentDocuments, contentVersions } from './schema';
import { EDITABLE_CONTENT_TYPES, getVersion, type ContentDraft, type EditableContentType } from './versions';
import { checkContentDraft, checkNoticeBody } from './version-checks';

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
