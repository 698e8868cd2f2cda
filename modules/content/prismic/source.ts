// The Prismic content source (docs/decisions/041): @prismicio/client with the specification's client
// rules (sections 7–9), behind the shop's ContentSource. Pages never wait on Prismic: every answer comes
// from the last good copy of all the shop's documents (in memory, and in DATA_DIR/cache so a restart during
// an outage still has pages), refreshed in the background when older than 5 s (stale-while-revalidate).
// A refresh reads the master ref first (the client caches the repository for 5 s) and lists the
// documents again only when the ref moved, 100 a page with 500 ms between pages (the client's
// dangerouslyGetAll). Refreshes and previews go through one queue: 1500 ms between jobs, 3 attempts each.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  createClient,
  filter,
  getRepositoryName,
  isRepositoryName,
  ForbiddenError,
  NotFoundError,
  ParsingError,
  PreviewTokenExpiredError,
  PrismicError,
  RefExpiredError,
  RefNotFoundError,
  type PrismicDocument,
} from '@prismicio/client';
import { isWithinWindow } from '#modules/kernel';
import type { Logger } from 'pino';
import { ContentError, isContentError } from '../errors';
import {
  CONTENT_DOCUMENT_TYPES,
  type ContentDocument,
  type ContentPreview,
  type ContentSource,
  type ContentSourceHealth,
  type HomeBanner,
  type NoticeData,
  type PageData,
} from '../source';
import { mapPrismicDocument, PRISMIC_ROUTES, type PrismicBannerData } from './documents';
import { createPrismicFetch, MAX_ATTEMPTS, type Pause } from './http';
import { createJobQueue } from './queue';

/**
 * The specification's content-service constants (section 9) and the shop's own bounds. Page size, the
 * delay between pages, the repository cache and the ref retry are the client's own (its MAX_PAGE_SIZE,
 * GET_ALL_QUERY_DELAY, REPOSITORY_CACHE_TTL, MAX_INVALID_REF_RETRY_ATTEMPTS); the rest is done here.
 */
export const PRISMIC_RULES = {
  pageSize: 100,
  delayBetweenPagesMs: 500,
  repositoryCacheMs: 5000,
  rateLimitDefaultRetryMs: 1000,
  queueIntervalMs: 1500,
  maxAttempts: MAX_ATTEMPTS,
  /** The copy counts as fresh this long; a read after it serves the copy and refreshes in the background. */
  freshForMs: 5000,
  /** The longest a read waits when there is no copy at all (first start, empty cache file). */
  coldWaitMs: 10_000,
  /** The longest one HTTP request to Prismic may take. */
  requestTimeoutMs: 10_000,
} as const;

export interface PrismicSourceOptions {
  /** PRISMIC_REPOSITORY: the repository name (stella-shop) or its document API endpoint (https://…/api/v2). */
  repository: string;
  /** PRISMIC_ACCESS_TOKEN: needed when the repository's API is private. */
  accessToken: string | undefined;
  /** Where the last good copy is kept between starts: DATA_DIR/cache/prismic-content.json. */
  cacheFile: string;
  logger: Logger;
  /** The fetch to send requests with (the global one unless a test wraps it). */
  fetch?: typeof fetch;
  /** How to wait after a 429 and between attempts (real timers unless a test runs on a fake clock). */
  pause?: Pause;
}

export type PrismicSource = ContentSource & {
  /** Lists the documents again now (through the queue); rejects with a ContentError when Prismic fails. */
  refresh(): Promise<void>;
  /** Stops every request and wait; reads keep answering from the copy in memory. */
  close(): void;
};

/** The cache file's shape: Prismic's own documents, so a newer shop reads an older copy with its own mapping. */
interface CacheFile {
  format: 1;
  endpoint: string;
  ref: string | null;
  fetchedAt: string;
  documents: PrismicDocument[];
}

interface Snapshot {
  ref: string | null;
  pages: Map<string, ContentDocument<PageData>>;
  notices: Map<string, ContentDocument<NoticeData>>;
  banners: ContentDocument<PrismicBannerData>[];
}

/** One document per type and uid: Japanese first when a repository holds several locales. */
function snapshotOf(documents: PrismicDocument[], ref: string | null): Snapshot {
  const chosen = new Map<string, NonNullable<ReturnType<typeof mapPrismicDocument>>>();
  for (const raw of documents) {
    const mapped = mapPrismicDocument(raw);
    if (!mapped) continue;
    const key = `${mapped.type}/${mapped.uid}`;
    const held = chosen.get(key);
    if (!held || (!held.lang.startsWith('ja') && mapped.lang.startsWith('ja'))) chosen.set(key, mapped);
  }
  const snapshot: Snapshot = { ref, pages: new Map(), notices: new Map(), banners: [] };
  for (const [key, document] of chosen) {
    if (document.type === 'page' || document.type === 'special')
      snapshot.pages.set(key, document as ContentDocument<PageData>);
    else if (document.type === 'notice') snapshot.notices.set(document.uid, document as ContentDocument<NoticeData>);
    else snapshot.banners.push(document as ContentDocument<PrismicBannerData>);
  }
  return snapshot;
}

function repositoryNameOf(endpoint: string): string {
  try {
    return getRepositoryName(endpoint);
  } catch {
    return new URL(endpoint).hostname.replace(/[^a-z0-9-]/gi, '-');
  }
}

/**
 * The shop's code for whatever the client or the fetch threw (specification section 8).
 * @example toContentError(new ParsingError('bad q', url, body)).code // 'invalid-query'
 */
export function toContentError(error: unknown): ContentError {
  if (isContentError(error)) return error;
  // A ContentError thrown by our fetch may reach us wrapped by nothing, or as the cause of another error.
  if (error instanceof Error && isContentError(error.cause)) return error.cause;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ParsingError) return new ContentError('invalid-query', message, { status: 400, cause: error });
  if (error instanceof RefExpiredError) return new ContentError('expired-ref', message, { status: 410, cause: error });
  if (error instanceof RefNotFoundError || error instanceof PreviewTokenExpiredError)
    return new ContentError('expired-ref', message, { status: 404, cause: error });
  if (error instanceof ForbiddenError) return new ContentError('forbidden', message, { status: 401, cause: error });
  if (error instanceof NotFoundError) return new ContentError('not-found', message, { status: 404, cause: error });
  if (error instanceof PrismicError)
    return new ContentError('unavailable', `Prismic answered unexpectedly: ${message}`, { cause: error });
  return new ContentError('unavailable', message, { cause: error });
}

/**
 * Whether another attempt of the same job may succeed. The client has already retried a ref error with
 * the master ref Prismic named ("Master ref is: …", up to its 3 attempts); when Prismic named none, the
 * next attempt starts over from /api/v2, whose cache the client dropped.
 */
function worthAnotherAttempt(error: unknown): boolean {
  if (!isContentError(error)) return false;
  if (error.code === 'unavailable') return true;
  return error.code === 'expired-ref' && !/master ref is:/i.test(error.message);
}

/**
 * @example const source = createPrismicSource({ repository: config.PRISMIC_REPOSITORY, accessToken: config.PRISMIC_ACCESS_TOKEN,
 *   cacheFile: path.join(config.dataDir, 'cache', 'prismic-content.json'), logger })
 */
export function createPrismicSource(options: PrismicSourceOptions): PrismicSource {
  const { logger, cacheFile } = options;
  const closing = new AbortController();
  // A full endpoint on another host (a stand-in, a proxy) has no repository name to infer: naming one
  // keeps the client from warning at every start.
  const repository = isRepositoryName(options.repository)
    ? { name: options.repository }
    : { name: repositoryNameOf(options.repository), documentAPIEndpoint: options.repository };
  // Preview requests by their signal, with the ref they must be read at. The client answers a ref
  // Prismic does not know (or that expired) by retrying with the master ref it names: right for the
  // pages, wrong for a preview, which would show the published version under a 「プレビュー」 label.
  const previewRefs = new WeakMap<AbortSignal, string>();
  const prismicFetch = createPrismicFetch(options.fetch ?? globalThis.fetch.bind(globalThis), {
    timeoutMs: PRISMIC_RULES.requestTimeoutMs,
    closed: closing.signal,
    pause: options.pause,
  });
  const client = createClient(repository.name, {
    documentAPIEndpoint: repository.documentAPIEndpoint,
    accessToken: options.accessToken,
    routes: PRISMIC_ROUTES,
    // Every locale: a repository made in English with a Japanese locale added still serves its pages
    // (snapshotOf keeps the Japanese one of each uid).
    defaultParams: { lang: '*' },
    fetch: (input, init) => {
      const wanted = init?.signal ? previewRefs.get(init.signal as AbortSignal) : undefined;
      if (wanted !== undefined && new URL(input).searchParams.get('ref') !== wanted)
        // not-found: no further attempt by the queue, and the preview page is the not-found page.
        return Promise.reject(
          new ContentError('not-found', 'Prismic does not know the preview ref (or it expired)', { status: 404 }),
        );
      return prismicFetch(input, init);
    },
  });
  const endpoint = client.documentAPIEndpoint;
  const queue = createJobQueue({
    intervalMs: PRISMIC_RULES.queueIntervalMs,
    maxAttempts: PRISMIC_RULES.maxAttempts,
    retryable: worthAnotherAttempt,
    pause: options.pause,
  });

  let snapshot: Snapshot | null = null;
  /** When a refresh last ended (Date.now()), successful or not: reads after freshForMs start another. */
  let checkedAt = 0;
  let lastSuccessAt: string | null = null;
  let lastError: string | null = null;
  /** Logged once per change: to 'failing' warns, to 'ok' (the first success, a recovery) informs. */
  let state: 'unknown' | 'ok' | 'failing' = 'unknown';
  let pending: Promise<void> | null = null;
  let closed = false;
  let persistWarned = false;

  const loaded = readCacheFile();

  async function readCacheFile(): Promise<void> {
    let text: string;
    try {
      text = await fs.readFile(cacheFile, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        logger.warn({ err: error, cacheFile }, 'Prismic: the saved copy of the content could not be read');
      return;
    }
    try {
      const saved = JSON.parse(text) as CacheFile;
      if (saved.format !== 1 || !Array.isArray(saved.documents)) throw new Error('not a copy this shop wrote');
      // Another repository's pages must never be served under this one.
      if (saved.endpoint !== endpoint) return;
      if (!snapshot) {
        snapshot = snapshotOf(saved.documents, saved.ref);
        lastSuccessAt = saved.fetchedAt;
      }
    } catch (error) {
      logger.warn({ err: error, cacheFile }, 'Prismic: the saved copy of the content is unreadable; ignored');
    }
  }

  async function writeCacheFile(saved: CacheFile): Promise<void> {
    try {
      await fs.mkdir(path.dirname(cacheFile), { recursive: true });
      // Through a temporary name: a crash mid-write leaves the previous copy whole.
      const temporary = `${cacheFile}.${randomUUID()}.tmp`;
      await fs.writeFile(temporary, JSON.stringify(saved));
      await fs.rename(temporary, cacheFile);
      persistWarned = false;
    } catch (error) {
      if (!persistWarned) logger.warn({ err: error, cacheFile }, 'Prismic: the copy of the content could not be saved');
      persistWarned = true;
    }
  }

  async function refreshOnce(): Promise<void> {
    try {
      const master = await client.getMasterRef();
      // Content at a ref never changes: the same master ref means the copy is still exact.
      if (snapshot && snapshot.ref === master.ref) return;
      const documents = await client.dangerouslyGetAll({
        filters: [filter.any('document.type', [...CONTENT_DOCUMENT_TYPES])],
        pageSize: PRISMIC_RULES.pageSize,
        orderings: [{ field: 'document.first_publication_date' }, { field: 'document.id' }],
      });
      // Each page asks for the master ref (cached 5 s): if it moved meanwhile the pages may mix two
      // versions, so the copy keeps no ref and the next refresh lists again.
      const after = await client.getMasterRef();
      const ref = after.ref === master.ref ? master.ref : null;
      snapshot = snapshotOf(documents, ref);
      await writeCacheFile({ format: 1, endpoint, ref, fetchedAt: new Date().toISOString(), documents });
    } catch (error) {
      throw toContentError(error);
    }
  }

  async function refresh(): Promise<void> {
    // The copy on disk first: its ref may spare listing everything again.
    await loaded;
    try {
      await queue.run(refreshOnce);
      lastSuccessAt = new Date().toISOString();
      lastError = null;
      if (state !== 'ok') logger.info({ source: 'prismic', lastSuccessAt }, 'Prismic answers: content is fresh');
      state = 'ok';
    } catch (error) {
      const failure = toContentError(error);
      lastError = `${failure.code}: ${failure.message}`;
      if (state !== 'failing' && !closed)
        logger.warn(
          { source: 'prismic', code: failure.code, status: failure.status, lastSuccessAt },
          `Prismic refresh failed (${failure.code}): serving the last good copy`,
        );
      state = 'failing';
      throw failure;
    } finally {
      checkedAt = Date.now();
    }
  }

  /** One background refresh at a time; its failure is recorded by refresh() and read through health(). */
  function revalidate(): Promise<void> {
    if (closed) return Promise.resolve();
    pending ??= refresh()
      .catch(() => undefined)
      .finally(() => {
        pending = null;
      });
    return pending;
  }

  function waitAtMost(ms: number, work: Promise<unknown>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref?.();
    });
    return Promise.race([work.then(() => undefined), timeout]).finally(() => clearTimeout(timer));
  }

  /** The copy to answer from: served at once when there is one, waited for (bounded) when there is none. */
  async function current(): Promise<Snapshot | null> {
    await loaded;
    if (snapshot) {
      if (Date.now() - checkedAt >= PRISMIC_RULES.freshForMs) void revalidate();
      return snapshot;
    }
    if (!closed) await waitAtMost(PRISMIC_RULES.coldWaitMs, revalidate());
    return snapshot;
  }

  async function requireCopy(): Promise<Snapshot> {
    const copy = await current();
    if (!copy) throw new ContentError('unavailable', `no copy of the Prismic content yet (${lastError ?? 'waiting'})`);
    return copy;
  }

  const windowOf = (data: { startsAt?: string | null; endsAt?: string | null }) => ({
    startsAt: data.startsAt ? new Date(data.startsAt) : null,
    endsAt: data.endsAt ? new Date(data.endsAt) : null,
  });
  const shownSince = (notice: ContentDocument<NoticeData>) =>
    Date.parse(notice.data.startsAt ?? notice.publishedAt ?? '') || 0;

  return {
    kind: 'prismic',

    async getPage(uid, types = ['special', 'page']) {
      const copy = await requireCopy();
      for (const type of ['special', 'page'] as const) {
        const page = types.includes(type) ? copy.pages.get(`${type}/${uid}`) : undefined;
        if (page) return page;
      }
      return null;
    },

    async listPages() {
      const copy = await current();
      return [...(copy?.pages.values() ?? [])]
        .map(({ uid, type, url, publishedAt }) => ({ uid, type, url, publishedAt }))
        .sort((a, b) => a.uid.localeCompare(b.uid) || a.type.localeCompare(b.type));
    },

    async listBanners(now = new Date()): Promise<HomeBanner[]> {
      const copy = await current();
      return (copy?.banners ?? [])
        .filter((banner) => banner.data.active && isWithinWindow(windowOf(banner.data), now))
        .sort((a, b) => a.data.order - b.data.order || a.uid.localeCompare(b.uid))
        .map(({ uid, data }) => ({
          uid,
          title: data.title,
          image: data.image,
          link: data.link,
          order: data.order,
          alt: data.alt,
          ...(data.period ? { period: data.period } : {}),
        }));
    },

    async listNotices(now = new Date()) {
      const copy = await current();
      return [...(copy?.notices.values() ?? [])]
        .filter((notice) => isWithinWindow(windowOf(notice.data), now))
        .sort(
          (a, b) =>
            Number(b.data.important === true) - Number(a.data.important === true) ||
            shownSince(b) - shownSince(a) ||
            a.uid.localeCompare(b.uid),
        );
    },

    async getNotice(uid) {
      const copy = await requireCopy();
      return copy.notices.get(uid) ?? null;
    },

    async getPreview(preview: ContentPreview & { documentId?: string }) {
      if (preview.kind !== 'prismic' || !preview.documentId || !preview.ref) return null;
      const { ref, documentId } = preview;
      // A preview is fetched for the one request that asked and never enters the copy.
      const job = queue.run(async () => {
        const signal = new AbortController().signal;
        previewRefs.set(signal, ref);
        try {
          return await client.getByID(documentId, { ref, signal });
        } catch (error) {
          throw toContentError(error);
        }
      });
      let document: PrismicDocument | undefined;
      const timedOut = new ContentError('unavailable', 'the Prismic preview took too long');
      try {
        document = await Promise.race([
          job,
          new Promise<never>((_, reject) => setTimeout(() => reject(timedOut), PRISMIC_RULES.coldWaitMs).unref()),
        ]);
      } catch (error) {
        if (isContentError(error, 'not-found') || isContentError(error, 'expired-ref')) return null;
        throw error;
      }
      return mapPrismicDocument(document) as ContentDocument | null;
    },

    health(): ContentSourceHealth {
      return { source: 'prismic', stale: state !== 'ok', lastSuccessAt, lastError };
    },

    refresh,

    close() {
      closed = true;
      closing.abort(new ContentError('unavailable', 'the content source was closed'));
      queue.close(new ContentError('unavailable', 'the content source was closed'));
    },
  };
}
