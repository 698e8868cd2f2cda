// The one sanitiser for content (issue 15, field kinds): editor HTML (TipTap's getHTML) and pasted HTML
// become structured rich text, and any source's document data (the built-in store or Prismic) is parsed
// into the safe shapes the pages render. Two layers for HTML: sanitize-html keeps an allow-list of
// tags, attributes and URL schemes (and drops script, style, svg and the like with their content), then
// htmlparser2 reads what is left into Prismic blocks. The result is data, never HTML: every URL passes
// safeLinkUrl (or the embed allow-list) and app/components/content renders it element by element.
// Here: HTML → rich text; rich text → HTML: rich-text-html.ts; document data → safe shapes: normalise.ts.
import sanitizeHtml from 'sanitize-html';
import { ElementType, parseDocument } from 'htmlparser2';
import { safeLinkUrl, type RichText, type RichTextBlock, type RichTextSpan } from './rich-text';
import { markedSegments, NO_MARKS, safeImageUrl, type Marks } from './render';

/** Longer input is cut here before parsing: an editor page is far smaller, and the parser stays bounded. */
export const MAX_HTML_LENGTH = 200_000;
/** At most this many blocks in one rich text; the rest is dropped. */
export const MAX_BLOCKS = 2_000;
/** At most this many characters in one block's text. */
export const MAX_BLOCK_TEXT = 20_000;
/** Images larger than this on either side are not sane (the resizer writes far smaller ones). */
export const MAX_IMAGE_SIDE = 10_000;
export const MAX_SLICES = 200;
export const MAX_TABLE_ROWS = 200;
export const MAX_TABLE_CELLS = 20;

export type TextBlockType = Extract<RichTextBlock, { text: string }>['type'];
export type TextBlock = Extract<RichTextBlock, { text: string }>;
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
export const CONTROLS = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g;

function boundedInt(value: string | undefined): number | null {
  if (value === undefined || !/^\s*\d{1,6}\s*$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 && n <= MAX_IMAGE_SIDE ? n : null;
}

/** Alternative text: whitespace collapsed, bounded; null when the attribute is absent. */
export function cleanAlt(alt: unknown): string | null {
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
