// Tests for the /_img resizer against a temp public dir: validation, negotiation, caching, 304 and 422.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createImageRoute, negotiateFormat, parseSource, type TransformInfo } from './index';

const AVIF_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const WEBP_ACCEPT = 'image/webp,*/*';

let root: string;
let publicDir: string;

function setup(extra: { cacheDir?: string } = {}) {
  const transforms: TransformInfo[] = [];
  const warn = vi.fn();
  const cacheDir = extra.cacheDir ?? path.join(root, `cache-${Math.random().toString(36).slice(2)}`);
  const app = createImageRoute({ publicDir, cacheDir, logger: { warn }, onTransform: (i) => transforms.push(i) });
  return { app, transforms, warn, cacheDir };
}

function get(app: Hono, params: Record<string, string>, headers: Record<string, string> = {}) {
  return app.request(`/?${new URLSearchParams(params)}`, { headers });
}

async function bodyMeta(res: Response) {
  return sharp(Buffer.from(await res.arrayBuffer())).metadata();
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'img-route-'));
  publicDir = path.join(root, 'public');
  await fs.mkdir(path.join(publicDir, 'img'), { recursive: true });
  const photo = sharp({ create: { width: 1000, height: 600, channels: 3, background: { r: 200, g: 40, b: 90 } } });
  await photo
    .clone()
    .png()
    .toFile(path.join(publicDir, 'img', 'photo.png'));
  await photo
    .clone()
    .jpeg()
    .toFile(path.join(publicDir, 'img', 'photo.jpg'));
  await fs.writeFile(
    path.join(publicDir, 'img', 'art.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="90" viewBox="0 0 120 90">' +
      '<rect width="120" height="90" fill="#124"/><circle cx="60" cy="45" r="30" fill="#fc0"/></svg>',
  );
  // A PNG signature followed by garbage: looks like an image, cannot be decoded.
  await fs.writeFile(
    path.join(publicDir, 'img', 'corrupt.png'),
    Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]),
  );
  await fs.writeFile(path.join(publicDir, 'img', 'notes.txt'), 'not an image');
  await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
    .png()
    .toFile(path.join(root, 'secret.png'));
  await fs.symlink(path.join(root, 'secret.png'), path.join(publicDir, 'img', 'escape.png'));
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('helpers', () => {
  it('negotiates the format from Accept', () => {
    expect(negotiateFormat(AVIF_ACCEPT, '.png')).toBe('avif');
    expect(negotiateFormat(WEBP_ACCEPT, '.png')).toBe('webp');
    expect(negotiateFormat('image/avif;q=0, image/webp', '.png')).toBe('webp');
    expect(negotiateFormat('image/avif;q=0.5, image/webp;q=0.9', '.png')).toBe('webp');
    expect(negotiateFormat('*/*', '.jpg')).toBe('jpeg');
    expect(negotiateFormat(undefined, '.svg')).toBe('png');
    expect(negotiateFormat('', '.webp')).toBe('png');
  });

  it('accepts only plain local paths', () => {
    expect(parseSource('/img/photo.png')).toBe('/img/photo.png');
    expect(parseSource('/img/photo.png?v=3')).toBe('/img/photo.png');
    for (const bad of [
      '',
      'img/photo.png',
      '//evil.example/a.png',
      'https://evil.example/a.png',
      '/img/../x.png',
      '/./x.png',
      '/img\\photo.png',
      '/img/\0.png',
      '/img/notes.txt',
      `/${'a'.repeat(1100)}.png`,
    ]) {
      expect(parseSource(bad), bad).toBeNull();
    }
  });
});

describe('GET /_img', () => {
  it('is reachable when mounted under /_img', async () => {
    const main = new Hono();
    main.route('/_img', setup().app);
    const res = await main.request(`/_img?src=${encodeURIComponent('/img/photo.png')}&w=640&q=75`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
  });

  it('resizes to the requested width and sends caching headers', async () => {
    const { app } = setup();
    const res = await get(app, { src: '/img/photo.png', w: '640' });
    expect(res.status).toBe(200);
    expect(res.headers.get('vary')).toBe('Accept');
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400, stale-while-revalidate=604800');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{40}"$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const meta = await bodyMeta(res);
    expect(meta).toMatchObject({ format: 'png', width: 640, height: 384 });
  });

  it('never upscales a raster source', async () => {
    const { app } = setup();
    const meta = await bodyMeta(await get(app, { src: '/img/photo.png', w: '1200' }));
    expect(meta.width).toBe(1000);
  });

  it('rasterises an SVG at the requested width, as PNG by default', async () => {
    const { app } = setup();
    const res = await get(app, { src: '/img/art.svg', w: '1200' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(await bodyMeta(res)).toMatchObject({ format: 'png', width: 1200, height: 900 });
  });

  it('negotiates AVIF, then WebP, then the source format', async () => {
    const { app } = setup();
    const avif = await get(app, { src: '/img/photo.png', w: '640', q: '50' }, { Accept: AVIF_ACCEPT });
    expect(avif.headers.get('content-type')).toBe('image/avif');
    expect((await bodyMeta(avif)).format).toBe('heif');

    const webp = await get(app, { src: '/img/photo.png', w: '640' }, { Accept: WEBP_ACCEPT });
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect(await bodyMeta(webp)).toMatchObject({ format: 'webp', width: 640 });

    const jpeg = await get(app, { src: '/img/photo.jpg', w: '828' }, { Accept: '*/*' });
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
    expect(await bodyMeta(jpeg)).toMatchObject({ format: 'jpeg', width: 828 });

    expect(avif.headers.get('etag')).not.toBe(webp.headers.get('etag'));
    expect(avif.headers.get('vary')).toBe('Accept');
  });

  it.each([
    ['/../secret.png'],
    ['/img/../../secret.png'],
    ['https://evil.example/a.png'],
    ['//evil.example/a.png'],
    ['img/photo.png'],
    ['/img\\photo.png'],
    ['/img/photo.png\0.png'],
    ['/img/notes.txt'],
    ['/img/escape.png'], // symlink pointing outside public/
  ])('rejects src %j with 400', async (src) => {
    const { app } = setup();
    const res = await get(app, { src, w: '640' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: 'INVALID_IMAGE_SOURCE', message: '画像の指定が正しくありません。' },
    });
  });

  it('rejects a missing src with 400', async () => {
    const res = await setup().app.request('/?w=640');
    expect(res.status).toBe(400);
  });

  it.each([['800'], ['0'], ['-640'], ['640.0'], ['abc'], [''], ['6400']])('rejects width %j with 400', async (w) => {
    const res = await get(setup().app, { src: '/img/photo.png', w });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: 'INVALID_IMAGE_WIDTH', message: '画像の幅が正しくありません。' },
    });
  });

  it.each([['0'], ['101'], ['7.5'], ['abc'], [''], ['-1']])('rejects quality %j with 400', async (q) => {
    const res = await get(setup().app, { src: '/img/photo.png', w: '640', q });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('INVALID_IMAGE_QUALITY');
  });

  it('answers 404 for a missing file', async () => {
    const { app } = setup();
    for (const src of ['/img/missing.png', '/img/photo.png/inner.png', '/nowhere/x.svg']) {
      const res = await get(app, { src, w: '640' });
      expect(res.status, src).toBe(404);
      expect(await res.json()).toEqual({ error: { code: 'IMAGE_NOT_FOUND', message: '画像が見つかりません。' } });
    }
  });

  it('answers 304 when If-None-Match carries the ETag', async () => {
    const { app, transforms } = setup();
    const first = await get(app, { src: '/img/photo.png', w: '828' }, { Accept: WEBP_ACCEPT });
    const etag = first.headers.get('etag') ?? '';
    const again = await get(
      app,
      { src: '/img/photo.png', w: '828' },
      { Accept: WEBP_ACCEPT, 'If-None-Match': `W/"x", ${etag}` },
    );
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('vary')).toBe('Accept');
    expect(await again.text()).toBe('');
    // Another format is another representation: the old ETag must not validate it.
    const png = await get(app, { src: '/img/photo.png', w: '828' }, { 'If-None-Match': etag });
    expect(png.status).toBe(200);
    expect(transforms).toHaveLength(2);
  });

  it('changes the ETag when the source file changes', async () => {
    const file = path.join(publicDir, 'img', 'changing.png');
    await sharp({ create: { width: 700, height: 700, channels: 3, background: '#fff' } })
      .png()
      .toFile(file);
    const { app } = setup();
    const before = (await get(app, { src: '/img/changing.png', w: '640' })).headers.get('etag');
    await sharp({ create: { width: 900, height: 700, channels: 3, background: '#0f0' } })
      .png()
      .toFile(file);
    await fs.utimes(file, new Date(), new Date(Date.now() + 5000));
    const res = await get(app, { src: '/img/changing.png', w: '640' });
    expect(res.headers.get('etag')).not.toBe(before);
    expect((await bodyMeta(res)).height).toBe(498);
  });

  it('caches variants on disk and reuses them, also across instances', async () => {
    const { app, transforms, cacheDir } = setup();
    const params = { src: '/img/photo.png', w: '640', q: '60' };
    const first = await get(app, params, { Accept: WEBP_ACCEPT });
    expect(transforms).toEqual([{ src: '/img/photo.png', width: 640, quality: 60, format: 'webp' }]);
    const files = await listFiles(cacheDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/[/\\][0-9a-f]{2}[/\\][0-9a-f]{64}\.webp$/);
    const { mtimeMs } = await fs.stat(files[0]);

    const second = await get(app, params, { Accept: WEBP_ACCEPT });
    expect(transforms).toHaveLength(1);
    expect(Buffer.from(await second.arrayBuffer())).toEqual(Buffer.from(await first.arrayBuffer()));
    expect((await fs.stat(files[0])).mtimeMs).toBe(mtimeMs);

    const fresh = setup({ cacheDir });
    expect((await get(fresh.app, params, { Accept: WEBP_ACCEPT })).status).toBe(200);
    expect(fresh.transforms).toHaveLength(0);
  });

  it('renders once for concurrent requests of the same uncached variant', async () => {
    const { app, transforms, cacheDir } = setup();
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => get(app, { src: '/img/art.svg', w: '828' }, { Accept: AVIF_ACCEPT })),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(transforms).toHaveLength(1);
    const files = await listFiles(cacheDir);
    expect(files).toHaveLength(1); // no temp files left behind
    expect(files[0].endsWith('.avif')).toBe(true);
  });

  it('answers 422 for a corrupt image and logs it', async () => {
    const { app, warn } = setup();
    const res = await get(app, { src: '/img/corrupt.png', w: '640' });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      error: { code: 'IMAGE_UNPROCESSABLE', message: '画像を処理できませんでした。' },
    });
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('answers 422 for an image above the pixel limit', async () => {
    const file = path.join(publicDir, 'img', 'huge.png');
    await sharp({ create: { width: 8000, height: 7000, channels: 3, background: '#123' } })
      .png({ compressionLevel: 1 })
      .toFile(file);
    const res = await get(setup().app, { src: '/img/huge.png', w: '640' });
    expect(res.status).toBe(422);
  });

  it('still serves the image when the cache cannot be written', async () => {
    const blocker = path.join(root, 'cache-is-a-file');
    await fs.writeFile(blocker, 'x');
    const { app, warn } = setup({ cacheDir: blocker });
    const res = await get(app, { src: '/img/photo.png', w: '640' });
    expect(res.status).toBe(200);
    expect((await bodyMeta(res)).width).toBe(640);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ cachePath: expect.any(String) }),
      'image cache write failed',
    );
  });
});
