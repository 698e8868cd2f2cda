// Local stand-in for Prismic's document API (REST API v2, the part the shop reads): GET /api/v2 (the
// repository: refs with the master ref, types, languages, forms) and GET /api/v2/documents/search with
// q (at/any on document.type and document.id), ref, pageSize (at most 100), page, orderings, lang, routes
// and access_token, answered with Prismic's page shape (page, results_per_page, results_size,
// total_results_size, total_pages, next_page, prev_page, results). Errors use Prismic's shapes: 400
// parsing-error, 401 for a missing or wrong access token, 404 api_notfound_error for an unknown ref and
// 410 for an expired one (both naming the master ref, as Prismic does). Publishing moves the master ref
// and keeps the old ref readable until `expire`. `answer` lets a test stand in for the network's failures
// (429, 5xx); `stop`/`start` play an outage on the same port.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { repository, search, type PrismicState } from './api';

/** A document as Prismic serves it (the header fields and the custom type's data). */
export interface StandinDocument {
  id: string;
  uid: string | null;
  url: string | null;
  type: string;
  href: string;
  tags: string[];
  first_publication_date: string;
  last_publication_date: string;
  slugs: string[];
  linked_documents: unknown[];
  lang: string;
  alternate_languages: unknown[];
  data: Record<string, unknown>;
}

/** One request the stand-in received: which endpoint, its query, and when (Date.now() is not faked: performance). */
export interface StandinRequest {
  kind: 'repository' | 'search' | 'other';
  url: URL;
  at: number;
}

/** A forced answer: the status, a JSON body and headers. */
export interface StandinAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface PrismicStandin {
  /** The repository's document API endpoint, as PRISMIC_REPOSITORY takes it: http://127.0.0.1:port/api/v2. */
  endpoint: string;
  readonly requests: StandinRequest[];
  /** The master ref now. */
  readonly masterRef: string;
  /** Publishes a new version of the repository's documents: a new master ref; the old one stays readable. */
  publish(documents: StandinDocument[]): string;
  /** A preview ref that reads `documents` (a release or a draft session): a URL, as Prismic's preview tokens are. */
  addPreview(documents: StandinDocument[]): string;
  /** Makes a ref answer 410 from now on. */
  expire(ref: string): void;
  /** Makes a ref unknown (404 api_notfound_error), as a mistyped or very old ref is. */
  forget(ref: string): void;
  /** Whether 404/410 answers name the master ref ("Master ref is: …"), as Prismic's do (default true). */
  nameMasterRef: boolean;
  /** When set and it returns an answer, that answer is given instead (checked before anything else). */
  answer: ((request: StandinRequest) => StandinAnswer | null) | null;
  /** Plays an outage: refuses connections until start(). */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

let sequence = 0;
const newId = () => `${randomBytes(6).toString('base64url')}${(sequence++).toString(36)}`.slice(0, 16);

/**
 * A document in Prismic's shape.
 * @example prismicDocument('page', 'terms', { title: '利用規約', body: [] })
 */
export function prismicDocument(
  type: string,
  uid: string,
  data: Record<string, unknown>,
  header: Partial<Omit<StandinDocument, 'data' | 'type' | 'uid'>> = {},
): StandinDocument {
  const at = '2026-11-01T00:00:00+0000';
  return {
    id: header.id ?? newId(),
    uid,
    url: null,
    type,
    href: '',
    tags: [],
    first_publication_date: at,
    last_publication_date: at,
    slugs: [uid],
    linked_documents: [],
    lang: 'ja-jp',
    alternate_languages: [],
    ...header,
    data,
  };
}

/**
 * Starts the stand-in on a free loopback port.
 * @example const prismic = await startPrismicStandin({ documents: [prismicDocument('page', 'terms', { title: '利用規約' })] })
 */
export async function startPrismicStandin(
  options: { documents?: StandinDocument[]; accessToken?: string; port?: number } = {},
): Promise<PrismicStandin> {
  const state: PrismicState = {
    versions: new Map(),
    expired: new Set(),
    previews: new Set(),
    masterRef: '',
    requests: [],
    origin: '',
  };

  const newRef = () => `${randomBytes(9).toString('base64url')}`;
  const send = (response: http.ServerResponse, answer: StandinAnswer) => {
    response.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...answer.headers });
    response.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  };

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', state.origin);
    const kind =
      url.pathname === '/api/v2' || url.pathname === '/api/v2/'
        ? 'repository'
        : url.pathname === '/api/v2/documents/search'
          ? 'search'
          : 'other';
    const seen: StandinRequest = { kind, url, at: performance.now() };
    state.requests.push(seen);
    const forced = standin.answer?.(seen);
    if (forced) return send(response, forced);
    if (request.method !== 'GET' || kind === 'other')
      return send(response, { status: 404, body: { message: 'Not found' } });
    if (options.accessToken && url.searchParams.get('access_token') !== options.accessToken)
      return send(response, { status: 401, body: { type: 'api_security_error', message: 'Invalid access token' } });
    send(
      response,
      kind === 'repository' ? { status: 200, body: repository(state) } : search(state, url, standin.nameMasterRef),
    );
  });

  let port = options.port ?? 0;
  async function start() {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    port = (server.address() as AddressInfo).port;
    state.origin = `http://127.0.0.1:${port}`;
  }
  async function stop() {
    if (!server.listening) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  await start();
  const standin: PrismicStandin = {
    endpoint: `${state.origin}/api/v2`,
    requests: state.requests,
    get masterRef() {
      return state.masterRef;
    },
    publish(documents) {
      state.masterRef = newRef();
      state.versions.set(state.masterRef, documents);
      return state.masterRef;
    },
    addPreview(documents) {
      // Prismic's preview tokens are URLs of the repository (the shop's /preview takes only those).
      const ref = `${state.origin}/previews/${newRef()}`;
      state.versions.set(ref, documents);
      state.previews.add(ref);
      return ref;
    },
    expire(ref) {
      state.expired.add(ref);
    },
    forget(ref) {
      state.versions.delete(ref);
    },
    nameMasterRef: true,
    answer: null,
    stop,
    start,
    close: stop,
  };
  standin.publish(options.documents ?? []);
  return standin;
}
