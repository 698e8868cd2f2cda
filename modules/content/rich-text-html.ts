// Rich text → HTML, for loading stored rich text into the editor (the reverse of sanitize.ts's htmlToRichText).
import type { RichText } from './rich-text';
import { markedSegments, safeImageUrl } from './render';
import type { TextBlock, TextBlockType } from './sanitize';

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
