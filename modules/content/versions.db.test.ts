// The versioned built-in store (docs/decisions/040): every save is a new version, a stale editor is
// refused, publishing copies a version into the served snapshot, unpublishing hides it, a rollback is a
// new version equal to the old one and published, bookings publish when due, uids are checked.
import { describe, it, expect } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import type { Database } from '#db/client';
import { RefusalError } from '#modules/kernel';
import { contentDocuments, contentVersions } from './schema';
import {
  addDocuments,
  cancelSchedule,
  createDocument,
  getDocumentForEditor,
  createBuiltinSource,
  listDocuments,
  listVersions,
  paragraph,
  publish,
  publishScheduled,
  rollback,
  saveDraft,
  schedule,
  unpublish,
  versionDiff,
  type ContentDraft,
} from './index';

const handle = useTestDatabase('content_versions');
const editor = '00000000-0000-4000-8000-00000000e0e0';

const pageDraft = (uid: string, title: string, text = '本文です。'): ContentDraft => ({
  uid,
  tags: ['guide'],
  data: { title, body: [paragraph(text)] },
});

/** The code of the refusal a store call throws. */
async function refusalOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (error instanceof RefusalError) return error.refusal.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

const inTx = <T>(work: (tx: Database) => Promise<T>) => handle.db.transaction(work);

describe('the versioned content store', () => {
  it('keeps a new document as an unserved draft at version 1, and every save as a new version', async () => {
    const { id } = await inTx((tx) =>
      createDocument(tx, { type: 'page', draft: pageDraft('guide/first', '初版'), createdBy: editor }),
    );
    expect(await createBuiltinSource(handle.db).getPage('guide/first', ['page'])).toBeNull();
    const listed = await listDocuments(handle.db, { type: 'page', status: 'draft' });
    expect(listed.documents.map((d) => [d.id, d.title, d.status])).toContainEqual([id, '初版', 'draft']);

    const second = await inTx((tx) => saveDraft(tx, id, pageDraft('guide/first', '二版'), 1, editor));
    expect(second.version).toBe(2);
    const third = await inTx((tx) => saveDraft(tx, id, pageDraft('guide/first', '三版', '書き直し'), 2, editor));
    expect(third.version).toBe(3);
    expect((await listVersions(handle.db, id)).map((v) => [v.version, v.title, v.createdBy])).toEqual([
      [3, '三版', editor],
      [2, '二版', editor],
      [1, '初版', editor],
    ]);
    const opened = await getDocumentForEditor(handle.db, id);
    expect(opened?.draft.version).toBe(3);
    expect(opened?.draft.data.title).toBe('三版');

    const diff = await versionDiff(handle.db, id, 1, 3);
    expect(diff).toContainEqual({ kind: 'removed', text: 'タイトル: 初版' });
    expect(diff).toContainEqual({ kind: 'added', text: 'タイトル: 三版' });
    expect(diff).toContainEqual({ kind: 'added', text: '  書き直し' });
    expect(diff).toContainEqual({ kind: 'same', text: 'URL: /guide/first' });
  });

  it('refuses a save from an editor opened on an older version, and writes nothing', async () => {
    const { id } = await inTx((tx) =>
      createDocument(tx, { type: 'page', draft: pageDraft('guide/race', 'A'), createdBy: editor }),
    );
    await inTx((tx) => saveDraft(tx, id, pageDraft('guide/race', 'B'), 1, editor));
    expect(await refusalOf(inTx((tx) => saveDraft(tx, id, pageDraft('guide/race', 'C'), 1, editor)))).toBe(
      'CONTENT_VERSION_CONFLICT',
    );
    expect((await listVersions(handle.db, id)).map((v) => v.title)).toEqual(['B', 'A']);
  });

  it('serves exactly the published version, hides it when unpublished, and rolls back as a new published version', async () => {
    const { id } = await inTx((tx) =>
      createDocument(tx, { type: 'page', draft: pageDraft('guide/pub', '公開1'), createdBy: editor }),
    );
    await inTx((tx) => publish(tx, id, 1));
    expect((await createBuiltinSource(handle.db).getPage('guide/pub', ['page']))?.data.title).toBe('公開1');
    expect((await createBuiltinSource(handle.db).listPages()).map((p) => p.uid)).toContain('guide/pub');

    // A later draft does not touch what members see until it is published.
    await inTx((tx) => saveDraft(tx, id, { ...pageDraft('guide/pub-new', '下書き2'), tags: ['x'] }, 1, editor));
    const served = await createBuiltinSource(handle.db).getPage('guide/pub', ['page']);
    expect(served?.data.title).toBe('公開1');
    expect(await createBuiltinSource(handle.db).getPage('guide/pub-new', ['page'])).toBeNull();

    await inTx((tx) => publish(tx, id, 2));
    expect(await createBuiltinSource(handle.db).getPage('guide/pub', ['page'])).toBeNull();
    expect((await createBuiltinSource(handle.db).getPage('guide/pub-new', ['page']))?.data.title).toBe('下書き2');
    const [snapshot] = await handle.db.select().from(contentDocuments).where(eq(contentDocuments.id, id));
    expect(snapshot).toMatchObject({ uid: 'guide/pub-new', tags: ['x'], publishedVersion: 2, currentVersion: 2 });

    await inTx((tx) => unpublish(tx, id));
    expect(await createBuiltinSource(handle.db).getPage('guide/pub-new', ['page'])).toBeNull();
    expect((await listDocuments(handle.db, { status: 'unpublished' })).documents.map((d) => d.id)).toContain(id);
    expect(await refusalOf(inTx((tx) => unpublish(tx, id)))).toBe('CONTENT_NOT_PUBLISHED');

    const rolled = await inTx((tx) => rollback(tx, id, 1, editor));
    expect(rolled.version).toBe(3);
    const versions = await handle.db.select().from(contentVersions).where(eq(contentVersions.documentId, id));
    const v1 = versions.find((v) => v.version === 1)!;
    const v3 = versions.find((v) => v.version === 3)!;
    expect({ uid: v3.uid, tags: v3.tags, data: v3.data }).toEqual({ uid: v1.uid, tags: v1.tags, data: v1.data });
    expect(v3.note).toBe('版1に戻す');
    expect((await createBuiltinSource(handle.db).getPage('guide/pub', ['page']))?.data.title).toBe('公開1');
    expect(await refusalOf(inTx((tx) => rollback(tx, id, 99, editor)))).toBe('CONTENT_VERSION_NOT_FOUND');
  });

  it('publishes a booked version when due, once, and cancels a booking', async () => {
    // Booked two minutes ago for one minute ago, so that the publication is already served.
    const now = new Date(Date.now() - 120_000);
    const { id } = await inTx((tx) =>
      createDocument(tx, { type: 'page', draft: pageDraft('guide/booked', '予約'), createdBy: editor }),
    );
    expect(await refusalOf(inTx((tx) => schedule(tx, id, 1, new Date(now.getTime() - 1000), now)))).toBe(
      'CONTENT_SCHEDULE_IN_PAST',
    );
    const at = new Date(now.getTime() + 60_000);
    await inTx((tx) => schedule(tx, id, 1, at, now));
    expect((await listDocuments(handle.db, { status: 'scheduled' })).documents.map((d) => d.id)).toContain(id);
    expect(await inTx((tx) => publishScheduled(tx, now))).toEqual([]);
    const later = new Date(at.getTime() + 1);
    expect((await inTx((tx) => publishScheduled(tx, later))).map((d) => d.documentId)).toEqual([id]);
    expect(await inTx((tx) => publishScheduled(tx, later))).toEqual([]);
    expect((await createBuiltinSource(handle.db).getPage('guide/booked', ['page']))?.data.title).toBe('予約');

    await inTx((tx) => schedule(tx, id, 1, at, now));
    await inTx((tx) => cancelSchedule(tx, id));
    expect(await inTx((tx) => publishScheduled(tx, later))).toEqual([]);
    expect(await refusalOf(inTx((tx) => cancelSchedule(tx, id)))).toBe('CONTENT_NOT_SCHEDULED');
  });

  it('refuses invalid, reserved and taken uids, and invalid fields', async () => {
    const create = (type: 'page' | 'special' | 'notice', uid: string) =>
      inTx((tx) =>
        createDocument(tx, {
          type,
          draft: type === 'notice' ? { uid, tags: [], data: { title: 'お知らせ', body: [] } } : pageDraft(uid, '題'),
          createdBy: editor,
        }),
      );
    expect(await refusalOf(create('page', 'Guide'))).toBe('CONTENT_UID_INVALID');
    expect(await refusalOf(create('page', 'a/b/c/d/e'))).toBe('CONTENT_UID_INVALID');
    expect(await refusalOf(create('special', 'a/b'))).toBe('CONTENT_UID_INVALID');
    expect(await refusalOf(create('notice', 'Winter'))).toBe('CONTENT_UID_INVALID');
    for (const uid of ['admin', 'gacha/x', 'mypage', 'notices/x', 'api', 'preview', 'notices'])
      expect(await refusalOf(create('page', uid))).toBe('CONTENT_UID_RESERVED');
    await create('page', 'guide/taken');
    expect(await refusalOf(create('page', 'guide/taken'))).toBe('CONTENT_UID_TAKEN');
    await create('special', 'taken-special');
    // Pages and special pages share /{uid}.
    expect(await refusalOf(create('page', 'taken-special'))).toBe('CONTENT_UID_TAKEN');
    await create('notice', 'one');
    expect(await refusalOf(create('notice', 'one'))).toBe('CONTENT_UID_TAKEN');
    expect(await refusalOf(create('notice', 'notices/two'))).toBe('CONTENT_UID_INVALID');
    expect(
      await refusalOf(
        inTx((tx) =>
          createDocument(tx, {
            type: 'page',
            draft: {
              uid: 'guide/bad-link',
              tags: [],
              data: {
                title: 'x',
                body: [],
                slices: [
                  {
                    slice_type: 'button',
                    primary: { label: '押す', link: { link_type: 'Web', url: 'javascript:alert(1)' } },
                    items: [],
                  },
                ],
              },
            },
            createdBy: editor,
          }),
        ),
      ),
    ).toBe('CONTENT_INVALID');
    expect(
      await refusalOf(
        inTx((tx) =>
          createDocument(tx, {
            type: 'notice',
            draft: {
              uid: 'window',
              tags: [],
              data: {
                title: 'x',
                body: [],
                startsAt: '2026-12-02T00:00:00+09:00',
                endsAt: '2026-12-01T00:00:00+09:00',
              },
            },
            createdBy: editor,
          }),
        ),
      ),
    ).toBe('CONTENT_INVALID');
  });

  it('refuses http:// links in a body, a button or an image when saving, with the editor message (issue 28 item 9)', async () => {
    const link = (url: string) => ({
      type: 'paragraph' as const,
      text: 'こちら',
      spans: [{ start: 0, end: 3, type: 'hyperlink' as const, data: { url } }],
    });
    let n = 0;
    const save = (data: ContentDraft['data'], type: 'notice' | 'page' = 'notice') =>
      inTx((tx) => createDocument(tx, { type, draft: { uid: `links-${++n}`, tags: [], data }, createdBy: editor }));
    expect(await refusalOf(save({ title: 'x', body: [link('http://example.jp/a')] }))).toBe('CONTENT_INVALID');
    const button = (url: string) => ({
      title: 'x',
      body: [paragraph('本文')],
      slices: [{ slice_type: 'button', primary: { label: '押す', link: { link_type: 'Web', url } }, items: [] }],
    });
    expect(await refusalOf(save(button('http://example.jp/b') as ContentDraft['data'], 'page'))).toBe(
      'CONTENT_INVALID',
    );
    // https and the shop's own paths save as before.
    for (const url of ['https://example.jp/a', '/gacha/pokemon']) {
      expect((await save({ title: 'x', body: [link(url)] })).id).toBeTruthy();
      expect((await save(button(url) as ContentDraft['data'], 'page')).id).toBeTruthy();
    }
    try {
      await inTx((tx) =>
        createDocument(tx, {
          type: 'notice',
          draft: { uid: 'links-message', tags: [], data: { title: 'x', body: [link('http://example.jp/a')] } },
          createdBy: editor,
        }),
      );
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error instanceof RefusalError && error.refusal.details.message).toBe(
        '本文のリンク「http://example.jp/a」は使えません。リンク先は / で始まるサイト内のパスか https:// のURLにしてください。',
      );
    }
  });

  it('refuses a notice without text in its body (specification section 5) when it is saved, published or booked', async () => {
    const notice = (body: ContentDraft['data']['body']): ContentDraft => ({
      uid: 'body-rule',
      tags: [],
      data: { title: '本文のないお知らせ', body },
    });
    /** The refusal's code and the message the editor shows. */
    const refusal = async (work: Promise<unknown>) => {
      try {
        await work;
      } catch (error) {
        if (error instanceof RefusalError) return [error.refusal.code, error.refusal.details.message];
        throw error;
      }
      throw new Error('expected a refusal');
    };
    const refused = ['CONTENT_INVALID', '本文を入力してください。'];
    // The list's 新規作成 form makes a blank first version (it asks only for the URL and title) ...
    const { id } = await inTx((tx) => createDocument(tx, { type: 'notice', draft: notice([]), createdBy: editor }));
    // ... which can be neither published nor booked.
    expect(await refusal(inTx((tx) => publish(tx, id, 1)))).toEqual(refused);
    expect(await refusal(inTx((tx) => schedule(tx, id, 1, new Date(Date.now() + 3_600_000))))).toEqual(refused);
    // Saving nothing, spaces, empty paragraphs or an image alone is refused, and writes no version.
    const image = {
      type: 'image' as const,
      url: '/media/pages/a.webp',
      alt: null,
      dimensions: { width: 8, height: 6 },
    };
    for (const body of [[], [paragraph('  　')], [paragraph(''), paragraph('\n')], [image]])
      expect(await refusal(inTx((tx) => saveDraft(tx, id, notice(body), 1, editor)))).toEqual(refused);
    expect((await listVersions(handle.db, id)).map((v) => v.version)).toEqual([1]);
    // With text it saves and publishes; a page's body may stay empty (its slices carry the page).
    await inTx((tx) => saveDraft(tx, id, notice([image, paragraph('本文があります。')]), 1, editor));
    expect((await inTx((tx) => publish(tx, id, 2))).version).toBe(2);
    const page = await inTx((tx) =>
      createDocument(tx, { type: 'page', draft: pageDraft('guide/no-body', '本文なし'), createdBy: editor }),
    );
    await inTx((tx) =>
      saveDraft(tx, page.id, { uid: 'guide/no-body', tags: [], data: { title: '本文なし', body: [] } }, 1, editor),
    );
    expect((await inTx((tx) => publish(tx, page.id, 2))).version).toBe(2);
  });

  it('gives seeded documents their version 1, published when they come published', async () => {
    await addDocuments(handle.db, [
      { id: 'seed-terms', type: 'page', uid: 'seed-terms', data: { title: '規約', body: [] }, publishedAt: new Date() },
      { id: 'seed-draft', type: 'page', uid: 'seed-draft', data: { title: '下書き', body: [] } },
    ]);
    // Seeding again (every start) adds nothing.
    await addDocuments(handle.db, [
      { id: 'seed-terms', type: 'page', uid: 'seed-terms', data: { title: '別', body: [] } },
    ]);
    expect((await listVersions(handle.db, 'seed-terms')).map((v) => [v.version, v.title])).toEqual([[1, '規約']]);
    const terms = await getDocumentForEditor(handle.db, 'seed-terms');
    expect(terms).toMatchObject({ status: 'published', publishedVersion: 1, currentVersion: 1 });
    expect((await getDocumentForEditor(handle.db, 'seed-draft'))?.status).toBe('draft');
    const saved = await inTx((tx) => saveDraft(tx, 'seed-terms', pageDraft('seed-terms', '規約（改訂）'), 1, editor));
    expect(saved.version).toBe(2);
  });

  it('keeps the history append-only in the database itself: an old version cannot be edited or deleted', async () => {
    await addDocuments(handle.db, [
      { id: 'kept', type: 'page', uid: 'kept', data: { title: '元の版', body: [] }, publishedAt: new Date() },
    ]);
    const version1 = and(eq(contentVersions.documentId, 'kept'), eq(contentVersions.version, 1));
    // drizzle wraps the database's error; its cause carries the trigger's words.
    const failure = (query: Promise<unknown>) =>
      query.then(
        () => 'accepted',
        (error: { message?: string; cause?: { message?: string } }) => error.cause?.message ?? error.message ?? '',
      );
    expect(
      await failure(
        handle.db
          .update(contentVersions)
          .set({ data: { title: '書き換え', body: [] } })
          .where(version1),
      ),
    ).toMatch(/append-only/);
    expect(await failure(handle.db.delete(contentVersions).where(version1))).toMatch(/append-only/);
    expect(await failure(handle.db.execute(sql`truncate content_versions`))).toMatch(/append-only/);
    expect((await listVersions(handle.db, 'kept')).map((v) => v.title)).toEqual(['元の版']);
  });
});
