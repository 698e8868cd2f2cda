// Renders structured rich text as React elements: no HTML string ever reaches the page. Text is
// React's escaped text; links pass linkUrl (site paths and http(s) only); images and embeds go
// through ContentImage and the click-to-load Embed.
import { Fragment, type ReactNode } from 'react';
import {
  markedSegments,
  type RichText as RichTextValue,
  type RichTextBlock,
  type RichTextSpan,
} from '#modules/content/render';
import { ContentImage } from './ContentImage';
import { ContentLink, SafeAnchor } from './ContentLink';
import { Embed } from './Embed';

/** Line breaks inside a block (the editor's <br>, Prismic's soft breaks) as <br>. */
function withBreaks(text: string): ReactNode {
  if (!text.includes('\n')) return text;
  return text.split('\n').map((line, i) => (
    <Fragment key={i}>
      {i > 0 ? <br /> : null}
      {line}
    </Fragment>
  ));
}

/**
 * A block's text with its bold, italic and links. Overlapping bold and italic both apply; labels
 * render as plain text (no class names from content reach the page).
 */
export function InlineText({ text, spans }: { text: string; spans: RichTextSpan[] }) {
  return (
    <>
      {markedSegments(text, spans).map(({ text: part, marks }, i) => {
        let node: ReactNode = withBreaks(part);
        if (marks.em) node = <em>{node}</em>;
        if (marks.strong) node = <strong>{node}</strong>;
        if (marks.link)
          node = (
            <SafeAnchor href={marks.link} className="text-primary-ink underline">
              {node}
            </SafeAnchor>
          );
        return <Fragment key={i}>{node}</Fragment>;
      })}
    </>
  );
}

function Block({ block }: { block: RichTextBlock }) {
  switch (block.type) {
    case 'heading1':
    case 'heading2':
      // The page title is the only h1: content headings start at h2.
      return (
        <h2 className="mt-6 border-l-4 border-primary pl-2 text-base font-black">
          <InlineText text={block.text} spans={block.spans} />
        </h2>
      );
    case 'heading3':
    case 'heading4':
      return (
        <h3 className="mt-4 font-bold">
          <InlineText text={block.text} spans={block.spans} />
        </h3>
      );
    case 'preformatted':
      return <pre className="overflow-x-auto rounded-lg bg-canvas p-3 text-sm">{block.text}</pre>;
    case 'list-item':
    case 'o-list-item':
      return (
        <li>
          <InlineText text={block.text} spans={block.spans} />
        </li>
      );
    case 'image': {
      const image = <ContentImage image={block} />;
      return block.linkTo ? (
        <ContentLink link={block.linkTo} className="block">
          {image}
        </ContentLink>
      ) : (
        image
      );
    }
    case 'embed':
      return <Embed embed={block.oembed} />;
    case 'paragraph':
      return (
        <p className="leading-relaxed">
          <InlineText text={block.text} spans={block.spans} />
        </p>
      );
    default:
      return null; // a block type this renderer does not know shows nothing
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
