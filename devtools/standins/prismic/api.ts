// The Prismic stand-in's API: the repository document and the document search, read from its state.
import type { StandinAnswer, StandinDocument, StandinRequest } from './index';

/** What the stand-in holds: every published or preview version by ref, and which refs are gone. */
export interface PrismicState {
  versions: Map<string, StandinDocument[]>;
  expired: Set<string>;
  previews: Set<string>;
  masterRef: string;
  requests: StandinRequest[];
  origin: string;
}

const TYPES = { page: 'ページ', special: '特設ページ', banner: 'バナー', notice: 'お知らせ' };

/** Reads Prismic's q syntax for the filters the stand-in knows; null when it cannot. */
function readFilter(q: string): ((d: StandinDocument) => boolean) | null {
  const match = /^\[\[(at|any)\((document\.type|document\.id), (.+)\)\]\]$/.exec(q.trim());
  if (!match) return null;
  const [, operator, field, rawValue] = match;
  let value: unknown;
  try {
    value = JSON.parse(rawValue!);
  } catch {
    return null;
  }
  const pick = (d: StandinDocument) => (field === 'document.type' ? d.type : d.id);
  if (operator === 'at' && typeof value === 'string') return (d) => pick(d) === value;
  if (operator === 'any' && Array.isArray(value)) return (d) => value.includes(pick(d));
  return null;
}

/** GET /api/v2: the repository, its refs and its search form. */
export function repository(state: PrismicState) {
  const refs = [
    { id: 'master', ref: state.masterRef, label: 'Master', isMasterRef: true },
    ...[...state.previews].map((ref) => ({ id: ref.slice(0, 8), ref, label: 'Preview', isMasterRef: false })),
  ];
  return {
    refs,
    integrationFieldsRef: null,
    bookmarks: {},
    types: TYPES,
    languages: [{ id: 'ja-jp', name: 'Japanese - Japan', is_master: true }],
    tags: [],
    forms: {
      everything: {
        method: 'GET',
        enctype: 'application/x-www-form-urlencoded',
        action: `${state.origin}/api/v2/documents/search`,
        fields: {
          ref: { type: 'String', multiple: false },
          q: { type: 'String', multiple: true },
          lang: { type: 'String', multiple: false },
          page: { type: 'Integer', multiple: false, default: '1' },
          pageSize: { type: 'Integer', multiple: false, default: '20' },
          orderings: { type: 'String', multiple: false },
          routes: { type: 'String', multiple: false },
          access_token: { type: 'String', multiple: false },
        },
      },
    },
    oauth_initiate: `${state.origin}/auth`,
    oauth_token: `${state.origin}/auth/token`,
    version: 'standin',
    license: 'All Rights Reserved',
    experiments: { draft: [], running: [] },
  };
}

/** GET /api/v2/documents/search: the documents of a ref, filtered and paged as Prismic does. */
export function search(state: PrismicState, url: URL, nameMasterRef: boolean): StandinAnswer {
  const params = url.searchParams;
  const ref = params.get('ref');
  if (!ref) return { status: 400, body: { type: 'parsing-error', message: 'The ref parameter is missing' } };
  const named = nameMasterRef ? ` Master ref is: ${state.masterRef}` : '';
  if (state.expired.has(ref))
    return {
      status: 410,
      body: { type: 'api_validation_error', message: `The ref ${ref} has state.expired.${named}` },
    };
  const documents = state.versions.get(ref);
  if (!documents) return { status: 404, body: { type: 'api_notfound_error', message: `Ref not found.${named}` } };
  const filters: ((d: StandinDocument) => boolean)[] = [];
  for (const q of params.getAll('q')) {
    const read = readFilter(q);
    if (!read)
      return {
        status: 400,
        body: {
          type: 'parsing-error',
          message: `unexpected filter ${q}`,
          pos: { line: 1, column: 1, id: 0, location: q },
        },
      };
    filters.push(read);
  }
  const lang = params.get('lang') ?? 'ja-jp';
  const pageSize = Math.min(100, Math.max(1, Number(params.get('pageSize') ?? 20) || 20));
  const page = Math.max(1, Number(params.get('page') ?? 1) || 1);
  let routes: { type: string; path: string }[] = [];
  try {
    routes = params.get('routes') ? JSON.parse(params.get('routes')!) : [];
  } catch {
    return { status: 400, body: { type: 'parsing-error', message: 'routes is not JSON' } };
  }
  const matching = documents.filter((d) => (lang === '*' || d.lang === lang) && filters.every((f) => f(d)));
  const totalPages = Math.max(1, Math.ceil(matching.length / pageSize));
  const pageUrl = (n: number) => {
    const next = new URL(url);
    next.searchParams.set('page', String(n));
    return next.toString();
  };
  const results = matching.slice((page - 1) * pageSize, page * pageSize).map((d) => {
    const route = routes.find((r) => r.type === d.type);
    return { ...d, url: route && d.uid ? route.path.replace(':uid', d.uid) : null };
  });
  return {
    status: 200,
    body: {
      page,
      results_per_page: pageSize,
      results_size: results.length,
      total_results_size: matching.length,
      total_pages: totalPages,
      next_page: page < totalPages ? pageUrl(page + 1) : null,
      prev_page: page > 1 ? pageUrl(page - 1) : null,
      results,
      version: 'standin',
      license: 'All Rights Reserved',
    },
  };
}
