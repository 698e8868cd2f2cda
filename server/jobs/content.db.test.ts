// The content store's audited actions and its job (docs/decisions/040): each action's audit entry is
// in the same transaction as its version (a refused or failed action leaves neither), and a booked
// publication is carried out by content.publish-scheduled through the job runner, once, audited as
// the system.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useTestDatabase } from '#tests/use-test-database';
import { refuse, RefusalError } from '#modules/kernel';
import {
  createContentAsOperator,
  listAuditEntries,
  publishContentAsOperator,
  publishScheduledContent,
  rollbackContentAsOperator,
  runAdminAction,
  saveContentDraftAsOperator,
  scheduleContentAsOperator,
  type Operator,
} from '#modules/admin';
import { createBuiltinSource, listVersions, paragraph, saveDraft, type ContentDraft } from '#modules/content';
import { createJobRunner, type JobRunner } from './runner';
import { publishScheduledContentJob } from './content';
import { capturingLogger } from './test-support';

const handle = useTestDatabase('content_jobs', { poolSize: 4 });
let runner: JobRunner;

const operator: Operator = {
  memberId: randomUUID(),
  label: 'editor@example.jp',
  role: 'staff',
  permissions: new Set(['content:write']),
  requestId: 'req-1',
  address: '127.0.0.1',
};
const draft = (uid: string, title: string): ContentDraft => ({
  uid,
  tags: [],
  data: { title, body: [paragraph('本文')] },
});
const entriesOf = async (id: string) =>
  (await listAuditEntries(handle.db, { targetType: 'content_document', targetId: id }, 50)).entries.map(
    (e) => e.action,
  );

beforeAll(async () => {
  runner = createJobRunner({
    database: handle,
    logger: capturingLogger().logger,
    config: { DATABASE_URL: handle.databaseUrl },
    pollingIntervalSeconds: 0.5,
  });
  runner.register(publishScheduledContentJob());
  await runner.start();
});
afterAll(async () => {
  await runner?.stop();
});

describe('content editing as an operator', () => {
  it('writes each action with its audit entry, and a refused or failed action leaves neither', async () => {
    const created = await createContentAsOperator(handle.db, operator, { type: 'page', draft: draft('audited', '一') });
    if (!created.ok) throw new Error(created.code);
    const id = created.value.id;
    expect(await saveContentDraftAsOperator(handle.db, operator, id, draft('audited', '二'), 1)).toMatchObject({
      ok: true,
    });
    expect(await publishContentAsOperator(handle.db, operator, id, 2)).toMatchObject({ ok: true });
    expect(await rollbackContentAsOperator(handle.db, operator, id, 1)).toMatchObject({
      ok: true,
      value: { version: 3 },
    });
    expect(await entriesOf(id)).toEqual(['content.rollback', 'content.publish', 'content.save', 'content.create']);

    // A stale editor: refused, no version, no entry.
    expect(await saveContentDraftAsOperator(handle.db, operator, id, draft('audited', '古い'), 1)).toMatchObject({
      ok: false,
      code: 'CONTENT_VERSION_CONFLICT',
    });
    // An action that saved a version and then failed: the version is rolled back with its entry.
    const failed = await runAdminAction(handle.db, operator, 'content:write', async (tx) => {
      await saveDraft(tx, id, draft('audited', '途中'), 3, operator.memberId);
      throw new RefusalError(refuse('CONTENT_INVALID', { message: 'テスト' }));
    });
    expect(failed).toMatchObject({ ok: false, code: 'CONTENT_INVALID' });
    expect((await listVersions(handle.db, id)).map((v) => v.version)).toEqual([3, 2, 1]);
    expect(await entriesOf(id)).toHaveLength(4);

    // Without the permission: refused before anything.
    const reader = { ...operator, permissions: new Set<never>() };
    expect(await publishContentAsOperator(handle.db, reader, id, 1)).toMatchObject({
      ok: false,
      code: 'PERMISSION_DENIED',
    });
    expect(await entriesOf(id)).toHaveLength(4);
  });

  it('publishes a booked version through the job runner, once, audited as the system', async () => {
    const created = await createContentAsOperator(handle.db, operator, {
      type: 'page',
      draft: draft('booked-job', '予約公開'),
    });
    if (!created.ok) throw new Error(created.code);
    const id = created.value.id;
    const at = new Date(Date.now() + 1500);
    expect(await scheduleContentAsOperator(handle.db, operator, id, 1, at)).toMatchObject({ ok: true });
    expect((await runner.runNow('content.publish-scheduled')).processed).toBe(0);
    expect(await createBuiltinSource(handle.db).getPage('booked-job', ['page'])).toBeNull();

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at.getTime() - Date.now()) + 50));
    expect((await runner.runNow('content.publish-scheduled')).processed).toBe(1);
    expect((await createBuiltinSource(handle.db).getPage('booked-job', ['page']))?.data.title).toBe('予約公開');
    expect((await runner.runNow('content.publish-scheduled')).processed).toBe(0);

    const { entries } = await listAuditEntries(handle.db, { targetType: 'content_document', targetId: id }, 10);
    expect(entries.map((e) => [e.action, e.actorId, e.actorLabel])).toEqual([
      ['content.publish.scheduled', null, 'system:content.publish-scheduled'],
      ['content.schedule', operator.memberId, 'editor@example.jp'],
      ['content.create', operator.memberId, 'editor@example.jp'],
    ]);
  });

  it('never publishes a booking twice when two runs race', async () => {
    const created = await createContentAsOperator(handle.db, operator, {
      type: 'page',
      draft: draft('booked-race', '競争'),
    });
    if (!created.ok) throw new Error(created.code);
    const at = new Date(Date.now() + 300);
    expect(await scheduleContentAsOperator(handle.db, operator, created.value.id, 1, at)).toMatchObject({ ok: true });
    await new Promise((resolve) => setTimeout(resolve, 400));
    const runs = await Promise.all([
      publishScheduledContent(handle.db, new Date()),
      publishScheduledContent(handle.db, new Date()),
    ]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await entriesOf(created.value.id)).toEqual([
      'content.publish.scheduled',
      'content.schedule',
      'content.create',
    ]);
  });
});
