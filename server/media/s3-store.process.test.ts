// The media store (decision 071) against a real S3-protocol server, s3rver in a child process, through the
// real SDK, and the disk store beside it: one contract for both; keys under MEDIA_S3_PREFIX; a bucket that
// refuses connections, never answers or answers 500 fails with MediaStoreUnavailable (never hangs, never
// half-writes) and works again when it is back; an upload stored, served at /media and resized at /_img,
// the variant rebuilt from the bucket by an instance with an empty cache; this instance's copies of /media
// images keep serving while the bucket is away, an inquiry's image is never copied.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import sharp from 'sharp';
import { MediaStoreUnavailable, type MediaStore, type StoredMediaObject } from '#modules/kernel';
import { loadConfig } from '#server/config';
import { createImageRoute } from '#server/images/index';
import {
  createMediaRoute,
  diskMediaStore,
  s3MediaStore,
  s3OptionsOf,
  sourceCopiesDir,
  storeUploadedImage,
  withSourceCopies,
} from '#server/media/index';
import { TEST_S3_CREDENTIALS, startFaultProxy, startTestS3, type FaultProxy, type TestS3 } from '#tests/s3-server';

let s3: TestS3;
let proxy: FaultProxy;
const opened: MediaStore[] = [];
const temporary: string[] = [];

const tempDir = (label: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `media-${label}-`));
  temporary.push(dir);
  return dir;
};

/** A store on the bucket, through `endpoint` (s3rver itself unless a proxy's). */
async function bucketStore(
  options: { endpoint?: string; prefix?: string; timeoutMs?: number; listPageSize?: number } = {},
) {
  const store = await s3MediaStore({
    bucket: s3.bucket,
    region: 'us-east-1',
    endpoint: options.endpoint ?? s3.endpoint,
    forcePathStyle: true,
    prefix: options.prefix ?? '',
    credentials: TEST_S3_CREDENTIALS,
    timeoutMs: options.timeoutMs ?? 10_000,
    listPageSize: options.listPageSize,
  });
  opened.push(store);
  return store;
}

/** A PNG upload of this size, as a browser's form would send it. */
const picture = async (width: number, height: number) =>
  new Blob([
    new Uint8Array(
      await sharp({ create: { width, height, channels: 3, background: '#e03060' } })
        .png()
        .toBuffer(),
    ),
  ]);

const objectsOf = async (store: MediaStore, prefix: string) => {
  const objects: StoredMediaObject[] = [];
  for await (const object of store.list(prefix)) objects.push(object);
  return objects;
};
const keysOf = async (store: MediaStore, prefix: string) =>
  (await objectsOf(store, prefix)).map((object) => object.key).sort();

beforeAll(async () => {
  s3 = await startTestS3();
  proxy = await startFaultProxy(s3.endpoint);
});
afterAll(async () => {
  for (const store of opened) await store.close();
  await proxy?.close();
  await s3?.stop();
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(['disk', 's3'] as const)('the %s store', (kind) => {
  const open = () =>
    kind === 'disk' ? diskMediaStore(tempDir('disk')) : bucketStore({ prefix: 'contract/', listPageSize: 2 });

  it('writes, reads, lists (every page) and deletes whole objects by key', async () => {
    const store = await open();
    const bytes = new Uint8Array([1, 2, 3, 4]);
    for (const name of ['a', 'b', 'c', 'd', 'e']) await store.put(`media/packs/${name}.webp`, bytes, 'image/webp');
    await store.put('inquiries/2026/11/f.webp', bytes, 'image/webp');
    expect(await store.get('media/packs/a.webp')).toEqual(bytes);
    expect(await store.exists('media/packs/a.webp')).toBe(true);
    // Five objects in pages of two (s3): the listing follows every continuation.
    expect(await keysOf(store, 'media/')).toEqual(['a', 'b', 'c', 'd', 'e'].map((n) => `media/packs/${n}.webp`));
    expect(await keysOf(store, 'inquiries/')).toEqual(['inquiries/2026/11/f.webp']);
    const listed = (await objectsOf(store, 'media/packs/'))[0]!;
    expect(listed.size).toBe(4);
    expect(Math.abs(listed.lastModified.getTime() - Date.now())).toBeLessThan(10 * 60_000);

    // The same key again replaces the object; a missing one is null, not an error.
    await store.put('media/packs/a.webp', new Uint8Array([9]), 'image/webp');
    expect(await store.get('media/packs/a.webp')).toEqual(new Uint8Array([9]));
    expect(await store.get('media/packs/nothing.webp')).toBeNull();
    expect(await store.exists('media/packs/nothing.webp')).toBe(false);
    await store.delete('media/packs/a.webp');
    await store.delete('media/packs/a.webp'); // already gone: fine
    expect(await store.get('media/packs/a.webp')).toBeNull();
    expect(await keysOf(store, 'media/')).not.toContain('media/packs/a.webp');

    // A key that is not one of ours never reaches the disk or the bucket.
    for (const bad of ['../etc/passwd', '/media/packs/a.webp', 'media/../x.webp', 'media/Packs/A.webp', 'media'])
      await expect(store.put(bad, bytes, 'image/webp')).rejects.toThrow(RangeError);
    if (kind === 'disk') expect(fs.readdirSync(os.tmpdir()).includes('passwd')).toBe(false);
  });
});

describe('the bucket', () => {
  it('keeps every key under MEDIA_S3_PREFIX, as the settings say', async () => {
    const config = loadConfig({
      DATA_DIR: tempDir('config'),
      ...s3.settings(s3.endpoint, { MEDIA_S3_PREFIX: 'shop-a' }),
    });
    const options = s3OptionsOf(config)!;
    expect(options).toMatchObject({
      bucket: s3.bucket,
      prefix: 'shop-a/',
      forcePathStyle: true,
      region: 'us-east-1',
      timeoutMs: 10_000,
    });
    const store = await bucketStore({ prefix: options.prefix });
    await store.put('media/banners/0123456789abcdef0123456789abcdef.webp', new Uint8Array([7]), 'image/webp');
    expect(await keysOf(await bucketStore(), 'shop-a/')).toEqual([
      'shop-a/media/banners/0123456789abcdef0123456789abcdef.webp',
    ]);
    expect(await keysOf(store, 'media/')).toEqual(['media/banners/0123456789abcdef0123456789abcdef.webp']);
    // No bucket set: the disk store, as before.
    expect(s3OptionsOf(loadConfig({ DATA_DIR: tempDir('config') }))).toBeNull();
  });

  it('fails with MediaStoreUnavailable when refused, unanswered or answering 500, and works again after', async () => {
    const store = await bucketStore({ endpoint: proxy.endpoint, timeoutMs: 1_000 });
    const key = 'media/packs/0f9c2a8e-1d4b-4c3e-9f7a-2b5c8d1e6f40.webp';
    await store.put(key, new Uint8Array([1]), 'image/webp');

    await proxy.mode('refuse');
    await expect(store.put(key, new Uint8Array([2]), 'image/webp')).rejects.toThrow(MediaStoreUnavailable);
    await expect(store.get(key)).rejects.toThrow(MediaStoreUnavailable);

    // Never answered: the deadline (MEDIA_S3_TIMEOUT_SECONDS, here 1 s) ends the call, retries included.
    await proxy.mode('hang');
    await expect(store.put(key, new Uint8Array([3]), 'image/webp')).rejects.toThrow(/no answer within 1 s/);
    await expect(objectsOf(store, 'media/')).rejects.toThrow(MediaStoreUnavailable);

    // A 500 is retried by the SDK (three attempts), then refused.
    await proxy.mode('error500');
    const before = proxy.requests;
    const failed = await store.put(key, new Uint8Array([4]), 'image/webp').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(MediaStoreUnavailable);
    expect((failed as Error).message).toContain('InternalError 500');
    expect(proxy.requests - before).toBe(3);
    await expect(store.delete(key)).rejects.toThrow(MediaStoreUnavailable);

    // Back: nothing of the failed writes is there, the first one is.
    await proxy.mode('pass');
    expect(await store.get(key)).toEqual(new Uint8Array([1]));
  });

  it('stores an upload, serves it at /media and its variant at /_img, rebuilt from the bucket by a fresh instance', async () => {
    const bucket = await bucketStore({ endpoint: proxy.endpoint });
    const dataDir = tempDir('instance');
    const store = withSourceCopies(bucket, sourceCopiesDir(dataDir));
    const stored = await storeUploadedImage(store, 'packs', await picture(2400, 1200), {
      maxBytes: 8_000_000,
    });
    if (!stored.ok) throw new Error(stored.message);
    expect(stored.path).toMatch(/^\/media\/packs\/[0-9a-f-]{36}\.webp$/);

    const instance = (cacheDir: string, renders: string[]) => {
      const app = new Hono();
      app.route('/media', createMediaRoute(store));
      app.route(
        '/_img',
        createImageRoute({
          publicDir: tempDir('public'),
          cacheDir,
          media: store,
          onTransform: (info) => renders.push(`${info.src}@${info.width}`),
        }),
      );
      return app;
    };
    const renders: string[] = [];
    const app = instance(path.join(dataDir, 'cache', 'images'), renders);
    const served = await app.request(stored.path);
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 1600, 800]);
    const variantUrl = `/_img?src=${encodeURIComponent(stored.path)}&w=640&q=75`;
    const variant = await app.request(variantUrl, { headers: { Accept: 'image/webp' } });
    expect(variant.status).toBe(200);
    expect(variant.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(Buffer.from(await variant.arrayBuffer())).metadata()).width).toBe(640);
    expect(renders).toEqual([`${stored.path}@640`]);

    // Another instance, its cache empty, renders the variant again from the bucket's object.
    const otherRenders: string[] = [];
    const other = instance(tempDir('other-cache'), otherRenders);
    expect((await other.request(variantUrl, { headers: { Accept: 'image/webp' } })).status).toBe(200);
    expect(otherRenders).toEqual([`${stored.path}@640`]);

    // The bucket away: this instance's copy and cached variant still answer; an image it never read, and
    // a variant it never rendered of one it did not copy, are 503 (not 500), never cached.
    const unseen = await storeUploadedImage(store, 'packs', await picture(300, 300), {
      maxBytes: 8_000_000,
    });
    if (!unseen.ok) throw new Error(unseen.message);
    await proxy.mode('refuse');
    try {
      expect((await app.request(stored.path)).status).toBe(200);
      expect((await app.request(variantUrl, { headers: { Accept: 'image/webp' } })).status).toBe(200);
      const away = await app.request(unseen.path);
      expect(away.status).toBe(503);
      expect(away.headers.get('retry-after')).toBe('30');
      expect(away.headers.get('cache-control')).toBe('no-store');
      const awayVariant = await app.request(`/_img?src=${encodeURIComponent(unseen.path)}&w=640`);
      expect(awayVariant.status).toBe(503);
      expect(awayVariant.headers.get('cache-control')).toBe('no-store');
      // An upload through it now: refused in Japanese with 503, nothing stored.
      const refused = await storeUploadedImage(store, 'packs', await picture(300, 300), {
        maxBytes: 8_000_000,
      });
      expect(refused).toEqual({
        ok: false,
        status: 503,
        message: '画像の保存に失敗しました。時間をおいてもう一度お試しください。',
      });
    } finally {
      await proxy.mode('pass');
    }
    // Not ours: 404 without asking the bucket.
    expect((await app.request('/media/packs/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
    expect((await app.request('/media/other/x.webp')).status).toBe(404);
    expect((await app.request('/media/packs/00000000-0000-4000-8000-000000000000.webp')).status).toBe(404);
    expect(
      (await app.request('/_img?src=%2Fmedia%2Fpacks%2F00000000-0000-4000-8000-000000000000.webp&w=640')).status,
    ).toBe(404);
  });

  it('keeps no copy of an inquiry image: erased in the bucket, it is gone everywhere', async () => {
    const dataDir = tempDir('copies');
    const store = withSourceCopies(await bucketStore(), sourceCopiesDir(dataDir));
    const key = 'inquiries/2026/11/0f9c2a8e-1d4b-4c3e-9f7a-2b5c8d1e6f40.webp';
    await store.put(key, new Uint8Array([5]), 'image/webp');
    expect(await store.get(key)).toEqual(new Uint8Array([5]));
    expect(
      fs.existsSync(sourceCopiesDir(dataDir)) ? fs.readdirSync(sourceCopiesDir(dataDir), { recursive: true }) : [],
    ).toEqual([]);
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
  });
});
