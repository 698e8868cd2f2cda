// A graded card's photo kept as uploaded (issue 33 item 8): the SHA-256 is of exactly the uploaded bytes,
// the store keeps those bytes (metadata included), /media/originals/<sha256>.<ext> answers them unchanged
// in their own format, and a photo that says where it was taken, or is no picture, is refused.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaStore } from '#modules/kernel';
import { createMediaRoute, diskMediaStore, exifHasLocation, sha256Hex, storeOriginalPhoto } from './index';

let dir: string;
let store: MediaStore;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'card-photos-'));
  store = diskMediaStore(dir);
});
afterAll(async () => {
  await store.close();
  await fs.rm(dir, { recursive: true, force: true });
});

/** A phone's photo of a card: a JPEG with its camera's EXIF (and, with `gps`, where it was taken). */
async function cameraPhoto(options: { gps?: boolean; format?: 'jpeg' | 'png' | 'webp' } = {}) {
  const picture = sharp({ create: { width: 300, height: 420, channels: 3, background: '#d04060' } }).withExif({
    IFD0: { Make: 'ShopCamera', Model: 'Desk 1' },
    ...(options.gps ? { IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '35/1 40/1 12/1', GPSLongitudeRef: 'E' } } : {}),
  });
  return new Uint8Array(await picture.toFormat(options.format ?? 'jpeg').toBuffer());
}

const maxBytes = 8_000_000;

describe('graded cards’ original photos', () => {
  it('hashes exactly the uploaded bytes and keeps them, metadata and all', async () => {
    const bytes = await cameraPhoto();
    const stored = await storeOriginalPhoto(store, bytes, { maxBytes });
    if (!stored.ok) throw new Error(stored.message);
    const expected = createHash('sha256').update(bytes).digest('hex');
    expect(stored).toEqual({
      ok: true,
      sha256: expected,
      path: `/media/originals/${expected}.jpg`,
      bytes: bytes.byteLength,
    });
    expect(sha256Hex(bytes)).toBe(expected);
    const kept = await fs.readFile(path.join(dir, stored.path));
    expect(Buffer.compare(kept, bytes)).toBe(0);
    // Nothing was re-encoded or stripped: the camera's EXIF is still there.
    expect((await sharp(kept).metadata()).exif).toBeDefined();
    // One byte more is another file with another hash.
    const changed = new Uint8Array([...bytes, 0]);
    const other = await storeOriginalPhoto(store, changed, { maxBytes });
    expect(other.ok && other.sha256).not.toBe(expected);
    // The same bytes again are the same object (named by their hash).
    expect(await storeOriginalPhoto(store, bytes, { maxBytes })).toEqual(stored);
  });

  it('serves the original byte for byte at /media/originals, in its own format, immutable', async () => {
    const route = createMediaRoute(store);
    for (const format of ['jpeg', 'png', 'webp'] as const) {
      const bytes = await cameraPhoto({ format });
      const stored = await storeOriginalPhoto(store, bytes, { maxBytes });
      if (!stored.ok) throw new Error(stored.message);
      const response = await route.request(stored.path.replace(/^\/media/, ''));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(`image/${format}`);
      expect(response.headers.get('cache-control')).toContain('immutable');
      const served = new Uint8Array(await response.arrayBuffer());
      expect(Buffer.compare(Buffer.from(served), Buffer.from(bytes))).toBe(0);
      // Whoever hashes the file gets the name it is served under (and the pack page's value).
      expect(`${createHash('sha256').update(served).digest('hex')}.${stored.path.split('.').pop()}`).toBe(
        stored.path.split('/').pop(),
      );
    }
    // Names that are not a SHA-256 of ours are never looked up.
    for (const name of [`${'A'.repeat(64)}.jpg`, `${'a'.repeat(63)}.jpg`, `${'a'.repeat(64)}.gif`, 'x.jpg'])
      expect((await route.request(`/originals/${name}`)).status, name).toBe(404);
    expect((await route.request(`/originals/${'b'.repeat(64)}.jpg`)).status).toBe(404);
  });

  it('refuses a photo with its location, what is no picture, and what is too large', async () => {
    const located = await cameraPhoto({ gps: true });
    expect(exifHasLocation((await sharp(located).metadata()).exif!)).toBe(true);
    expect(exifHasLocation((await sharp(await cameraPhoto()).metadata()).exif!)).toBe(false);
    expect(exifHasLocation(new Uint8Array([1, 2, 3]))).toBe(false);
    const refused = await storeOriginalPhoto(store, located, { maxBytes });
    expect(refused).toMatchObject({ ok: false, status: 422 });
    expect(!refused.ok && refused.message).toMatch(/^この写真には撮影場所（位置情報）が含まれています。/);
    expect(
      await storeOriginalPhoto(store, new TextEncoder().encode('%PDF-1.4 not an image'), { maxBytes }),
    ).toMatchObject({ ok: false, status: 422, message: expect.stringMatching(/^画像として読めないファイルです/) });
    const cut = await cameraPhoto();
    expect(await storeOriginalPhoto(store, cut.subarray(0, cut.length >> 1), { maxBytes })).toMatchObject({
      ok: false,
      status: 422,
    });
    expect(await storeOriginalPhoto(store, await cameraPhoto(), { maxBytes: 100 })).toMatchObject({
      ok: false,
      status: 413,
    });
    const gif = new Uint8Array(
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
        .gif()
        .toBuffer(),
    );
    expect(await storeOriginalPhoto(store, gif, { maxBytes })).toMatchObject({
      ok: false,
      message: '画像はJPEG・PNG・WebPのファイルにしてください。',
    });
    // Nothing refused was stored.
    const names = await fs.readdir(path.join(dir, 'media', 'originals'));
    expect(names.some((name) => name.startsWith(sha256Hex(located)))).toBe(false);
  });
});
