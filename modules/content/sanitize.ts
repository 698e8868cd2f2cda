// The one sanitiser for content (issue 15, field kinds): editor HTML (TipTap's getHTML) and pasted HTML
// become structured rich text, and any source's document data (the built-in store or Prismic) is parsed
// into the safe shapes the pages render. Two layers for HTML: sanitize-html keeps an allow-list of
// tags, attributes and URL schemes (and drops script, style, svg and the like with their content), then
// htmlparser2 reads what is left into Prismic blocks. The result is data, never HTML: every URL passes
// safeLinkUrl (or the embed allow-list) and app/components/content renders it element by element.
import sanitizeHtml from 'sanitize-html';
import { ElementType, parseDocument } from 'htmlparser2';
import { z } from 'zod';
import {
  hasRichTextToShow,
  linkUrl,
  safeLinkUrl,
  type RichText,
  type RichTextBlock,
  type RichTextSpan,
} from './rich-text';
import type { EmbedField, ImageField, LinkField, Slice, TableField, TableRow } from './fields';
import type { NoticeData, PageData } from './source';
import { parseEmbed } from './embeds';
import { markedSegments, NO_MARKS, safeImageUrl, type Marks } from './render';

/** Longer input is cut here before parsing: an editor page is far smaller, and the parser stays bounded. */
export const MAX_HTML_LENGTH = 200_000;
/** At most this many blocks in one rich text; the rest is dropped. */
export const MAX_BLOCKS = 2_000;
/** At most this many characters in one block's text. */
export const MAX_BLOCK_TEXT = 20_000;
/** Images larger than this on either side are not sane (the resizer writes far smaller ones). */
export const MAX_IMAGE_SIDE = 10_000;
const MAX_SLICES = 200;
const MAX_TABLE_ROWS = 200;
const MAX_TABLE_CELLS = 20;

type TextBlockType = Extract<RichTextBlock, { text: string }>['type'];
type TextBlock = Extract<RichTextBlock, { text: string }>;
type ImageBlock = Extract<RichTextBlock, { type: 'image' }>;

// ---------------------------------------------------------------------------------------------------
// Spans: one canonical form shared by the parser, the HTML writer and the renderer.

/** Spans for characters with marks: one span per maximal run of each mark, sorted by start. */
function spansFromMarks(marks: readonly Marks[]): RichTextSpan[] {
  const spans: RichTextSpan[] = [];
  const open: { strong: number | null; em: number | null; link: { start: number; url: string } | null } = {
    strong: null,
    em: null,
    link: null,
  };
  const close = (at: number, which: 'strong' | 'em' | 'link') => {
    if (which === 'link') {
      if (open.link) spans.push({ start: open.link.start, end: at, type: 'hyperlink', data: { url: open.link.url } });
      open.link = null;
    } else {
      if (open[which] !== null) spans.push({ start: open[which], end: at, type: which });
      open[which] = null;
    }
  };
  for (let i = 0; i <= marks.length; i++) {
    const m = marks[i] ?? NO_MARKS;
    if (!m.strong) close(i, 'strong');
    else if (open.strong === null) open.strong = i;
    if (!m.em) close(i, 'em');
    else if (open.em === null) open.em = i;
    if (open.link && open.link.url !== m.link) close(i, 'link');
    if (m.link && !open.link) open.link = { start: i, url: m.link };
  }
  const order = { strong: 0, em: 1, hyperlink: 2, label: 3 } as const;
  return spans.sort((a, b) => a.start - b.start || order[a.type] - order[b.type]);
}

/**
 * The canonical form of a text block's spans: bold, italic and links as maximal runs with safe URLs.
 * @example canonicalSpans('ab', [{ start: 0, end: 1, type: 'strong' }, { start: 1, end: 2, type: 'strong' }]) // [{ start: 0, end: 2, type: 'strong' }]
 */
export function canonicalSpans(text: string, spans: readonly RichTextSpan[]): RichTextSpan[] {
  // Code units, not code points: span offsets count UTF-16 units as in Prismic.
  const perUnit: Marks[] = [];
  let unit = 0;
  for (const segment of markedSegments(text, spans)) {
    for (let i = 0; i < segment.text.length; i++) perUnit[unit++] = segment.marks;
  }
  return spansFromMarks(perUnit);
}

// ---------------------------------------------------------------------------------------------------
// HTML → rich text

const HEADINGS: Record<string, TextBlockType> = { h1: 'heading1', h2: 'heading2', h3: 'heading3', h4: 'heading4' };

/** Elements dropped with everything inside them (sanitize-html's nonTextTags). */
const DROPPED_WITH_CONTENT = [
  'script',
  'style',
  'svg',
  'math',
  'iframe',
  'object',
  'embed',
  'applet',
  'frame',
  'frameset',
  'noscript',
  'noembed',
  'noframes',
  'template',
  'textarea',
  'select',
  'option',
  'title',
  'xmp',
  'plaintext',
  'head',
];

const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'h1',
    'h2',
    'h3',
    'h4',
    'strong',
    'b',
    'em',
    'i',
    'a',
    'ul',
    'ol',
    'li',
    'pre',
    'code',
    'br',
    'img',
  ],
  allowedAttributes: { a: ['href'], img: ['src', 'alt', 'width', 'height'] },
  allowedSchemes: ['https', 'http'],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  allowedStyles: {},
  allowedClasses: {},
  disallowedTagsMode: 'discard',
  nonTextTags: DROPPED_WITH_CONTENT,
  enforceHtmlBoundary: false,
  parser: { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
};

type ParsedDocument = ReturnType<typeof parseDocument>;
type ParsedNode = ParsedDocument['children'][number];

interface Char {
  c: string;
  marks: Marks;
  /** A <br>: a line break that whitespace collapsing keeps. */
  hard?: boolean;
}

interface Context {
  marks: Marks;
  /** The block type that loose text inside the current element starts. */
  blockType: TextBlockType;
  /** Inside a list item: paragraphs there become line breaks, not blocks. */
  inListItem: boolean;
  /** The list type nested <li> take. */
  listType: 'list-item' | 'o-list-item';
}

const SOFT_SPACE = /[ \t\n\r\f]/;
// Controls other than tab and newline never belong in content (NUL confuses parsers and databases).
const CONTROLS = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g;

function boundedInt(value: string | undefined): number | null {
  if (value === undefined || !/^\s*\d{1,6}\s*$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 && n <= MAX_IMAGE_SIDE ? n : null;
}

/** Alternative text: whitespace collapsed, bounded; null when the attribute is absent. */
function cleanAlt(alt: unknown): string | null {
  if (typeof alt !== 'string') return null;
  return alt
    .replace(CONTROLS, '')
    .replace(/[ \t\n\r\f]+/g, ' ')
    .trim()
    .slice(0, 500);
}

class RichTextBuilder {
  readonly blocks: RichTextBlock[] = [];
  private current: { type: TextBlockType; chars: Char[] } | null = null;

  get full() {
    return this.blocks.length >= MAX_BLOCKS;
  }

  start(type: TextBlockType) {
    this.flush();
    this.current = { type, chars: [] };
  }

  private ensure(type: TextBlockType) {
    if (!this.current) this.current = { type, chars: [] };
    return this.current;
  }

  text(text: string, ctx: Context) {
    const block = this.ensure(ctx.blockType);
    if (block.chars.length + text.length > MAX_BLOCK_TEXT) text = text.slice(0, MAX_BLOCK_TEXT - block.chars.length);
    for (const c of text.replace(CONTROLS, '')) {
      // Code units: a surrogate pair stays two units, as span offsets count them.
      for (let i = 0; i < c.length; i++) block.chars.push({ c: c[i]!, marks: ctx.marks });
    }
  }

  lineBreak(ctx: Context) {
    this.ensure(ctx.blockType).chars.push({ c: '\n', marks: ctx.marks, hard: true });
  }

  /** A paragraph inside a list item: a line break between it and what came before. */
  softParagraph(ctx: Context) {
    if (this.current && this.current.chars.length > 0) this.lineBreak(ctx);
  }

  image(block: ImageBlock) {
    this.flush();
    if (!this.full) this.blocks.push(block);
  }

  flush() {
    const block = this.current;
    this.current = null;
    if (!block || this.full) return;
    const chars = block.type === 'preformatted' ? normalisePre(block.chars) : collapseWhitespace(block.chars);
    const text = chars.map((ch) => ch.c).join('');
    if (text.trim() === '') return;
    const spans = block.type === 'preformatted' ? [] : spansFromMarks(chars.map((ch) => ch.marks));
    this.blocks.push({ type: block.type, text, spans });
  }
}

/** HTML's whitespace rules: runs become one space, none around line breaks or at the ends. */
function collapseWhitespace(chars: Char[]): Char[] {
  const out: Char[] = [];
  for (const ch of chars) {
    if (ch.hard) {
      while (out.at(-1)?.c === ' ') out.pop();
      out.push(ch);
    } else if (SOFT_SPACE.test(ch.c)) {
      const last = out.at(-1);
      if (last && last.c !== ' ' && last.c !== '\n') out.push({ c: ' ', marks: ch.marks });
    } else out.push(ch);
  }
  while (out.length && (out.at(-1)!.c === ' ' || out.at(-1)!.c === '\n')) out.pop();
  while (out.length && out[0]!.c === '\n') out.shift();
  return out;
}

/** Preformatted text keeps its spaces; line ends become \n and blank lines at the ends go. */
function normalisePre(chars: Char[]): Char[] {
  const out = chars
    .filter((ch, i) => !(ch.c === '\r' && chars[i + 1]?.c === '\n'))
    .map((ch) => ({
      c: ch.c === '\r' || ch.c === '\f' ? '\n' : ch.c,
      marks: NO_MARKS,
    }));
  while (out.length && /\s/.test(out.at(-1)!.c)) out.pop();
  while (out.length && out[0]!.c === '\n') out.shift();
  return out;
}

function walk(nodes: readonly ParsedNode[], ctx: Context, out: RichTextBuilder) {
  for (const node of nodes) {
    if (out.full) return;
    if (node.type === ElementType.Text) {
      out.text(node.data, ctx);
      continue;
    }
    // Comments, directives and CDATA carry nothing; script and style were removed by sanitize-html.
    if (node.type !== ElementType.Tag) continue;
    const name = node.name;
    if (name === 'p' || HEADINGS[name]) {
      if (ctx.inListItem) {
        out.softParagraph(ctx);
        walk(node.children, ctx, out);
      } else {
        const type = HEADINGS[name] ?? 'paragraph';
        out.start(type);
        walk(node.children, { ...ctx, blockType: type }, out);
        out.flush();
      }
    } else if (name === 'pre') {
      out.start('preformatted');
      walk(node.children, { ...ctx, blockType: 'preformatted', inListItem: false }, out);
      out.flush();
    } else if (name === 'ul' || name === 'ol') {
      out.flush();
      const listType = name === 'ul' ? 'list-item' : 'o-list-item';
      walk(node.children, { ...ctx, listType, blockType: listType, inListItem: false }, out);
      out.flush();
    } else if (name === 'li') {
      // Nested lists are flattened: each <li> is one block, its own list's kind.
      out.start(ctx.listType);
      walk(node.children, { ...ctx, blockType: ctx.listType, inListItem: true }, out);
      out.flush();
    } else if (name === 'strong' || name === 'b') {
      walk(node.children, { ...ctx, marks: { ...ctx.marks, strong: true } }, out);
    } else if (name === 'em' || name === 'i') {
      walk(node.children, { ...ctx, marks: { ...ctx.marks, em: true } }, out);
    } else if (name === 'a') {
      const href = node.attribs.href === undefined ? null : safeLinkUrl(node.attribs.href);
      walk(node.children, href ? { ...ctx, marks: { ...ctx.marks, link: href } } : ctx, out);
    } else if (name === 'br') {
      if (ctx.blockType !== 'preformatted') out.lineBreak(ctx);
      else out.text('\n', ctx);
    } else if (name === 'img') {
      const url = safeImageUrl(node.attribs.src);
      const width = boundedInt(node.attribs.width);
      const height = boundedInt(node.attribs.height);
      if (url && width && height)
        out.image({ type: 'image', url, alt: cleanAlt(node.attribs.alt), dimensions: { width, height } });
    } else {
      walk(node.children, ctx, out); // code, and anything else: its text only
    }
  }
}

/**
 * Reads editor or pasted HTML into rich text, keeping only what the allow-list permits: paragraphs,
 * headings (h1–h4), bold, italic, links to http(s) or site paths, lists (nested ones flattened),
 * preformatted text, line breaks, and images with a site path or https source and their width and
 * height. Everything else is dropped; script, style, svg, iframe and object with their content.
 * @example htmlToRichText('<p>詳しくは<a href="/guide">ガイド</a></p><script>x</script>') // [{ type: 'paragraph', text: '詳しくはガイド', spans: [{ start: 4, end: 7, type: 'hyperlink', data: { url: '/guide' } }] }]
 */
export function htmlToRichText(html: string): RichText {
  if (typeof html !== 'string' || html === '') return [];
  const clean = sanitizeHtml(html.slice(0, MAX_HTML_LENGTH), SANITIZE_OPTIONS);
  const doc = parseDocument(clean, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  const out = new RichTextBuilder();
  walk(doc.children, { marks: NO_MARKS, blockType: 'paragraph', inListItem: false, listType: 'list-item' }, out);
  out.flush();
  return out.blocks;
}

// ---------------------------------------------------------------------------------------------------
// Rich text → HTML (for loading stored rich text into the editor)

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Escapes text and attribute values alike. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

function inlineHtml(block: TextBlock): string {
  return markedSegments(block.text, block.spans)
    .map(({ text, marks }) => {
      let html = escapeHtml(text).replace(/\n/g, '<br>');
      if (marks.em) html = `<em>${html}</em>`;
      if (marks.strong) html = `<strong>${html}</strong>`;
      if (marks.link) html = `<a href="${escapeHtml(marks.link)}">${html}</a>`;
      return html;
    })
    .join('');
}

const BLOCK_TAGS: Partial<Record<TextBlockType, string>> = {
  heading1: 'h1',
  heading2: 'h2',
  heading3: 'h3',
  heading4: 'h4',
  paragraph: 'p',
};

/**
 * Writes rich text as the HTML the editor loads, every text and attribute escaped; htmlToRichText
 * reads it back to the same value. Embeds and labels have no HTML form here and are left out.
 * @example richTextToHtml([{ type: 'paragraph', text: 'a<b', spans: [] }]) // '<p>a&lt;b</p>'
 */
export function richTextToHtml(value: RichText): string {
  let html = '';
  let openList: 'ul' | 'ol' | null = null;
  for (const block of value) {
    const list = block.type === 'list-item' ? 'ul' : block.type === 'o-list-item' ? 'ol' : null;
    if (openList && openList !== list) html += `</${openList}>`;
    if (list && openList !== list) html += `<${list}>`;
    openList = list;
    if (block.type === 'image') {
      const url = safeImageUrl(block.url);
      if (!url) continue;
      const alt = block.alt === null ? '' : ` alt="${escapeHtml(block.alt)}"`;
      html += `<img src="${escapeHtml(url)}"${alt} width="${Math.trunc(block.dimensions.width)}" height="${Math.trunc(block.dimensions.height)}">`;
    } else if (block.type === 'embed') {
      continue;
    } else if (block.type === 'preformatted') {
      html += `<pre><code>${escapeHtml(block.text)}</code></pre>`;
    } else if (list) {
      html += `<li><p>${inlineHtml(block)}</p></li>`;
    } else {
      const tag = BLOCK_TAGS[block.type] ?? 'p';
      html += `<${tag}>${inlineHtml(block)}</${tag}>`;
    }
  }
  if (openList) html += `</${openList}>`;
  return html;
}

// ---------------------------------------------------------------------------------------------------
// Document data from any source → the safe shapes

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
