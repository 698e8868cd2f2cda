// The last good copy of the shop's Prismic documents (docs/decisions/041): in memory, and in the cache file
// so a restart during an outage still has pages; refreshed through the queue when older than freshForMs
// (stale-while-revalidate), listing the documents again only when the master ref moved.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { filter, type Client, type PrismicDocument } from '@prismicio/client';
import type { Logger } from 'pino';
import { ContentError } from '../errors';
import {
  CONTENT_DOCUMENT_TYPES,
  type ContentDocument,
  type ContentSourceHealth,
  type NoticeData,
  type PageData,
} from '../source';
import { mapPrismicDocument, type PrismicBannerData } from './documents';
import { toContentError } from './failures';
import type { JobQueue } from './queue';

/** The cache file's shape: Prismic's own documents, so a newer shop reads an older copy with its own mapping. */
interface CacheFile {
  format: 1;
  endpoint: string;
  ref: string | null;
  fetchedAt: string;
  documents: PrismicDocument[];
}

export interface Snapshot {
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

/** The copy saved for this endpoint, or null (none yet, unreadable, or another repository's). */
async function readCacheFile(
  cacheFile: string,
  endpoint: string,
  logger: Logger,
): Promise<{ snapshot: Snapshot; fetchedAt: string } | null> {
  let text: string;
  try {
    text = await fs.readFile(cacheFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      logger.warn({ err: error, cacheFile }, 'Prismic: the saved copy of the content could not be read');
    return null;
  }
  try {
    const saved = JSON.parse(text) as CacheFile;
    if (saved.format !== 1 || !Array.isArray(saved.documents)) throw new Error('not a copy this shop wrote');
    // Another repository's pages must never be served under this one.
    if (saved.endpoint !== endpoint) return null;
    return { snapshot: snapshotOf(saved.documents, saved.ref), fetchedAt: saved.fetchedAt };
  } catch (error) {
    logger.warn({ err: error, cacheFile }, 'Prismic: the saved copy of the content is unreadable; ignored');
    return null;
  }
}

/** Saves the copy; answers what kept it from being saved, or null. */
async function writeCacheFile(cacheFile: string, saved: CacheFile): Promise<unknown> {
  try {
    await fs.mkdir(path.dirname(cacheFile), { recursive: true });
    // Through a temporary name: a crash mid-write leaves the previous copy whole.
    const temporary = `${cacheFile}.${randomUUID()}.tmp`;
    await fs.writeFile(temporary, JSON.stringify(saved));
    await fs.rename(temporary, cacheFile);
    return null;
  } catch (error) {
    return error;
  }
}

function waitAtMost(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref?.();
  });
  return Promise.race([work.then(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

export interface PrismicCopy {
  /** The copy to answer from: served at once when there is one, waited for (bounded) when there is none. */
  current(): Promise<Snapshot | null>;
  /** The copy, or a ContentError 'unavailable' when there is none yet. */
  requireCopy(): Promise<Snapshot>;
  /** Lists the documents again now (through the queue); rejects with a ContentError when Prismic fails. */
  refresh(): Promise<void>;
  health(): ContentSourceHealth;
  /** No refresh starts any more; reads keep answering from the copy in memory. */
  close(): void;
}

/**
 * @example const copy = createPrismicCopy({ client, endpoint: client.documentAPIEndpoint, queue, logger, cacheFile, rules: PRISMIC_RULES })
 */
export function createPrismicCopy(deps: {
  client: Client;
  endpoint: string;
  queue: JobQueue;
  logger: Logger;
  cacheFile: string;
  rules: { pageSize: number; freshForMs: number; coldWaitMs: number };
}): PrismicCopy {
  const { client, endpoint, queue, logger, cacheFile, rules } = deps;
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

  const loaded = readCacheFile(cacheFile, endpoint, logger).then((saved) => {
    if (saved && !snapshot) {
      snapshot = saved.snapshot;
      lastSuccessAt = saved.fetchedAt;
    }
  });

  async function refreshOnce(): Promise<void> {
    try {
      const master = await client.getMasterRef();
      // Content at a ref never changes: the same master ref means the copy is still exact.
      if (snapshot && snapshot.ref === master.ref) return;
      const documents = await client.dangerouslyGetAll({
        filters: [filter.any('document.type', [...CONTENT_DOCUMENT_TYPES])],
        pageSize: rules.pageSize,
        orderings: [{ field: 'document.first_publication_date' }, { field: 'document.id' }],
      });
      // Each page asks for the master ref (cached 5 s): if it moved meanwhile the pages may mix two
      // versions, so the copy keeps no ref and the next refresh lists again.
      const after = await client.getMasterRef();
      const ref = after.ref === master.ref ? master.ref : null;
      snapshot = snapshotOf(documents, ref);
      const failure = await writeCacheFile(cacheFile, {
        format: 1,
        endpoint,
        ref,
        fetchedAt: new Date().toISOString(),
        documents,
      });
      if (failure && !persistWarned)
        logger.warn({ err: failure, cacheFile }, 'Prismic: the copy of the content could not be saved');
      persistWarned = failure !== null;
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

  async function current(): Promise<Snapshot | null> {
    await loaded;
    if (snapshot) {
      if (Date.now() - checkedAt >= rules.freshForMs) void revalidate();
      return snapshot;
    }
    if (!closed) await waitAtMost(rules.coldWaitMs, revalidate());
    return snapshot;
  }

  async function requireCopy(): Promise<Snapshot> {
    const copy = await current();
    if (!copy) throw new ContentError('unavailable', `no copy of the Prismic content yet (${lastError ?? 'waiting'})`);
    return copy;
  }

  return {
    current,
    requireCopy,
    refresh,
    health: () => ({ source: 'prismic', stale: state !== 'ok', lastSuccessAt, lastError }),
    close() {
      closed = true;
    },
  };
}
