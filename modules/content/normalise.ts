// Document data from any source (the built-in store or Prismic) → the safe shapes the pages render:
// links through safeLinkUrl, images, embeds on the allow-list, rich text, tables and slices, bounded.
import { z } from 'zod';
import { hasRichTextToShow, linkUrl, type RichText, type RichTextBlock, type RichTextSpan } from './rich-text';
import type { EmbedField, ImageField, LinkField, Slice, TableField, TableRow } from './fields';
import type { NoticeData, PageData } from './source';
import { parseEmbed } from './embeds';
import { safeImageUrl } from './render';
import {
  CONTROLS,
  MAX_BLOCKS,
  MAX_BLOCK_TEXT,
  MAX_IMAGE_SIDE,
  MAX_SLICES,
  MAX_TABLE_CELLS,
  MAX_TABLE_ROWS,
  canonicalSpans,
  cleanAlt,
  type TextBlockType,
} from './sanitize';

const bounded = (max: number) =>
  z
    .string()
    .transform((s) => s.replace(CONTROLS, '').slice(0, max))
    .catch('');
const optionalBounded = (max: number) =>
  z
    .string()
    .transform((s) => s.replace(CONTROLS, '').trim().slice(0, max) || undefined)
    .optional()
    .catch(undefined);

const TEXT_BLOCK_TYPES = [
  'heading1',
  'heading2',
  'heading3',
  'heading4',
  'heading5',
  'heading6',
  'paragraph',
  'preformatted',
  'list-item',
  'o-list-item',
] as const;

const spanSchema = z.object({
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  type: z.string(),
  data: z.unknown().optional(),
});

/** Any link value (a Prismic link field or the built-in store's `{ url }`) as a safe link field. */
export function normaliseLink(value: unknown): LinkField {
  const url = linkUrl(readLink(value));
  return url ? { link_type: 'Web', url } : { link_type: 'Any' };
}

function readLink(value: unknown): LinkField | { url: string } | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const str = (key: string) => (typeof v[key] === 'string' ? (v[key] as string) : undefined);
  switch (v.link_type) {
    case 'Web':
    case 'Media':
      return { link_type: v.link_type, url: str('url') ?? '' };
    case 'Document':
      return {
        link_type: 'Document',
        id: str('id') ?? '',
        uid: str('uid'),
        type: str('type') ?? '',
        url: str('url') ?? null,
        isBroken: v.isBroken === true,
      };
    case undefined:
      return str('url') !== undefined ? { url: str('url')! } : null;
    default:
      return null;
  }
}

function normaliseSpans(text: string, raw: unknown): RichTextSpan[] {
  if (!Array.isArray(raw)) return [];
  const spans: RichTextSpan[] = [];
  const labels: RichTextSpan[] = [];
  for (const item of raw.slice(0, 1_000)) {
    const parsed = spanSchema.safeParse(item);
    if (!parsed.success) continue;
    const { start, end, type, data } = parsed.data;
    if (start >= end || end > text.length) continue;
    if (type === 'strong' || type === 'em') spans.push({ start, end, type });
    else if (type === 'hyperlink') {
      const url = linkUrl(readLink(data));
      if (url) spans.push({ start, end, type, data: { url } });
    } else if (type === 'label') {
      const label = (data as { label?: unknown } | undefined)?.label;
      if (typeof label === 'string') labels.push({ start, end, type, data: { label: label.slice(0, 100) } });
    }
  }
  return [...canonicalSpans(text, spans), ...labels].sort((a, b) => a.start - b.start);
}

/** An image field from any source, or null when its URL or size is not safe. */
export function normaliseImage(value: unknown): ImageField | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as { url?: unknown; alt?: unknown; dimensions?: { width?: unknown; height?: unknown } };
  const url = safeImageUrl(typeof v.url === 'string' ? v.url : null);
  const width = v.dimensions?.width;
  const height = v.dimensions?.height;
  const sane = (n: unknown): n is number =>
    typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_IMAGE_SIDE;
  if (!url || !sane(width) || !sane(height)) return null;
  return { url, alt: cleanAlt(v.alt), dimensions: { width, height } };
}

/** An embed field reduced to an allowed provider's page URL; the provider's html and thumbnail go. */
export function normaliseEmbed(value: unknown): EmbedField | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const embed = parseEmbed(typeof v.embed_url === 'string' ? v.embed_url : null);
  if (!embed) return null;
  const title = typeof v.title === 'string' ? cleanAlt(v.title)!.slice(0, 200) || null : null;
  return {
    embed_url: embed.pageUrl,
    type: embed.provider === 'youtube' ? 'video' : 'rich',
    provider_name: embed.provider === 'youtube' ? 'YouTube' : 'X',
    title,
  };
}

function normaliseBlock(value: unknown, textOnly: boolean): RichTextBlock | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (typeof v.type !== 'string') return null;
  if ((TEXT_BLOCK_TYPES as readonly string[]).includes(v.type)) {
    if (typeof v.text !== 'string') return null;
    const text = v.text.replace(CONTROLS, '').slice(0, MAX_BLOCK_TEXT);
    // Prismic's h5/h6 have no place on a page whose sections are h2/h3: they read as the smallest heading.
    let type = (v.type === 'heading5' || v.type === 'heading6' ? 'heading4' : v.type) as TextBlockType;
    if (textOnly) type = 'paragraph';
    return { type, text, spans: type === 'preformatted' ? [] : normaliseSpans(text, v.spans) };
  }
  if (textOnly) return null;
  if (v.type === 'image') {
    const image = normaliseImage(v);
    if (!image) return null;
    const link = v.linkTo === undefined ? null : normaliseLink(v.linkTo);
    return { type: 'image', ...image, ...(link && link.link_type === 'Web' ? { linkTo: link } : {}) };
  }
  if (v.type === 'embed') {
    const oembed = normaliseEmbed(v.oembed);
    return oembed ? { type: 'embed', oembed } : null;
  }
  return null;
}

/**
 * Rich text from any source in the safe shape: unknown block types dropped, spans checked against
 * the text, links resolved to safe URLs, images and embeds checked, sizes bounded.
 */
export function normaliseRichText(value: unknown, options: { textOnly?: boolean } = {}): RichText {
  if (!Array.isArray(value)) return [];
  const out: RichText = [];
  for (const item of value) {
    if (out.length >= MAX_BLOCKS) break;
    const block = normaliseBlock(item, options.textOnly ?? false);
    if (block) out.push(block);
  }
  return out;
}

function normaliseTableRows(value: unknown): TableRow[] {
  const rows = (value as { rows?: unknown } | null | undefined)?.rows;
  if (!Array.isArray(rows)) return [];
  return rows
    .slice(0, MAX_TABLE_ROWS)
    .map((row): TableRow => {
      const cells = (row as { cells?: unknown } | null)?.cells;
      return {
        cells: (Array.isArray(cells) ? cells : []).slice(0, MAX_TABLE_CELLS).map((cell) => {
          const c = (cell ?? {}) as { type?: unknown; content?: unknown };
          return {
            type: c.type === 'header' ? ('header' as const) : ('data' as const),
            // Cells hold short text: paragraphs with bold, italic and links only.
            content: normaliseRichText(c.content, { textOnly: true }).slice(0, 20),
          };
        }),
      };
    })
    .filter((row) => row.cells.length > 0);
}

/** A table field with its cells' content normalised; null when it has no rows. */
export function normaliseTable(value: unknown): TableField | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as { head?: unknown; body?: unknown };
  const head = normaliseTableRows(v.head);
  const body = normaliseTableRows(v.body);
  if (head.length + body.length === 0) return null;
  return { ...(head.length ? { head: { rows: head } } : {}), body: { rows: body } };
}

const caption = optionalBounded(500);

function normaliseSlice(value: unknown): Slice | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const primary = (v.primary && typeof v.primary === 'object' ? v.primary : {}) as Record<string, unknown>;
  const base = {
    ...(typeof v.id === 'string' ? { id: v.id.slice(0, 100) } : {}),
    items: [] as never[],
  };
  const cap = caption.parse(primary.caption) ?? null;
  switch (v.slice_type) {
    case 'text': {
      // A text slice of empty paragraphs or spaces (specification section 5: rich text counts only with
      // text) is dropped; one holding an image or embed from the editor's toolbar still shows it.
      const text = normaliseRichText(primary.text);
      return hasRichTextToShow(text) ? { ...base, slice_type: 'text', primary: { text } } : null;
    }
    case 'image': {
      const image = normaliseImage(primary.image);
      if (!image) return null;
      const link = primary.link === undefined ? undefined : normaliseLink(primary.link);
      return {
        ...base,
        slice_type: 'image',
        primary: { image, caption: cap, ...(link && link.link_type === 'Web' ? { link } : {}) },
      };
    }
    case 'embed': {
      const embed = normaliseEmbed(primary.embed);
      return embed ? { ...base, slice_type: 'embed', primary: { embed, caption: cap } } : null;
    }
    case 'table': {
      const table = normaliseTable(primary.table);
      return table ? { ...base, slice_type: 'table', primary: { table, caption: cap } } : null;
    }
    case 'button': {
      const label = optionalBounded(100).parse(primary.label);
      const link = normaliseLink(primary.link);
      return label && link.link_type === 'Web' ? { ...base, slice_type: 'button', primary: { label, link } } : null;
    }
    default:
      return null; // a slice type this shop does not know renders nothing, so it is not kept either
  }
}

/** A slice zone from any source: unknown slice types and slices without their required field dropped. */
export function normaliseSlices(value: unknown): Slice[] {
  if (!Array.isArray(value)) return [];
  const out: Slice[] = [];
  for (const item of value.slice(0, MAX_SLICES * 2)) {
    const slice = normaliseSlice(item);
    if (slice) out.push(slice);
    if (out.length >= MAX_SLICES) break;
  }
  return out;
}

/**
 * A page's or special page's data from any source (the built-in store or Prismic) in the safe shape the
 * pages render: strings bounded, rich text and slices normalised, the hero image a safe URL.
 * Pages call it on everything they render.
 * @example normalisePageData({ title: 'ガイド', body: [{ type: 'paragraph', text: 'x', spans: [] }] })
 */
export function normalisePageData(data: unknown): PageData {
  const v = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  const description = optionalBounded(500).parse(v.description);
  const heroImage =
    typeof v.heroImage === 'string'
      ? (safeImageUrl(v.heroImage) ?? undefined)
      : (normaliseImage(v.heroImage) ?? undefined);
  const slices = normaliseSlices(v.slices);
  const footerNote = optionalBounded(200).parse(v.footerNote);
  return {
    title: bounded(200).parse(v.title).trim(),
    ...(description ? { description } : {}),
    ...(heroImage ? { heroImage } : {}),
    body: normaliseRichText(v.body),
    ...(slices.length ? { slices } : {}),
    ...(footerNote ? { footerNote } : {}),
  };
}

const instant = z.iso.datetime({ offset: true }).nullable().optional().catch(undefined);

/** A notice's data from any source in the safe shape (title, body, window, importance). */
export function normaliseNoticeData(data: unknown): NoticeData {
  const v = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  const startsAt = instant.parse(v.startsAt);
  const endsAt = instant.parse(v.endsAt);
  return {
    title: bounded(200).parse(v.title).trim(),
    body: normaliseRichText(v.body),
    ...(startsAt !== undefined ? { startsAt } : {}),
    ...(endsAt !== undefined ? { endsAt } : {}),
    ...(v.important === true ? { important: true } : {}),
  };
}
