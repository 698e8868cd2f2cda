// The Prismic content source (docs/decisions/041): @prismicio/client with the specification's client
// rules (sections 7–9), behind the shop's ContentSource. Pages never wait on Prismic: every answer comes
// from the last good copy of all the shop's documents (in memory, and in DATA_DIR/cache so a restart during
// an outage still has pages), refreshed in the background when older than 5 s (stale-while-revalidate).
// A refresh reads the master ref first (the client caches the repository for 5 s) and lists the
// documents again only when the ref moved, 100 a page with 500 ms between pages (the client's
// dangerouslyGetAll). Refreshes and previews go through one queue: 1500 ms between jobs, 3 attempts each.
// Here: the rules, the client and previews; the copy and its refresh: copy.ts; reads from it: reads.ts;
// Prismic's failures in the shop's codes: failures.ts.
import {
  createClient,
  getRepositoryName,
  isRepositoryName,
  type Client,
  type PrismicDocument,
} from '@prismicio/client';
import type { Logger } from 'pino';
import { ContentError, isContentError } from '../errors';
import type { ContentDocument, ContentPreview, ContentSource } from '../source';
import { createPrismicCopy } from './copy';
import { mapPrismicDocument, PRISMIC_ROUTES } from './documents';
import { toContentError, worthAnotherAttempt } from './failures';
import { createPrismicFetch, MAX_ATTEMPTS, type Pause } from './http';
import { createJobQueue, type JobQueue } from './queue';
import { bannersIn, noticesIn, pageIn, pagesIn } from './reads';

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

function repositoryNameOf(endpoint: string): string {
  try {
    return getRepositoryName(endpoint);
  } catch {
    return new URL(endpoint).hostname.replace(/[^a-z0-9-]/gi, '-');
  }
}

/**
 * @example const source = createPrismicSource({ repository: config.PRISMIC_REPOSITORY, accessToken: config.PRISMIC_ACCESS_TOKEN,
 *   cacheFile: path.join(config.dataDir, 'cache', 'prismic-content.json'), logger })
 */
export function createPrismicSource(options: PrismicSourceOptions): PrismicSource {
  const closing = new AbortController();
  // Preview requests by their signal, with the ref they must be read at (see prismicClient).
  const previewRefs = new WeakMap<AbortSignal, string>();
  const client = prismicClient(options, closing.signal, previewRefs);
  const queue = createJobQueue({
    intervalMs: PRISMIC_RULES.queueIntervalMs,
    maxAttempts: PRISMIC_RULES.maxAttempts,
    retryable: worthAnotherAttempt,
    pause: options.pause,
  });
  const copy = createPrismicCopy({
    client,
    endpoint: client.documentAPIEndpoint,
    queue,
    logger: options.logger,
    cacheFile: options.cacheFile,
    rules: PRISMIC_RULES,
  });

  return {
    kind: 'prismic',
    getPage: async (uid, types = ['special', 'page']) => pageIn(await copy.requireCopy(), uid, types),
    listPages: async () => pagesIn(await copy.current()),
    listBanners: async (now = new Date()) => bannersIn(await copy.current(), now),
    listNotices: async (now = new Date()) => noticesIn(await copy.current(), now),
    getNotice: async (uid) => (await copy.requireCopy()).notices.get(uid) ?? null,
    getPreview: (preview) => fetchPreview({ client, queue, previewRefs }, preview),
    health: copy.health,
    refresh: copy.refresh,
    close() {
      copy.close();
      closing.abort(new ContentError('unavailable', 'the content source was closed'));
      queue.close(new ContentError('unavailable', 'the content source was closed'));
    },
  };
}

/** The client, every request through the shop's fetch (timeouts, the close) and every locale. */
function prismicClient(
  options: PrismicSourceOptions,
  closed: AbortSignal,
  previewRefs: WeakMap<AbortSignal, string>,
): Client {
  // A full endpoint on another host (a stand-in, a proxy) has no repository name to infer: naming one
  // keeps the client from warning at every start.
  const repository = isRepositoryName(options.repository)
    ? { name: options.repository }
    : { name: repositoryNameOf(options.repository), documentAPIEndpoint: options.repository };
  const prismicFetch = createPrismicFetch(options.fetch ?? globalThis.fetch.bind(globalThis), {
    timeoutMs: PRISMIC_RULES.requestTimeoutMs,
    closed,
    pause: options.pause,
  });
  return createClient(repository.name, {
    documentAPIEndpoint: repository.documentAPIEndpoint,
    accessToken: options.accessToken,
    routes: PRISMIC_ROUTES,
    // Every locale: a repository made in English with a Japanese locale added still serves its pages
    // (snapshotOf keeps the Japanese one of each uid).
    defaultParams: { lang: '*' },
    fetch: (input, init) => {
      // The client answers a ref Prismic does not know (or that expired) by retrying with the master ref
      // it names: right for the pages, wrong for a preview, which would show the published version under
      // a 「プレビュー」 label. So a preview's requests must be read at the ref they asked for.
      const wanted = init?.signal ? previewRefs.get(init.signal as AbortSignal) : undefined;
      if (wanted !== undefined && new URL(input).searchParams.get('ref') !== wanted)
        // not-found: no further attempt by the queue, and the preview page is the not-found page.
        return Promise.reject(
          new ContentError('not-found', 'Prismic does not know the preview ref (or it expired)', { status: 404 }),
        );
      return prismicFetch(input, init);
    },
  });
}

/** A document at a preview ref, fetched for the one request that asked (it never enters the copy). */
async function fetchPreview(
  deps: { client: Client; queue: JobQueue; previewRefs: WeakMap<AbortSignal, string> },
  preview: ContentPreview & { documentId?: string },
): Promise<ContentDocument | null> {
  if (preview.kind !== 'prismic' || !preview.documentId || !preview.ref) return null;
  const { ref, documentId } = preview;
  const { client, queue, previewRefs } = deps;
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
}
