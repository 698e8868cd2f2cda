// A small markup operators type (mails): one block per line, `- ` list items, `1. ` numbered items,
// `## ` headings, **bold** and [text](url) links, turned into the structured rich text the pages render.
// Nothing here becomes HTML; a link must pass savableLinkUrl (a site path or https) or the whole text is refused.
import { savableLinkUrl, type RichText, type RichTextBlock, type RichTextSpan } from './rich-text';

type BlockType = Extract<RichTextBlock, { text: string }>['type'];

const INLINE = /\*\*(.+?)\*\*|\[([^\]\n]+)\]\(([^)\s]+)\)/g;

function inline(line: string): { text: string; spans: RichTextSpan[] } | { error: string } {
  let text = '';
  const spans: RichTextSpan[] = [];
  let last = 0;
  for (const match of line.matchAll(INLINE)) {
    text += line.slice(last, match.index);
    last = match.index + match[0].length;
    const start = text.length;
    if (match[1] !== undefined) {
      text += match[1];
      spans.push({ start, end: text.length, type: 'strong' });
    } else {
      const url = savableLinkUrl(match[3]!);
      if (!url)
        return {
          error: `リンク先「${match[3]}」は使えません。https:// で始まるURLか、サイト内のパス（/…）にしてください。`,
        };
      text += match[2];
      spans.push({ start, end: text.length, type: 'hyperlink', data: { url } });
    }
  }
  return { text: text + line.slice(last), spans };
}

/**
 * Reads the markup into rich text, or the Japanese reason it cannot be used.
 * @example richTextFromMarkup('**当選**おめでとう\n- [詳細](/news)') // { ok: true, value: [paragraph with strong, list-item with link] }
 */
export function richTextFromMarkup(markup: string): { ok: true; value: RichText } | { ok: false; message: string } {
  const value: RichText = [];
  for (const raw of markup.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') continue;
    let type: BlockType = 'paragraph';
    let rest = line;
    const prefixed = /^(- |・|\d+\. |## )(.*)$/.exec(line);
    if (prefixed) {
      const mark = prefixed[1]!;
      type = mark === '## ' ? 'heading2' : mark === '- ' || mark === '・' ? 'list-item' : 'o-list-item';
      rest = prefixed[2]!.trim();
    }
    const read = inline(rest);
    if ('error' in read) return { ok: false, message: read.error };
    if (read.text.trim() !== '') value.push({ type, text: read.text, spans: read.spans });
  }
  return { ok: true, value };
}
