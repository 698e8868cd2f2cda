// Content negotiation for compressed text: picks brotli or gzip from Accept-Encoding, and compresses
// dynamic responses (pages, JSON) on the fly. Built assets are precompressed at build time (static-files.ts).
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import zlib from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

/** Encodings the shop answers with, best first. */
export type ContentCoding = 'br' | 'gzip';

/** Responses smaller than this are sent as they are: the framing would eat the savings. */
export const MIN_COMPRESS_BYTES = 1024;

/**
 * Picks the best encoding the client accepts: brotli over gzip, honouring q-values (`br;q=0` refuses
 * brotli, `*` stands for any encoding not listed). Undefined means identity.
 * @example chooseEncoding('gzip, deflate, br') // 'br'; chooseEncoding('gzip;q=0, br;q=0') // undefined
 */
export function chooseEncoding(
  acceptEncoding: string | null | undefined,
  available: readonly ContentCoding[] = ['br', 'gzip'],
): ContentCoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const match = /^q=([0-9.]+)$/.exec(param);
      if (match) q = Number(match[1]);
    }
    weights.set(name, Number.isFinite(q) ? q : 0);
  }
  let best: ContentCoding | undefined;
  let bestQ = 0;
  for (const coding of available) {
    const q = weights.get(coding) ?? weights.get('*') ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}

/**
 * True for media types worth compressing: text, JavaScript, JSON, XML and SVG. Never event streams
 * (each event must reach the browser at once) nor images, fonts in woff2, archives (already compressed).
 * @example isCompressibleType('text/html; charset=utf-8') // true; isCompressibleType('text/event-stream') // false
 */
export function isCompressibleType(contentType: string | null | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/event-stream') return false;
  return (
    type.startsWith('text/') ||
    /^application\/(?:javascript|ecmascript|json|xml|manifest\+json|ld\+json|problem\+json|x-javascript|rss\+xml|atom\+xml)$/.test(
      type,
    ) ||
    type === 'image/svg+xml'
  );
}

/** Adds `Accept-Encoding` to a response's Vary header once. */
export function varyOnAcceptEncoding(headers: Headers): void {
  const vary = headers.get('Vary');
  if (!vary) headers.set('Vary', 'Accept-Encoding');
  else if (vary.trim() !== '*' && !/(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary))
    headers.set('Vary', `${vary}, Accept-Encoding`);
}

/** The window of a live answer's brotli stream: 2^18 = 256 kB, larger than any page the shop renders. */
export const LIVE_BROTLI_WINDOW_BITS = 18;

/**
 * Brotli for answers compressed per request (pages, JSON). Quality 5: most of brotli's gain over gzip for a
 * fraction of quality 11's CPU. The window: brotli's default (22 bits, 4 MB) made every compressor allocate
 * megabytes that Node reports to V8 as external memory, and rendered pages spent half their CPU in it and in
 * the major collections it set off (bench:ssr, a member's /mypage: 29–35 ms with the default window,
 * 14–15.5 ms with 18 bits, 12–13 ms uncompressed; issue 32, bench/README.md). A page is well under 256 kB,
 * so the smaller window compresses it as well.
 */
export const LIVE_BROTLI_PARAMS: Readonly<Record<number, number>> = {
  [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
  [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  [zlib.constants.BROTLI_PARAM_LGWIN]: LIVE_BROTLI_WINDOW_BITS,
};

/**
 * Pieces that arrive in one turn of the event loop, passed on as one. React writes a rendered page in ~2 kB
 * pieces, all in one turn; the compressor flushes after each piece, and a flush per 2 kB cost twice the CPU
 * of one flush and ~10 % of the size (a 57 kB home page: 1.9–2.2 ms and 9.7 kB in 28 pieces, 0.9–1.1 ms and
 * 8.7 kB in one, brotli 5; a member's /mypage spent ~19 % of its server CPU in brotli). A piece that arrives
 * in a later turn (a streamed Suspense boundary) still leaves at once, in its own flush.
 * @example source.pipe(coalesceTurns()).pipe(zlib.createBrotliCompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH }))
 */
function coalesceTurns(): Transform {
  let held: Uint8Array[] = [];
  let turn: NodeJS.Immediate | null = null;
  const release = (stream: Transform) => {
    turn = null;
    if (held.length === 0) return;
    stream.push(held.length === 1 ? held[0] : Buffer.concat(held));
    held = [];
  };
  return new Transform({
    transform(chunk: Uint8Array, _encoding, done) {
      held.push(chunk);
      turn ??= setImmediate(() => release(this));
      done();
    },
    flush(done) {
      if (turn) clearImmediate(turn);
      release(this);
      done();
    },
    destroy(error, done) {
      if (turn) clearImmediate(turn);
      held = [];
      done(error);
    },
  });
}

/** A streaming compressor that flushes after every chunk, so streamed pages still arrive in pieces. */
function compressor(encoding: ContentCoding): zlib.BrotliCompress | zlib.Gzip {
  if (encoding === 'br') {
    return zlib.createBrotliCompress({
      flush: zlib.constants.BROTLI_OPERATION_FLUSH,
      params: { ...LIVE_BROTLI_PARAMS },
    });
  }
  return zlib.createGzip({ level: 6, flush: zlib.constants.Z_SYNC_FLUSH });
}

/**
 * Middleware compressing dynamic text responses (server-rendered pages, JSON, sitemap) by
 * Accept-Encoding. Leaves alone: HEAD, 204/206/304, errors to other methods than GET, event streams,
 * responses already encoded (the precompressed static files), `Cache-Control: no-transform`, and
 * bodies known to be small.
 * @example app.use(compressResponses())
 */
export function compressResponses(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (!isCompressibleType(res.headers.get('Content-Type'))) return;
    // Whatever we answer, a cache must keep the encodings apart.
    try {
      varyOnAcceptEncoding(res.headers);
    } catch {
      return; // immutable headers (a fetched response passed through): send it as it came
    }
    if (c.req.method === 'HEAD' || !res.body) return;
    if (res.status === 204 || res.status === 206 || res.status === 304 || res.status < 200) return;
    if (res.headers.has('Content-Encoding') || res.headers.has('Content-Range')) return;
    // A refused POST (413, 403, 405…) may leave its body unread: a streamed answer would make the
    // server drop the connection while draining it, so such answers go out as they are (they are small).
    if (c.req.method !== 'GET' && res.status >= 400) return;
    if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.headers.get('Cache-Control') ?? '')) return;
    const length = res.headers.get('Content-Length');
    if (length !== null && Number(length) < MIN_COMPRESS_BYTES) return;
    const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
    if (!encoding) return;

    const source = Readable.fromWeb(res.body as WebReadableStream<Uint8Array>);
    const zip = compressor(encoding);
    const turns = coalesceTurns();
    source.on('error', (error) => {
      turns.destroy();
      zip.destroy(error);
    });
    source.pipe(turns).pipe(zip);
    const headers = new Headers(res.headers);
    headers.set('Content-Encoding', encoding);
    headers.delete('Content-Length');
    // The compressed bytes differ from the identity ones: a strong validator would lie.
    const etag = headers.get('ETag');
    if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
    // Hono copies the old response's headers onto a new one (Content-Length among them): drop it first.
    c.res = undefined as unknown as Response;
    c.res = new Response(Readable.toWeb(zip) as unknown as ReadableStream<Uint8Array>, {
      status: res.status,
      statusText: res.statusText,
      headers,
    });
  };
}
