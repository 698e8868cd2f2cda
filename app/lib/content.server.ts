// The pages' one way to content (docs/decisions/039): the source the settings chose (services.content),
// or the built-in store over the request's database when none was given (tests that build services by
// hand). The footer's 古物営業法 line is read through it too, kept for a few seconds per instance so
// every page does not ask again.
import type { ShopServices } from '#server/services';
import { createBuiltinSource, type ContentSource } from '#modules/content';

const fallbacks = new WeakMap<object, ContentSource>();

/** @example const page = await contentOf(services).getPage('terms') */
export function contentOf(services: Pick<ShopServices, 'db'> & { content?: ContentSource }): ContentSource {
  if (services.content) return services.content;
  let source = fallbacks.get(services.db);
  if (!source) {
    source = createBuiltinSource(services.db);
    fallbacks.set(services.db, source);
  }
  return source;
}

/** The uid of the page whose footer note every page shows (the 古物営業法 display). */
export const FOOTER_NOTE_PAGE = 'kobutsu';
const FOOTER_NOTE_TTL_MS = 30_000;
const footerNotes = new WeakMap<ContentSource, { at: number; note: Promise<string | null> }>();

/**
 * The 古物営業法 line for the footer (permit number and issuing 公安委員会), from the kobutsu page's
 * `footerNote`; null when the page has none. A failed read keeps the last answer.
 */
export function footerNoteOf(source: ContentSource, now = Date.now()): Promise<string | null> {
  const cached = footerNotes.get(source);
  if (cached && now - cached.at < FOOTER_NOTE_TTL_MS) return cached.note;
  const note = source
    .getPage(FOOTER_NOTE_PAGE, ['page'])
    .then((page) => page?.data.footerNote?.trim() || null)
    .catch(() => (cached ? cached.note : null));
  footerNotes.set(source, { at: now, note });
  return note;
}

/** Forgets the cached footer line (after an editor publishes the kobutsu page on this instance). */
export function forgetFooterNote(source: ContentSource): void {
  footerNotes.delete(source);
}
