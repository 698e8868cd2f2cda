// On-demand image resizer mounted at /_img: validates src/w/q, negotiates AVIF/WebP, caches variants on disk.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Hono } from 'hono';
import type { Context } from 'hono';
import sharp from 'sharp';
import { DEFAULT_IMAGE_QUALITY, isImageWidth } from '#modules/kernel/image-srcset';
import { MEDIA_STORE_RETRY_AFTER_SECONDS, isMediaStoreUnavailable, mediaKeyOf, type MediaStore } from '#modules/kernel';

/** Encodings the resizer can answer with. */
export type OutputFormat = 'avif' | 'webp' | 'png' | 'jpeg';

/** What one cache miss rendered; passed to `onTransform`. */
export interface TransformInfo {
  src: string;
  width: number;
  quality: number;
  format: OutputFormat;
}

/** Options for {@link createImageRoute}. */
export interface ImageRouteOptions {
  /** Directory that `src` paths are resolved in (the site's public/). */
  publicDir: string;
  /**
   * The store of uploaded images (decision 071), read for `src` paths under /media/ on a cache miss only:
   * their names never change meaning, so a variant is keyed by its path alone.
   */
  media?: MediaStore;
  /** Directory for rendered variants; created on first write. */
  cacheDir: string;
  logger?: { warn(obj: object, msg?: string): void };
  /** Called on every cache miss that actually runs sharp: for metrics, and tests that check reuse. */
  onTransform?: (info: TransformInfo) => void;
  /** Most sharp transforms running at once (default 2), so a burst of misses cannot starve the server. */
  maxConcurrent?: number;
}

/**
 * Turns off libvips' operation cache (sharp's default keeps up to 50 MB of decoded images and 100
 * operations for repeats). Here each variant is rendered once and then read from the disk cache, so
 * repeats are rare and the cache only held memory (docs/decisions/047). Process-wide: every sharp user
 * (uploads, content images) shares it. Called once at start.
 * @example limitImageMemory()
 */
export function limitImageMemory(): void {
  sharp.cache(false);
}

/** Largest source the decoder accepts; bigger (or decompression-bomb) images answer 422. */
export const MAX_INPUT_PIXELS = 50_000_000;
/** Bump when encoder settings change so old cached variants are not served. */
const CACHE_VERSION = 1;
const MAX_SRC_LENGTH = 1024;
const CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800';
const SOURCE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp', '.avif', '.gif', '.svg']);
const CONTENT_TYPES: Record<OutputFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  png: 'image/png',
  jpeg: 'image/jpeg',
};

const ERRORS = {
  INVALID_IMAGE_SOURCE: { status: 400, message: '画像の指定が正しくありません。' },
  INVALID_IMAGE_WIDTH: { status: 400, message: '画像の幅が正しくありません。' },
  INVALID_IMAGE_QUALITY: { status: 400, message: '画像の品質が正しくありません。' },
  IMAGE_NOT_FOUND: { status: 404, message: '画像が見つかりません。' },
  IMAGE_UNPROCESSABLE: { status: 422, message: '画像を処理できませんでした。' },
  IMAGE_STORE_UNAVAILABLE: { status: 503, message: '画像を読み込めませんでした。時間をおいてもう一度お試しください。' },
} as const;
type ErrorCode = keyof typeof ERRORS;

/** Marks failures of decoding/encoding (corrupt or oversized input), as opposed to bugs. */
class UnprocessableImageError extends Error {}

/** An upload's source that the store does not hold (found out on a cache miss). */
class MissingSourceError extends Error {}

/**
 * Picks the output encoding from an `Accept` header. Only explicit `image/avif` / `image/webp`
 * entries count (a bare wildcard from curl or an old browser says nothing about decoding AVIF); the
 * higher q wins, AVIF on a tie; otherwise the source's own format (JPEG stays JPEG, the rest PNG).
 * @example negotiateFormat('image/avif,image/webp,image/apng', '.png') // 'avif'
 */
export function negotiateFormat(accept: string | undefined, sourceExtension: string): OutputFormat {
  const weights = new Map<string, number>();
  for (const part of (accept ?? '').split(',')) {
    const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    let q = 1;
    for (const param of params) {
      const match = /^q=([0-9.]+)$/.exec(param);
      if (match) q = Number(match[1]);
    }
    if (Number.isFinite(q)) weights.set(type, Math.max(weights.get(type) ?? 0, q));
  }
  const avif = weights.get('image/avif') ?? 0;
  const webp = weights.get('image/webp') ?? 0;
  if (avif > 0 && avif >= webp) return 'avif';
  if (webp > 0) return 'webp';
  return sourceExtension === '.jpg' || sourceExtension === '.jpeg' ? 'jpeg' : 'png';
}

/**
 * Checks a `src` query value and returns the path to look up, or null when it is not a plain local
 * path. A trailing `?v=…`/`#…` (cache busting) is ignored: variants are keyed by mtime and size anyway.
 * @example parseSource('/demo/a.png?v=2') // '/demo/a.png'; parseSource('/../etc/passwd') // null
 */
export function parseSource(raw: string | undefined): string | null {
  if (raw === undefined || raw.length === 0 || raw.length > MAX_SRC_LENGTH) return null;
  const localPath = raw.replace(/[?#][\s\S]*$/, '');
  if (!localPath.startsWith('/') || localPath.startsWith('//')) return null;
  // Backslashes are separators on Windows; control characters (NUL above all) have no business in a path.
  if (/[\\\u0000-\u001f\u007f]/.test(localPath)) return null;
  if (localPath.split('/').some((segment) => segment === '..' || segment === '.')) return null;
  if (!SOURCE_EXTENSIONS.has(path.extname(localPath).toLowerCase())) return null;
  return localPath;
}

/** Runs at most `max` tasks at once; a finished task hands its slot straight to the next waiter. */
function createLimiter(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (active < max) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/** Writes via a temp file and rename, so a reader never sees a half-written variant. */
async function writeAtomically(target: string, data: Buffer): Promise<void> {
  await fs.mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await fs.writeFile(temp, data);
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/** Decodes, resizes and encodes one variant; every sharp failure becomes UnprocessableImageError. */
async function render(
  file: string | Uint8Array,
  isSvg: boolean,
  width: number,
  quality: number,
  format: OutputFormat,
): Promise<Buffer> {
  try {
    let density: number | undefined;
    if (isSvg) {
      // sharp reports an SVG's size at 72 dpi; raise the density so it is drawn at the target width
      // (crisp edges instead of an upscaled bitmap), but never past the pixel limit.
      const meta = await sharp(file, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
      if (!meta.width || !meta.height) throw new Error('SVG without a size');
      const byWidth = (72 * width) / meta.width;
      const byPixels = 72 * Math.sqrt(MAX_INPUT_PIXELS / (meta.width * meta.height));
      density = Math.min(100_000, Math.max(1, Math.min(byWidth, byPixels)));
    }
    const pipeline = sharp(file, { limitInputPixels: MAX_INPUT_PIXELS, density })
      .rotate() // honour EXIF orientation from phone photos
      .resize({ width, withoutEnlargement: !isSvg });
    switch (format) {
      case 'avif':
        // effort 2: within ~2% of effort 4's size but several times faster (4K: 2.5 s instead of 15 s on 2 cores).
        pipeline.avif({ quality, effort: 2 });
        break;
      case 'webp':
        pipeline.webp({ quality });
        break;
      case 'jpeg':
        pipeline.jpeg({ quality, mozjpeg: true });
        break;
      case 'png':
        pipeline.png({ compressionLevel: 9 });
        break;
    }
    return await pipeline.toBuffer();
  } catch (error) {
    throw new UnprocessableImageError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** True when an `If-None-Match` header lists `etag` (weak comparison, as RFC 9110 asks for GET). */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

function isErrnoCode(error: unknown, ...codes: string[]): boolean {
  return error instanceof Error && 'code' in error && codes.includes(String(error.code));
}

/**
 * The `/_img` sub-app: `GET /?src=/path/in/public.png&w=828&q=75` answers the image resized to one of
 * the allowed widths, as AVIF/WebP when the browser accepts them, cached on disk.
 * @example app.route('/_img', createImageRoute({ publicDir: 'public', cacheDir: '.data/image-cache', logger }))
 */
export function createImageRoute(options: ImageRouteOptions): Hono {
  const publicDir = path.resolve(options.publicDir);
  const cacheDir = path.resolve(options.cacheDir);
  const { logger, onTransform } = options;
  const limit = createLimiter(Math.max(1, options.maxConcurrent ?? 2));
  // Concurrent misses for one key share one render instead of encoding the same bytes N times.
  const inflight = new Map<string, Promise<Buffer>>();
  const media = options.media ?? null;
  const realDirs = new Map<string, Promise<string>>();

  const fail = (c: Context, code: ErrorCode) =>
    c.json({ error: { code, message: ERRORS[code].message } }, ERRORS[code].status, {
      'Cache-Control': 'no-store',
      ...(code === 'IMAGE_STORE_UNAVAILABLE' ? { 'Retry-After': String(MEDIA_STORE_RETRY_AFTER_SECONDS) } : {}),
    });

  /** A public file by its path, or an upload's bytes read from the store (only now: on a miss). */
  type Source = { file: string } | { mediaKey: string };

  async function produce(key: string, cachePath: string, source: Source, info: TransformInfo): Promise<Buffer> {
    try {
      return await fs.readFile(cachePath);
    } catch (error) {
      if (!isErrnoCode(error, 'ENOENT')) logger?.warn({ err: error, cachePath }, 'image cache read failed');
    }
    let input: string | Uint8Array;
    if ('file' in source) input = source.file;
    else {
      const bytes = await media!.get(source.mediaKey);
      if (!bytes) throw new MissingSourceError(source.mediaKey);
      input = bytes;
    }
    const isSvg = 'file' in source && path.extname(source.file).toLowerCase() === '.svg';
    const data = await limit(() => {
      onTransform?.(info);
      return render(input, isSvg, info.width, info.quality, info.format);
    });
    // A full or read-only disk should cost speed, not availability: serve the bytes anyway.
    await writeAtomically(cachePath, data).catch((error: unknown) =>
      logger?.warn({ err: error, cachePath, key }, 'image cache write failed'),
    );
    return data;
  }

  function variant(key: string, cachePath: string, source: Source, info: TransformInfo): Promise<Buffer> {
    let pending = inflight.get(key);
    if (!pending) {
      pending = produce(key, cachePath, source, info).finally(() => inflight.delete(key));
      inflight.set(key, pending);
    }
    return pending;
  }

  const app = new Hono();
  app.get('/', async (c) => {
    const src = parseSource(c.req.query('src'));
    if (src === null) return fail(c, 'INVALID_IMAGE_SOURCE');
    const width = Number(c.req.query('w'));
    if (!/^\d+$/.test(c.req.query('w') ?? '') || !isImageWidth(width)) return fail(c, 'INVALID_IMAGE_WIDTH');
    const qRaw = c.req.query('q');
    const quality = qRaw === undefined ? DEFAULT_IMAGE_QUALITY : Number(qRaw);
    if ((qRaw !== undefined && !/^\d{1,3}$/.test(qRaw)) || quality < 1 || quality > 100) {
      return fail(c, 'INVALID_IMAGE_QUALITY');
    }

    // Uploads live in the media store, named once for good: the variant's key is their path. Everything
    // else is a file of public/, keyed by its time and size too.
    const format = negotiateFormat(c.req.header('Accept'), path.extname(src).toLowerCase());
    let source: Source;
    let identity: unknown[];
    if (media && src.startsWith('/media/')) {
      const mediaKey = mediaKeyOf(src);
      if (!mediaKey) return fail(c, 'INVALID_IMAGE_SOURCE');
      source = { mediaKey };
      identity = [CACHE_VERSION, src];
    } else {
      const file = path.resolve(publicDir, `.${src}`);
      if (!file.startsWith(publicDir + path.sep)) return fail(c, 'INVALID_IMAGE_SOURCE');
      let stat;
      try {
        // A symlink inside public/ must not expose files outside it.
        let realBase = realDirs.get(publicDir);
        if (!realBase) realDirs.set(publicDir, (realBase = fs.realpath(publicDir)));
        const root = await realBase.catch((error: unknown) => {
          realDirs.delete(publicDir); // the folder may appear later (tests, first deploy): retry next time
          throw error;
        });
        const real = await fs.realpath(file);
        if (!real.startsWith(root + path.sep)) return fail(c, 'INVALID_IMAGE_SOURCE');
        stat = await fs.stat(real);
      } catch (error) {
        if (isErrnoCode(error, 'ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP', 'EACCES', 'EPERM'))
          return fail(c, 'IMAGE_NOT_FOUND');
        throw error;
      }
      if (!stat.isFile()) return fail(c, 'IMAGE_NOT_FOUND');
      source = { file };
      identity = [CACHE_VERSION, src, stat.mtimeMs, stat.size];
    }

    const key = createHash('sha256')
      .update(JSON.stringify([...identity, width, quality, format]))
      .digest('hex');
    const etag = `"${key.slice(0, 40)}"`;
    const headers = { 'Cache-Control': CACHE_CONTROL, ETag: etag, Vary: 'Accept' };
    if (etagMatches(c.req.header('If-None-Match'), etag)) return c.body(null, 304, headers);

    const cachePath = path.join(cacheDir, key.slice(0, 2), `${key}.${format}`);
    let data: Buffer;
    try {
      data = await variant(key, cachePath, source, { src, width, quality, format });
    } catch (error) {
      if (error instanceof MissingSourceError) return fail(c, 'IMAGE_NOT_FOUND');
      if (isMediaStoreUnavailable(error)) return fail(c, 'IMAGE_STORE_UNAVAILABLE'); // logged by the store
      if (!(error instanceof UnprocessableImageError)) throw error;
      logger?.warn({ err: error, src, width, format }, 'image could not be processed');
      return fail(c, 'IMAGE_UNPROCESSABLE');
    }
    return c.body(new Uint8Array(data), 200, {
      ...headers,
      'Content-Type': CONTENT_TYPES[format],
      'Content-Length': String(data.byteLength),
      'X-Content-Type-Options': 'nosniff',
    });
  });
  return app;
}
