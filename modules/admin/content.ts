// The operators' actions on the built-in content store (/admin/content, docs/decisions/040): each one
// through runAdminAction with 'content:write', so the version written and its audit entry commit
// together (a refused or failed action leaves neither). The scheduled publications are carried out by
// the job content.publish-scheduled as the system actor, with their entries in the same transaction.
import type { Database } from '#db/client';
import {
  cancelSchedule,
  createDocument,
  publish,
  publishScheduled,
  rollback,
  saveDraft,
  schedule,
  unpublish,
  type ContentDraft,
  type EditableContentType,
} from '#modules/content';
import { recordAudit, runAdminAction, type Operator } from './audit';
import { ADMIN_PERMISSIONS } from './permissions';
import type { OperatorOutcome } from './operations';

const target = (id: string) => ({ type: 'content_document', id });

/** Creates a document as a draft, version 1 (`content.create`). */
export function createContentAsOperator(
  db: Database,
  operator: Operator,
  input: { type: EditableContentType; draft: ContentDraft },
): Promise<OperatorOutcome<{ id: string; version: number }>> {
  return runAdminAction(db, operator, 'content:write', async (tx) => {
    const created = await createDocument(tx, { ...input, createdBy: operator.memberId });
    return {
      value: { id: created.id, version: created.version },
      audit: {
        action: 'content.create',
        target: target(created.id),
        after: { type: input.type, version: 1, ...created.draft },
      },
    };
  });
}

/** Saves the editor's fields as a new version (`content.save`); a stale editor is refused. */
export function saveContentDraftAsOperator(
  db: Database,
  operator: Operator,
  documentId: string,
  draft: ContentDraft,
  expectedVersion: number,
): Promise<OperatorOutcome<{ version: number }>> {
  return runAdminAction(db, operator, 'content:write', async (tx) => {
    const saved = await saveDraft(tx, documentId, draft, expectedVersion, operator.memberId);
    return {
      value: { version: saved.version },
      audit: {
        action: 'content.save',
        target: target(documentId),
        before: { version: saved.previousVersion },
        after: { version: saved.version, uid: saved.draft.uid, title: saved.draft.data.title },
      },
    };
  });
}

/** Publishes a version now (`content.publish`). */
export function publishContentAsOperator(
  db: Database,
  operator: Operator,
  documentId: string,
  version: number,
): Promise<OperatorOutcome<{ version: number; uid: string }>> {
  return runAdminAction(db, operator, 'content:write', async (tx) => {
    const done = await publish(tx, documentId, version);
    return {
      value: { version: done.version, uid: done.uid },
      audit: {
        action: 'content.publish',
        target: target(documentId),
        before: done.before,
        after: { publishedVersion: version, uid: done.uid },
      },
    };
  });
}

/** Takes a document off the site (`content.unpublish`). */
export function unpublishContentAsOperator(
  db: Database,
  operator: Operator,
  documentId: string,
): Promise<OperatorOutcome<{ uid: string }>> {
  return runAdminAction(db, operator, 'content:write', async (tx) => {
    const done = await unpublish(tx, documentId);
    return {
      value: { uid: done.uid },
      audit: {
        action: 'content.unpublish',
        target: target(documentId),
        before: { publishedVersion: done.publishedVersion },
      },
    };
  });
}

/** Rolls back to an old version: a new version copying it, published (`content.rollback`). */
export function rollbackContentAsOperator(
  db: Database,
  operator: Operator,
  documentId: string,
  toVersion: number,
): Promise<OperatorOutcome<{ version: number }>> {
  return runAdminAction(db, operator, 'content:write', async (tx) => {
    const done = await rollback(tx, documentId, toVersion, operator.memberId);
    return {
      value: { version: done.version },
      audit: {
        action: 'content.rollback',
        target: target(documentId),
        before: { publishedVersion: done.previousPublished },
        after: { version: done.version, copyOf: done.fromVersion },
      },
    };
  });
}

/** Books a version's publication (`content.schedule`). */
export function scheduleContentAsOperator(
  db: Database,
  operator: Operator,
  documentId: string,
  version: number,
  at: Date,
): Promise<OperatorOutcome<{ version: number; at: Date }>> {
  return runAdminAction(db, operator, 'content:write', async (tx) => {
    const done = await schedule(tx, documentId, version, at);
    return {
      value: { version, at },
      audit: { action: 'content.schedule', target: target(documentId), before: done.before, after: { version, at } },
    };
  });
}

/** Cancels a booked publication (`content.schedule.cancel`). */
export function cancelContentScheduleAsOperator(
  db: Database,
  operator: Operator,
  documentId: string,
): Promise<OperatorOutcome<{ version: number; at: Date }>> {
  return runAdminAction(db, operator, 'content:write', async (tx) => {
    const done = await cancelSchedule(tx, documentId);
    return { value: done, audit: { action: 'content.schedule.cancel', target: target(documentId), before: done } };
  });
}

/** Records an image uploaded for content (`content.image.upload`); the file is written before. */
export function recordContentImageAsOperator(
  db: Database,
  operator: Operator,
  image: { url: string; width: number; height: number },
): Promise<OperatorOutcome<typeof image>> {
  return runAdminAction(db, operator, 'content:write', async () => ({
    value: image,
    audit: { action: 'content.image.upload', target: { type: 'content_image', id: image.url }, after: image },
  }));
}

/** The actor of the scheduler's entries: no member, named by the job. */
export const CONTENT_SCHEDULER_OPERATOR: Operator = {
  memberId: null,
  label: 'system:content.publish-scheduled',
  role: 'cli',
  permissions: new Set(ADMIN_PERMISSIONS),
  requestId: null,
  address: null,
};

/**
 * Publishes every booked version due at `now`, each with its `content.publish.scheduled` entry by the
 * system actor, in one transaction (the job content.publish-scheduled; safe on several instances).
 * @example const published = await publishScheduledContent(db, new Date()) // 2
 */
export async function publishScheduledContent(db: Database, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const done = await publishScheduled(tx, now);
    await recordAudit(
      tx,
      CONTENT_SCHEDULER_OPERATOR,
      'content:write',
      done.map((d) => ({
        action: d.refused ? 'content.publish.scheduled.refused' : 'content.publish.scheduled',
        target: target(d.documentId),
        after: d.refused
          ? { version: d.version, scheduledAt: d.scheduledAt, refused: d.refused }
          : { publishedVersion: d.version, uid: d.uid, scheduledAt: d.scheduledAt },
      })),
    );
    return done.filter((d) => !d.refused).length;
  });
}
