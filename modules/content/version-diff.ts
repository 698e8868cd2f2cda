// What changed between two versions of a document: each version as readable lines, and their line diff.
import { diffLines } from 'diff';
import type { Database } from '#db/client';
import type { RichText, RichTextBlock } from './rich-text';
import type { NoticeData, PageData } from './source';
import type { Slice } from './fields';
import { getVersion, type ContentVersion } from './versions';

function blockLine(block: RichTextBlock): string {
  switch (block.type) {
    case 'image':
      return `[画像] ${block.url}${block.alt ? `（${block.alt}）` : ''}`;
    case 'embed':
      return `[埋め込み] ${block.oembed.embed_url}`;
    default: {
      const prefix =
        {
          heading1: '# ',
          heading2: '## ',
          heading3: '### ',
          heading4: '#### ',
          'list-item': '・',
          'o-list-item': '1. ',
          preformatted: '    ',
          paragraph: '',
        }[block.type] ?? '';
      const links = block.spans
        .filter((s) => s.type === 'hyperlink')
        .map((s) => {
          const data = s.data as { url?: string };
          return ` [リンク: ${block.text.slice(s.start, s.end)} → ${data.url ?? ''}]`;
        })
        .join('');
      return `${prefix}${block.text}${links}`;
    }
  }
}

const richTextLines = (richText: RichText | undefined, indent = '') =>
  (richText ?? []).flatMap((block) =>
    blockLine(block)
      .split('\n')
      .map((line) => `${indent}${line}`),
  );

function sliceLines(slice: Slice, index: number): string[] {
  const head = `スライス${index + 1}`;
  switch (slice.slice_type) {
    case 'text':
      return [`${head}（文章）:`, ...richTextLines(slice.primary.text, '  ')];
    case 'image':
      return [
        `${head}（画像）: ${slice.primary.image.url}（${slice.primary.image.alt ?? ''}）${slice.primary.caption ? ` ${slice.primary.caption}` : ''}`,
      ];
    case 'embed':
      return [`${head}（埋め込み）: ${slice.primary.embed.embed_url}`];
    case 'button':
      return [
        `${head}（ボタン）: ${slice.primary.label} → ${'url' in slice.primary.link ? slice.primary.link.url : ''}`,
      ];
    case 'table': {
      const rows = [...(slice.primary.table.head?.rows ?? []), ...slice.primary.table.body.rows];
      return [
        `${head}（表${slice.primary.table.head?.rows.length ? '・見出し行あり' : ''}）:`,
        ...rows.map((row) => `  | ${row.cells.map((cell) => richTextLines(cell.content).join(' ')).join(' | ')} |`),
      ];
    }
  }
}

/** A version as readable lines (title, description, uid, tags, body, each slice): what the diff compares. */
export function versionText(version: Pick<ContentVersion, 'uid' | 'tags' | 'type' | 'data'>): string {
  const data = version.data as Partial<PageData & NoticeData>;
  const lines = [`タイトル: ${data.title ?? ''}`];
  if (data.description) lines.push(`説明: ${data.description}`);
  if (data.footerNote) lines.push(`フッターの表示: ${data.footerNote}`);
  lines.push(`URL: /${version.uid}`, `タグ: ${version.tags.join(', ')}`);
  if (data.heroImage)
    lines.push(`メイン画像: ${typeof data.heroImage === 'string' ? data.heroImage : data.heroImage.url}`);
  if (version.type === 'notice') {
    lines.push(
      `表示開始: ${data.startsAt ?? 'なし'}`,
      `表示終了: ${data.endsAt ?? 'なし'}`,
      `重要: ${data.important ? 'はい' : 'いいえ'}`,
    );
  }
  lines.push('本文:', ...richTextLines(data.body, '  '));
  (data.slices ?? []).forEach((slice, index) => lines.push(...sliceLines(slice, index)));
  return `${lines.join('\n')}\n`;
}

export interface DiffLine {
  kind: 'added' | 'removed' | 'same';
  text: string;
}

/** The line diff from version `a` to version `b` (jsdiff's diffLines over versionText). */
export function diffVersions(a: ContentVersion, b: ContentVersion): DiffLine[] {
  return diffLines(versionText(a), versionText(b)).flatMap((change) =>
    change.value
      .replace(/\n$/, '')
      .split('\n')
      .map((text) => ({ kind: change.added ? 'added' : change.removed ? 'removed' : 'same', text }) as DiffLine),
  );
}

/**
 * The diff between two saved versions of a document, or null when either is missing.
 * @example const lines = await versionDiff(db, id, 2, 5) // [{ kind: 'removed', text: 'タイトル: 旧' }, …]
 */
export async function versionDiff(db: Database, documentId: string, a: number, b: number): Promise<DiffLine[] | null> {
  const [from, to] = await Promise.all([getVersion(db, documentId, a), getVersion(db, documentId, b)]);
  return from && to ? diffVersions(from, to) : null;
}
