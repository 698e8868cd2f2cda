// Renders structured rich text as React elements: no HTML string ever reaches the page.
import type { ReactNode } from 'react';
import {
  linkUrl,
  safeLinkUrl,
  type RichText as RichTextValue,
  type RichTextBlock,
  type RichTextSpan,
} from '#modules/content/rich-text';

function renderSpans(text: string, spans: RichTextSpan[]): ReactNode[] {
  if (spans.length === 0) return [text];
  const nodes: ReactNode[] = [];
  let cursor = 0;
  const sorted = [...spans]
    .filter((s) => s.start >= 0 && s.end <= text.length && s.start < s.end)
    .sort((a, b) => a.start - b.start);
  for (const [i, span] of sorted.entries()) {
    if (span.start < cursor) continue; // overlapping spans: keep the first
    if (span.start > cursor) nodes.push(text.slice(cursor, span.start));
    const inner = text.slice(span.start, span.end);
    if (span.type === 'strong') nodes.push(<strong key={i}>{inner}</strong>);
    else if (span.type === 'em') nodes.push(<em key={i}>{inner}</em>);
    else if (span.type === 'hyperlink') {
      const href = linkUrl(span.data);
      nodes.push(
        href ? (
          <a
            key={i}
            href={href}
            className="text-primary-ink underline"
            rel={href.startsWith('/') ? undefined : 'noopener noreferrer'}
          >
            {inner}
          </a>
        ) : (
          inner
        ),
      );
    } else nodes.push(inner); // a label: its text, with no class names from content
    cursor = span.end;
  }
  if (cursor < text.length) nodes.push(text.slice(cursor));
  return nodes;
}

function Block({ block }: { block: RichTextBlock }) {
  switch (block.type) {
    case 'heading1':
    case 'heading2':
      return (
        <h2 className="mt-6 border-l-4 border-primary pl-2 text-base font-black">
          {renderSpans(block.text, block.spans)}
        </h2>
      );
    case 'heading3':
    case 'heading4':
      return <h3 className="mt-4 font-bold">{renderSpans(block.text, block.spans)}</h3>;
    case 'preformatted':
      return <pre className="overflow-x-auto rounded-lg bg-canvas p-3 text-sm">{block.text}</pre>;
    case 'list-item':
    case 'o-list-item':
      return <li>{renderSpans(block.text, block.spans)}</li>;
    case 'image': {
      const src = safeLinkUrl(block.url);
      return src ? (
        <img
          src={src}
          alt={block.alt ?? ''}
          width={block.dimensions.width}
          height={block.dimensions.height}
          className="h-auto max-w-full rounded-lg"
          loading="lazy"
        />
      ) : null;
    }
    case 'embed':
      return null;
    default:
      return <p className="leading-relaxed">{renderSpans(block.text, block.spans)}</p>;
  }
}

type Group = { list: 'ul' | 'ol' | null; blocks: RichTextBlock[] };

/** Consecutive list items become one <ul> or <ol>, as in Prismic's own serialiser. */
export function groupListItems(value: RichTextValue): Group[] {
  const groups: Group[] = [];
  for (const block of value) {
    const list = block.type === 'list-item' ? 'ul' : block.type === 'o-list-item' ? 'ol' : null;
    const last = groups.at(-1);
    if (list && last?.list === list) last.blocks.push(block);
    else groups.push({ list, blocks: [block] });
  }
  return groups;
}

export function RichText({ value }: { value: RichTextValue }) {
  return (
    <div className="flex flex-col gap-2 text-[15px]">
      {groupListItems(value).map((group, index) => {
        if (group.list === 'ul')
          return (
            <ul key={index} className="ml-5 list-disc space-y-1">
              {group.blocks.map((b, i) => (
                <Block key={i} block={b} />
              ))}
            </ul>
          );
        if (group.list === 'ol')
          return (
            <ol key={index} className="ml-5 list-decimal space-y-1">
              {group.blocks.map((b, i) => (
                <Block key={i} block={b} />
              ))}
            </ol>
          );
        return <Block key={index} block={group.blocks[0]!} />;
      })}
    </div>
  );
}
