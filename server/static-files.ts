// Serves the built client files (build/client): the precompressed .br/.gz twin when the browser
// accepts it, immutable caching for hashed /assets/*, a short cache elsewhere, ETag, and byte ranges.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { MiddlewareHandler } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { chooseEncoding, isCompressibleType, type ContentCoding } from './compression';

/** Hashed build output: the name changes with the content, so browsers may keep it for a year. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** Files whose names do not change with their content (favicon, demo art, robots): an hour. */
export const SHORT_CACHE = 'public, max-age=3600';
const SUFFIX: Record<ContentCoding, string> = { br: '.br', gzip: '.gz' };

/** Cache-Control for one static path. */
export function cacheControlFor(urlPath: string): string {
  if (urlPath.startsWith('/assets/')) return IMMUTABLE_CACHE;
  if (urlPath.startsWith('/builds/')) return 'no-cache'; // update polling must see a new build at once
  return SHORT_CACHE;
}

function statFile(file: string): fs.Stats | undefined {
  try {
    const stat = fs.statSync(file);
    return stat.isFile() ? stat : undefined;
  } catch {
    return undefined;
  }
}

function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === bare;
  });
}

/** One `bytes=a-b` range within `size`, null when unsatisfiable, undefined when absent or not a single range. */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined; // multiple or odd ranges: send it all
  if (match[1] === '') {
    const length = Number(match[2]);
    if (length === 0 || size === 0) return null;
    return { start: Math.max(size - length, 0), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || start > end) return null;
  return { start, end };
}

/**
 * Middleware serving files under `root` for GET and HEAD; anything not found falls through to the
 * next handler (the pages). Ranges are honoured on the identity encoding only.
 * @example app.use('*', serveBuiltFiles({ root: 'build/client' }))
 */
export function serveBuiltFiles(options: { root: string }): MiddlewareHandler {
  const root = path.resolve(options.root);
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(c.req.path);
    } catch {
      return next();
    }
    if (/(?:^|[/\\])\.{1,2}(?:$|[/\\])|[/\\]{2,}|\\|\0/.test(urlPath)) return next();
    const file = path.join(root, urlPath);
    if (!file.startsWith(root + path.sep)) return next();
    const stat = statFile(file);
    if (!stat) return next();

    const contentType = getMimeType(file) ?? 'application/octet-stream';
    const compressible = isCompressibleType(contentType);
    let servedFile = file;
    let servedStat = stat;
    let encoding: ContentCoding | undefined;
    if (compressible) {
      const available = (['br', 'gzip'] as const).filter((coding) => statFile(file + SUFFIX[coding]));
      encoding = chooseEncoding(c.req.header('Accept-Encoding'), available);
      if (encoding) {
        servedFile = file + SUFFIX[encoding];
        servedStat = statFile(servedFile) ?? stat;
      }
    }

    const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}${encoding ? `-${encoding}` : ''}"`;
    const headers: Record<string, string> = {
      'Content-Type': contentType,
      'Cache-Control': cacheControlFor(urlPath),
      ETag: etag,
      'Last-Modified': stat.mtime.toUTCString(),
    };
    if (compressible) headers.Vary = 'Accept-Encoding';
    if (encoding) headers['Content-Encoding'] = encoding;
    else headers['Accept-Ranges'] = 'bytes';
    if (ifNoneMatch(c.req.header('If-None-Match'), etag)) return c.body(null, 304, headers);

    const range = encoding ? undefined : parseRange(c.req.header('Range'), servedStat.size);
    if (range === null) return c.body(null, 416, { ...headers, 'Content-Range': `bytes */${servedStat.size}` });
    const start = range?.start ?? 0;
    const end = range?.end ?? servedStat.size - 1;
    const length = servedStat.size === 0 ? 0 : end - start + 1;
    headers['Content-Length'] = String(length);
    if (range) headers['Content-Range'] = `bytes ${start}-${end}/${servedStat.size}`;
    const status = range ? 206 : 200;
    if (c.req.method === 'HEAD' || length === 0) return c.body(null, status, headers);
    const stream = Readable.toWeb(
      fs.createReadStream(servedFile, { start, end }),
    ) as unknown as ReadableStream<Uint8Array>;
    return c.body(stream, status, headers);
  };
}
