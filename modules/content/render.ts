// The browser-safe part of content rendering (package.json "imports": #modules/content/render): what
// app/components/content needs to draw rich text, images and embeds, without the sanitiser's HTML
// parser in the page's bundle. Types come along so components import from one place.
import { linkUrl, safeLinkUrl, type RichTextSpan } from './rich-text';

export * from './rich-text';
export * from './fields';
export type { PageData, NoticeData } from './source';
export * from './embeds';

/** The marks on one character: bold, italic and the link it sits in. */
export interface Marks {
  strong: boolean;
  em: boolean;
  link: string | null;
}
export const NO_MARKS: Marks = { strong: false, em: false, link: null };

/** A run of text with the same marks; the renderer and the HTML writer both walk these. */
export interface MarkedSegment {
  text: string;
  marks: Marks;
}

const sameMarks = (a: Marks, b: Marks) => a.strong === b.strong && a.em === b.em && a.link === b.link;

/**
 * Splits a block's text at every span edge into runs with their marks. Overlapping bold and italic
 * both apply; where links overlap, the one starting first wins. Links go through linkUrl here, so a
 * span holding an unsafe URL (or a broken document link) is plain text. Labels carry no mark.
 */
export function markedSegments(text: string, spans: readonly RichTextSpan[]): MarkedSegment[] {
  const valid = spans.filter(
    (s) =>
      Number.isInteger(s.start) && Number.isInteger(s.end) && s.start >= 0 && s.end <= text.length && s.start < s.end,
  );
  const links = valid
    .filter((s): s is Extract<RichTextSpan, { type: 'hyperlink' }> => s.type === 'hyperlink')
    .map((s) => ({ start: s.start, end: s.end, url: linkUrl(s.data) }))
    .filter((s): s is { start: number; end: number; url: string } => s.url !== null)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const edges = new Set<number>([0, text.length]);
  for (const s of valid) edges.add(s.start).add(s.end);
  const cuts = [...edges].sort((a, b) => a - b);
  const segments: MarkedSegment[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const from = cuts[i]!;
    const to = cuts[i + 1]!;
    const covers = (s: { start: number; end: number }) => s.start <= from && s.end >= to;
    const marks: Marks = {
      strong: valid.some((s) => s.type === 'strong' && covers(s)),
      em: valid.some((s) => s.type === 'em' && covers(s)),
      link: links.find(covers)?.url ?? null,
    };
    const last = segments.at(-1);
    if (last && sameMarks(last.marks, marks)) last.text += text.slice(from, to);
    else segments.push({ text: text.slice(from, to), marks });
  }
  return segments;
}

/** An image source a page may load: a site path or https (mixed content is refused). */
export function safeImageUrl(url: string | null | undefined): string | null {
  if (typeof url !== 'string' || url.length > 2_000) return null;
  const safe = safeLinkUrl(url);
  return safe && (safe.startsWith('/') || safe.startsWith('https://')) ? safe : null;
}
