// The pages' one way to content (docs/decisions/039): the source the settings chose (services.content),
// or the built-in store over the request's database when none was given (tests that build services by
// hand). The footer's 古物営業法 line is read through it too, kept for a few seconds per instance so
// every page does not ask again.
import type { ShopServices } from './services';
import { legalFactsOf } from './content';
import { data } from 'react-router';
import {
  createBuiltinSource,
  isContentError,
  kobutsuFooterNote,
  normaliseNoticeData,
  normalisePageData,
  type ContentDocument,
  type ContentSource,
  type NoticeData,
  type PageData,
} from '#modules/content';

const fallbacks = new WeakMap<object, ContentSource>();
const served = new WeakMap<ContentSource, ContentSource>();

/**
 * A page that cannot be read because the content source has never answered (Prismic down at a cold
 * start with no saved copy) is a 503 with Retry-After, never a 404 that search engines would believe.
 */
function unavailable(error: unknown): never {
  if (isContentError(error))
    throw data(
      { message: 'ただいまページを表示できません。しばらくしてから開き直してください。' },
      { status: 503, headers: { 'Retry-After': '30', 'Cache-Control': 'no-store' } },
    );
  throw error;
}

/** Any source's document data in the safe shapes the pages render (decision 042), whatever was stored. */
export function safeDocument<D extends ContentDocument>(document: D | null): D | null {
  if (!document) return null;
  if (document.type === 'notice') return { ...document, data: normaliseNoticeData(document.data) };
  if (document.type === 'page' || document.type === 'special')
    return { ...document, data: normalisePageData(document.data) };
  return document;
}

function answeringUnavailable(source: ContentSource): ContentSource {
  return {
    kind: source.kind,
    getPage: (uid, types) =>
      source
        .getPage(uid, types)
        .then((page) => safeDocument<ContentDocument<PageData>>(page))
        .catch(unavailable),
    getNotice: (uid) =>
      source
        .getNotice(uid)
        .then((notice) => safeDocument<ContentDocument<NoticeData>>(notice))
        .catch(unavailable),
    getPreview: (preview) => source.getPreview(preview).then(safeDocument).catch(unavailable),
    listPages: () => source.listPages(),
    listBanners: (now) => source.listBanners(now),
    listNotices: (now) =>
      source.listNotices(now).then((notices) => notices.map((n) => ({ ...n, data: normaliseNoticeData(n.data) }))),
    health: () => source.health(),
  };
}

/** @example const page = await contentOf(services).getPage('terms') */
export function contentOf(services: Pick<ShopServices, 'db'> & { content?: ContentSource }): ContentSource {
  let source = services.content ?? fallbacks.get(services.db);
  if (!source) {
    source = createBuiltinSource(services.db);
    fallbacks.set(services.db, source);
  }
  let wrapped = served.get(source);
  if (!wrapped) {
    wrapped = answeringUnavailable(source);
    served.set(source, wrapped);
  }
  return wrapped;
}

/** The uid of the page whose footer note every page shows (the 古物営業法 display). */
export const FOOTER_NOTE_PAGE = 'kobutsu';
/** How long an instance keeps the footer line: an editor's change shows within it, and pages do not ask each time. */
export const FOOTER_NOTE_TTL_MS = 5_000;
const footerNotes = new WeakMap<ContentSource, { at: number; note: Promise<string | null> }>();

/**
 * The 古物営業法 line for the footer (permit number and issuing 公安委員会): the kobutsu page's
 * `footerNote`, else `fallback` (the line the settings' permit facts make, kobutsuFooterNote), so the
 * line never leaves the site when an editor unpublishes or renames the page, clears the field, or a
 * Prismic repository has no footer_note. Kept `ttlMs` per instance; a failed read keeps the last answer.
 * @example await footerNoteOf(source, kobutsuFooterNote(legalFactsOf(config)), { ttlMs: 5_000 })
 */
export async function footerNoteOf(
  source: ContentSource,
  fallback: string,
  options: { ttlMs: number; now?: number },
): Promise<string> {
  const now = options.now ?? Date.now();
  const cached = footerNotes.get(source);
  if (cached && now - cached.at < options.ttlMs) return (await cached.note) ?? fallback;
  const note = source
    .getPage(FOOTER_NOTE_PAGE, ['page'])
    .then((page) => page?.data.footerNote?.trim() || null)
    .catch(() => (cached ? cached.note : null));
  footerNotes.set(source, { at: now, note });
  return (await note) ?? fallback;
}

/** The footer's 古物営業法 line for this shop's pages (the root loader's footerNote). */
export function footerLineOf(
  services: Pick<ShopServices, 'db' | 'config'> & { content?: ContentSource },
): Promise<string> {
  return footerNoteOf(contentOf(services), kobutsuFooterNote(legalFactsOf(services.config)), {
    ttlMs: FOOTER_NOTE_TTL_MS,
  });
}
