// A table field as an accessible table: header cells are <th> with a scope (columns in the head, rows
// in the body), and the table scrolls sideways inside a focusable, labelled region on a 360 px phone
// instead of widening the page.
import type { RichText as RichTextValue, TableField, TableRow } from '#modules/content/render';
import { InlineText } from './RichText';

function CellContent({ content }: { content: RichTextValue }) {
  const paragraphs = content.filter((b): b is Extract<typeof b, { text: string }> => 'text' in b);
  return (
    <>
      {paragraphs.map((block, i) => (
        <p key={i} className={i > 0 ? 'mt-1' : undefined}>
          <InlineText text={block.text} spans={block.spans} />
        </p>
      ))}
    </>
  );
}

function Row({ row, inHead }: { row: TableRow; inHead: boolean }) {
  return (
    <tr className="border-b border-line last:border-b-0">
      {row.cells.map((cell, i) =>
        cell.type === 'header' || inHead ? (
          <th key={i} scope={inHead ? 'col' : 'row'} className="bg-canvas px-3 py-2 text-left align-top font-bold">
            <CellContent content={cell.content} />
          </th>
        ) : (
          <td key={i} className="px-3 py-2 align-top">
            <CellContent content={cell.content} />
          </td>
        ),
      )}
    </tr>
  );
}

export function ContentTable({ table, caption }: { table: TableField; caption?: string | null }) {
  const head = table.head?.rows ?? [];
  const body = table.body.rows;
  if (head.length + body.length === 0) return null;
  const label = caption?.trim() || '表';
  return (
    // A scrollable region must be reachable by keyboard to scroll it (axe: scrollable-region-focusable).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div role="region" aria-label={label} tabIndex={0} className="w-full overflow-x-auto rounded-lg border border-line">
      <table className="w-full min-w-max border-collapse text-sm">
        {caption?.trim() ? (
          <caption className="px-3 py-2 text-left text-xs text-muted">{caption.trim()}</caption>
        ) : null}
        {head.length ? (
          <thead className="border-b-2 border-line">
            {head.map((row, i) => (
              <Row key={i} row={row} inHead />
            ))}
          </thead>
        ) : null}
        <tbody>
          {body.map((row, i) => (
            <Row key={i} row={row} inHead={false} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
