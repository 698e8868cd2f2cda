// Content images (docs/decisions/040): the banners' pipeline without the crop. A wide picture is shrunk
// to 1200 wide with its aspect ratio and its size answered; a small one is not enlarged; what is not a
// JPEG, PNG or WebP is refused; the file is named by its content hash and served only by that name.
import { describe, it, expect } from 'vitest';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { diskMediaStore } from '#server/media/index';
import { prepareContentImage, writeContentImage, CONTENT_IMAGE_MAX_BYTES } from './index';

const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();

describe('content images', () => {
  it('keeps the aspect ratio at most 1200 wide, never enlarges, and stores by content hash', async () => {
    const wide = await prepareContentImage(await picture(2400, 1000));
    if (!wide.ok) throw new Error(wide.code);
    expect([wide.width, wide.height]).toEqual([1200, 500]);
    expect((await sharp(wide.image).metadata()).format).toBe('webp');
    const small = await prepareContentImage(await picture(300, 450));
    if (!small.ok) throw new Error(small.code);
    expect([small.width, small.height]).toEqual([300, 450]);

    // The embedded default: DATA_DIR/media/content/<hash>.webp, as it always was.
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'content-images-'));
    const store = diskMediaStore(dir);
    const url = await writeContentImage(store, wide.image);
    expect(url).toMatch(/^\/media\/content\/[0-9a-f]{32}\.webp$/);
    expect(await writeContentImage(store, wide.image)).toBe(url);
    expect(await fs.readFile(path.join(dir, url))).toEqual(wide.image);
    expect(await fs.readdir(path.join(dir, 'media', 'content'))).toEqual([url.split('/').pop()]);
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('refuses what is not a picture, and a file over the limit', async () => {
    expect(await prepareContentImage(new TextEncoder().encode('%PDF-1.4 not an image'))).toMatchObject({
      ok: false,
      code: 'CONTENT_IMAGE_TYPE',
    });
    expect(await prepareContentImage(new Uint8Array(CONTENT_IMAGE_MAX_BYTES + 1))).toMatchObject({
      ok: false,
      code: 'CONTENT_IMAGE_TOO_LARGE',
    });
  });
});
