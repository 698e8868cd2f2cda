// The clean-up of uploads nothing names (decision 071), on the disk store and on a real S3-protocol server
// (s3rver in a child process): within the grace period nothing goes, a form still being filled in keeps
// its image; after it, a replaced banner's art, a draft's replaced image, a deleted draft's card photo and
// a content image never saved go, while every object a pack, a card, a genre, a banner, a content document
// or an old content version names stays (whatever form the path took there); a disk write that never
// finished goes too. The job runs once per cluster on a bucket and on every instance on the disk.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { contentDocuments, contentVersions, gachas, gachaTiers, genres } from '#db/schema';
import { bannerFormSchema, saveBanner } from '#modules/content';
import { deleteUnpublishedPacks, updateDraft } from '#modules/gacha';
import type { MediaStore } from '#modules/kernel';
import { useTestDatabase } from '#tests/use-test-database';
import { TEST_S3_CREDENTIALS, startTestS3, type TestS3 } from '#tests/s3-server';
import { capturingLogger } from '#server/jobs/test-support';
import { mediaCleanupJob } from '#server/jobs/media-cleanup';
import { cleanUpMedia, diskMediaStore, s3MediaStore } from './index';

const handle = useTestDatabase('media-cleanup');
const GRACE_MS = 168 * 3_600_000;
let s3: TestS3;
const stores: MediaStore[] = [];
const temporary: string[] = [];

beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  for (const store of stores) await store.close();
  await s3?.stop();
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
});

const uuidName = () => `${randomUUID()}.webp`;
const hashName = () => `${randomUUID().replaceAll('-', '')}.webp`;

async function keysOf(store: MediaStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of store.list('media/')) keys.push(object.key);
  return keys.sort();
}

describe.each(['disk', 's3'] as const)('media.cleanup on the %s store', (kind) => {
  it('keeps what any row names and what is young; deletes the rest once the grace period is over', async () => {
    let store: MediaStore;
    if (kind === 'disk') {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-cleanup-'));
      temporary.push(dir);
      store = diskMediaStore(dir);
    } else {
      store = await s3MediaStore({
        bucket: s3.bucket,
        region: 'us-east-1',
        endpoint: s3.endpoint,
        forcePathStyle: true,
        prefix: `${kind}-${randomUUID().slice(0, 8)}/`,
        credentials: TEST_S3_CREDENTIALS,
        timeoutMs: 10_000,
        listPageSize: 3,
      });
    }
    stores.push(store);
    const put = (key: string) => store.put(key, new Uint8Array([1, 2, 3]), 'image/webp');
    const suffix = `${kind}-${randomUUID().slice(0, 6)}`;

    // A draft whose pack image was replaced (first → second), its card photo in use; a deleted draft's photo.
    const [first, second, cardPhoto, deletedDraftPhoto, genreIcon] = [1, 2, 3, 4, 5].map(uuidName);
    const genreId = `g-${suffix}`;
    await handle.db.insert(genres).values({ id: genreId, name: '掃除', iconPath: `/media/packs/${genreIcon}` });
    for (const [id, image] of [
      [`draft-${suffix}`, first],
      [`gone-${suffix}`, deletedDraftPhoto],
    ] as const) {
      await handle.db.insert(gachas).values({
        id,
        genreId,
        title: '下書き',
        imagePath: `/media/packs/${image}`,
        pricePerDraw: 100,
        totalLots: 1,
        remainingLots: 1,
        status: 'draft',
      });
    }
    await handle.db.insert(gachaTiers).values({
      id: `draft-${suffix}.s`,
      gachaId: `draft-${suffix}`,
      label: 'S賞',
      rank: 1,
      cardName: 'カード',
      cardImagePath: `/media/packs/${cardPhoto}`,
      quantity: 1,
      conversionValue: 10,
    });
    await updateDraft(handle.db, `draft-${suffix}`, { imagePath: `/media/packs/${second}` });
    await deleteUnpublishedPacks(handle.db, [`gone-${suffix}`]);

    // A banner whose art was replaced (oldArt → newArt).
    const [oldArt, newArt] = [hashName(), hashName()];
    const form = bannerFormSchema.parse({
      title: `掃除-${kind}`,
      alt: 'バナーの画像',
      link: '/guide',
      order: '10',
      active: 'on',
    });
    const { after } = await saveBanner(handle.db, { uid: null, form, image: `/media/banners/${oldArt}` });
    await saveBanner(handle.db, { uid: after.uid, form, image: `/media/banners/${newArt}` });

    // Content: one image only in an old version (a rollback may bring it back), named through the
    // resizer's encoded address; one in the served document; one uploaded into a form never saved.
    const [inOldVersion, inDocument, neverSaved] = [hashName(), hashName(), hashName()];
    const documentId = `doc-${suffix}`;
    const body = (url: string) => ({
      title: 'ページ',
      body: [{ type: 'image', url, alt: '', dimensions: { width: 1, height: 1 } }],
    });
    await handle.db.insert(contentDocuments).values({
      id: documentId,
      type: 'page',
      uid: `clean-${suffix}`,
      data: body(`/media/content/${inDocument}`),
      currentVersion: 2,
    });
    await handle.db.insert(contentVersions).values([
      {
        documentId,
        version: 1,
        type: 'page',
        uid: `clean-${suffix}`,
        lang: 'ja-jp',
        tags: [],
        data: body(`https://oripa.example.jp/_img?src=%2Fmedia%2Fcontent%2F${inOldVersion}&w=640`),
      },
      {
        documentId,
        version: 2,
        type: 'page',
        uid: `clean-${suffix}`,
        lang: 'ja-jp',
        tags: [],
        data: body(`/media/content/${inDocument}`),
      },
    ]);

    const kept = [
      `media/packs/${second}`,
      `media/packs/${cardPhoto}`,
      `media/packs/${genreIcon}`,
      `media/banners/${newArt}`,
      `media/content/${inOldVersion}`,
      `media/content/${inDocument}`,
    ];
    const abandoned = [
      `media/packs/${first}`,
      `media/packs/${deletedDraftPhoto}`,
      `media/banners/${oldArt}`,
      `media/content/${neverSaved}`,
    ];
    for (const key of [...kept, ...abandoned]) await put(key);
    if (kind === 'disk') {
      // A write the process never finished (the disk store's temporary name).
      const root = temporary.at(-1)!;
      fs.writeFileSync(path.join(root, 'media', 'packs', `${uuidName()}.${randomUUID()}.tmp`), 'half');
    }
    const everything = await keysOf(store);
    expect(everything).toEqual(expect.arrayContaining([...kept, ...abandoned].sort()));

    // Within the grace period nothing goes, named or not: a form may still be on its way to naming it.
    expect(await cleanUpMedia(handle.db, store, { graceMs: GRACE_MS, now: new Date() })).toEqual({
      examined: 0,
      deleted: 0,
    });
    expect(await keysOf(store)).toEqual(everything);

    // After it: only what nothing names goes; twice is the same as once.
    const later = new Date(Date.now() + GRACE_MS + 60_000);
    const result = await cleanUpMedia(handle.db, store, { graceMs: GRACE_MS, now: later });
    expect(result).toEqual({ examined: everything.length, deleted: abandoned.length + (kind === 'disk' ? 1 : 0) });
    expect(await keysOf(store)).toEqual([...kept].sort());
    expect(await cleanUpMedia(handle.db, store, { graceMs: GRACE_MS, now: later })).toEqual({
      examined: kept.length,
      deleted: 0,
    });

    // The job: once per cluster on a bucket, on every instance on the disk; it reports what it deleted.
    const job = mediaCleanupJob({ store, graceHours: GRACE_MS / 3_600_000 });
    expect(job).toMatchObject({ name: 'media.cleanup', scope: kind === 'disk' ? 'instance' : 'cluster' });
    await put(`media/packs/${uuidName()}`);
    const { logger } = capturingLogger();
    expect(await job.handler({ db: handle.db, logger, now: new Date(Date.now() + GRACE_MS + 60_000) })).toEqual({
      processed: 1,
    });
    expect(await keysOf(store)).toEqual([...kept].sort());
  });
});
