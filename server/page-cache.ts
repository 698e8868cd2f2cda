// Visitors' public pages (home, genre tops, pack pages, notices) from a short-lived in-memory cache
// (docs/decisions/048). A visitor's copy of these pages is the same for every visitor, and the counts on
// it move on by server-sent events, so one render serves every visitor for PAGE_CACHE_SECONDS.
//
// The CSP stays per response: a cached page's inline scripts are allowed by their SHA-256 hashes, never
// by a nonce another visitor saw (the stored page's own nonce is not in any later response's policy).
// Members (a session cookie) never get the visitors' copy: their catalogue pages come from a second copy
// per page, the members' shell, with each member's own parts filled in per response (server/personal-shell.ts,
// decision 077). Requests carrying a one-time notice never touch the cache, and a response that sets a
// cookie, says how it may be cached or is not a plain 200 page is never stored.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { DatabaseHandle } from '#db/client';
import type { Logger } from './logger';
import type { ContentCoding } from './compression';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The NOTIFY channel that tells every instance to drop its cached pages. */
export const PAGE_CACHE_CHANNEL = 'shop_page_cache';

/**
 * Paths whose visitor copy is the same for everyone (the route table's public pages), each with its
 * route's pattern in app/routes.ts, which a stored copy is counted under (decision 072).
 */
const CACHEABLE_PAGES: readonly { path: RegExp; route: string }[] = [
  { path: /^\/$/, route: '/' },
  { path: /^\/gacha\/[A-Za-z0-9_-]{1,80}\/?$/, route: '/gacha/:genreId' },
  { path: /^\/gacha\/[A-Za-z0-9_-]{1,80}\/[A-Za-z0-9_-]{1,80}\/?$/, route: '/gacha/:genreId/:gachaId' },
  { path: /^\/notices\/?$/, route: '/notices' },
  { path: /^\/notices\/[A-Za-z0-9_-]{1,80}\/?$/, route: '/notices/:noticeId' },
];

/**
 * The route pattern of a cacheable page's path, or undefined.
 * @example cachedPageRoute('/gacha/pokemon') === '/gacha/:genreId'
 */
export function cachedPageRoute(path: string): string | undefined {
  return CACHEABLE_PAGES.find((page) => page.path.test(path))?.route;
}

/** Cookies a public page reads on the server: a request with one of them is rendered for itself. */
const PERSONAL_COOKIES: readonly RegExp[] = [/(?:^|;\s*)[^=;]*session_token=/, /(?:^|;\s*)oripa_notice=/];

/** Longest query string that still gets its own entry (anything longer is rendered, not stored). */
const MAX_QUERY_LENGTH = 200;

export interface CachedPage {
  status: number;
  headers: [string, string][];
  body: Buffer;
  /** 'sha256-…' sources of the page's inline scripts, for this page's CSP. */
  scriptHashes: string[];
  storedAt: number;
  encoded: Partial<Record<ContentCoding, Promise<Buffer>>>;
}

export interface PageCache {
  /** False when PAGE_CACHE_SECONDS is 0: every page is rendered for its request. */
  readonly enabled: boolean;
  /** The cache key of a request that may be answered from the cache, or null. */
  keyOf(request: Request): string | null;
  get(key: string): CachedPage | null;
  /**
   * Renders once per key at a time: concurrent visitors of an expired page wait for one render.
   * `render` answers the request; a storable answer is stored and served from the stored copy.
   */
  load(key: string, render: () => Promise<Response>): Promise<{ page: CachedPage } | { response: Response }>;
  /** The page's bytes in an encoding, compressed once per stored page. */
  encodedBody(page: CachedPage, encoding: ContentCoding | undefined): Promise<Buffer>;
  /** Drops every stored page on this instance. */
  clear(): void;
  /** Drops every stored page on every instance (NOTIFY). */
  invalidateEverywhere(reason: string): Promise<void>;
  readonly stats: { hits: number; misses: number; stores: number; clears: number };
  stop(): Promise<void>;
}

export interface PageCacheOptions {
  /** How long a stored page is served (PAGE_CACHE_SECONDS); 0 turns the cache off. */
  ttlMs: number;
  /** Distinct pages kept at most; the oldest go first. */
  maxEntries: number;
  /** The biggest page stored (bytes before compression). */
  maxPageBytes?: number;
  database?: Pick<DatabaseHandle, 'listen' | 'db'>;
  logger?: Logger;
  now?: () => number;
}

/**
 * The 'sha256-…' CSP sources of every inline script of an HTML page (a script with `src` is allowed by
 * 'self'). Browsers hash the script's text as it stands between the tags, in UTF-8.
 * @example inlineScriptHashes('<script>a()</script>') // ["'sha256-…'"]
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? '';
    if (/\ssrc\s*=/i.test(attributes)) continue;
    hashes.add(
      `'sha256-${createHash('sha256')
        .update(match[2] ?? '', 'utf8')
        .digest('base64')}'`,
    );
  }
  return [...hashes];
}

/**
 * The cache key of a visitor's GET of a public page (path and query), or null when the request must be
 * rendered for itself: a member, a one-time notice, another method, a private path.
 * @example cacheKeyOf(new Request('http://shop/gacha/pokemon')) === '/gacha/pokemon'
 */
export function cacheKeyOf(request: Request): string | null {
  return cacheKeyOfShape(
    request.method,
    request.url,
    request.headers.get('cookie'),
    request.headers.has('authorization'),
  );
}

/**
 * cacheKeyOf from the request's parts: its method, URL, Cookie header (as the key should weigh it) and whether
 * it carries Authorization. The members' shell reads a member's request through it without its session cookie.
 * @example cacheKeyOfShape('GET', 'https://shop.example/gacha/pokemon', null, false) === '/gacha/pokemon'
 */
export function cacheKeyOfShape(
  method: string,
  href: string,
  cookie: string | null,
  authorized: boolean,
): string | null {
  if (method !== 'GET') return null;
  if (cookie && PERSONAL_COOKIES.some((pattern) => pattern.test(cookie))) return null;
  // Sign-ins and previews bring their own headers: anything authorised is never shared.
  if (authorized) return null;
  const url = new URL(href);
  if (!cachedPageRoute(url.pathname)) return null;
  if (url.search.length > MAX_QUERY_LENGTH) return null;
  return url.pathname + url.search;
}

/** The GET of a request's page without its cookies, for a render shared with every visitor (or member). */
export function sharedRequest(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.delete('cookie');
  return new Request(request.url, { method: 'GET', headers });
}

/** True for an answer every visitor may get: a 200 HTML page that sets no cookie and sets no caching of its own. */
export function isStorable(response: Response): boolean {
  if (response.status !== 200 || !response.body) return false;
  if (!(response.headers.get('Content-Type') ?? '').startsWith('text/html')) return false;
  if (response.headers.has('Set-Cookie') || response.headers.has('Cache-Control')) return false;
  const vary = response.headers.get('Vary');
  return !vary || /^\s*accept-encoding\s*$/i.test(vary);
}

/** @example const pages = await createPageCache({ ttlMs: 5000, maxEntries: 500, database }) */
export async function createPageCache(options: PageCacheOptions): Promise<PageCache> {
  const now = options.now ?? Date.now;
  const maxPageBytes = options.maxPageBytes ?? 2_000_000;
  const entries = new Map<string, CachedPage>();
  const inflight = new Map<string, Promise<CachedPage | null>>();
  const stats = { hits: 0, misses: 0, stores: 0, clears: 0 };
  let generation = 0;

  const clear = () => {
    entries.clear();
    generation += 1;
    stats.clears += 1;
  };
  const unlisten = options.database
    ? await options.database.listen(PAGE_CACHE_CHANNEL, () => clear())
    : async () => undefined;

  const fresh = (key: string): CachedPage | null => {
    const page = entries.get(key);
    if (!page) return null;
    if (now() - page.storedAt >= options.ttlMs) {
      entries.delete(key);
      return null;
    }
    return page;
  };

  const store = async (key: string, response: Response, startedIn: number): Promise<CachedPage | null> => {
    const body = Buffer.from(await response.arrayBuffer());
    const headers = [...response.headers].filter(([name]) => !/^(content-length|content-encoding)$/i.test(name));
    const page: CachedPage = {
      status: response.status,
      headers,
      body,
      scriptHashes: inlineScriptHashes(body.toString('utf8')),
      storedAt: now(),
      encoded: {},
    };
    // A page rendered before a clear describes the shop before the change: answered, never kept.
    if (body.length <= maxPageBytes && startedIn === generation) {
      entries.delete(key);
      entries.set(key, page);
      stats.stores += 1;
      while (entries.size > options.maxEntries) entries.delete(entries.keys().next().value!);
    }
    return page;
  };

  return {
    stats,
    enabled: options.ttlMs > 0,
    keyOf: (request) => (options.ttlMs > 0 ? cacheKeyOf(request) : null),
    get(key) {
      const page = fresh(key);
      if (page) stats.hits += 1;
      return page;
    },
    async load(key, render) {
      const waiting = inflight.get(key);
      if (waiting) {
        const page = await waiting;
        if (page) {
          stats.hits += 1;
          return { page };
        }
        // The render could not be shared (a redirect, an error…): this request renders for itself.
        return { response: await render() };
      }
      stats.misses += 1;
      const startedIn = generation;
      let answered: Response | undefined;
      const rendering = (async () => {
        answered = await render();
        return isStorable(answered) ? store(key, answered, startedIn) : null;
      })();
      inflight.set(key, rendering);
      try {
        const page = await rendering;
        return page ? { page } : { response: answered! };
      } finally {
        inflight.delete(key);
      }
    },
    encodedBody(page, encoding) {
      if (!encoding) return Promise.resolve(page.body);
      const known = page.encoded[encoding];
      if (known) return known;
      const made =
        encoding === 'br'
          ? brotli(page.body, {
              params: {
                // Compressed once per stored page and sent many times: a higher quality than live pages.
                [zlib.constants.BROTLI_PARAM_QUALITY]: 9,
                [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: page.body.length,
              },
            })
          : gzip(page.body, { level: 9 });
      page.encoded[encoding] = made;
      return made;
    },
    clear,
    async invalidateEverywhere(reason) {
      clear();
      if (!options.database) return;
      try {
        const { sql } = await import('drizzle-orm');
        await options.database.db.execute(sql`select pg_notify(${PAGE_CACHE_CHANNEL}, ${reason})`);
      } catch (error) {
        // Other instances then keep their copies for PAGE_CACHE_SECONDS at most.
        options.logger?.warn({ err: error }, 'page cache: could not tell the other instances');
      }
    },
    async stop() {
      clear();
      await unlisten();
    },
  };
}
