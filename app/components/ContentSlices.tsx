// A page's slice zone (text, image, embed, table, button) after its body, on the content pages and
// /preview. Values are data: rich text through RichText, every URL through linkUrl/safeLinkUrl, and an
// embed is a plain link (no provider script). The field-kind renderer of issue 15 replaces this.
import { RichText } from '~/components/RichText';
import type { Slice } from '#modules/content';
import { linkUrl } from '#modules/content/rich-text';

/** A slice as the page shows it (until the field-kind renderer replaces this). */
function SliceView({ slice }: { slice: Slice }) {
  switch (slice.slice_type) {
    case 'text':
      return <RichText value={slice.primary.text} />;
    case 'image':
      return (
        <figure>
          <img
            src={slice.primary.image.url}
            alt={slice.primary.image.alt ?? ''}
            width={slice.primary.image.dimensions.width}
            height={slice.primary.image.dimensions.height}
            className="h-auto max-w-full"
          />
          {slice.primary.caption ? (
            <figcaption className="text-xs text-muted">{slice.primary.caption}</figcaption>
          ) : null}
        </figure>
      );
    case 'embed': {
      const href = linkUrl({ url: slice.primary.embed.embed_url });
      return href ? (
        <p>
          <a href={href} rel="noopener noreferrer" target="_blank" className="underline">
            埋め込み：{href}
          </a>
        </p>
      ) : null;
    }
    case 'table': {
      const head = slice.primary.table.head?.rows ?? [];
      return (
        <table className="w-full border-collapse text-sm">
          {slice.primary.caption ? <caption>{slice.primary.caption}</caption> : null}
          {head.length ? (
            <thead>
              {head.map((row, r) => (
                <tr key={r}>
                  {row.cells.map((cell, c) => (
                    <th key={c} scope="col" className="border border-line p-2 text-left">
                      <RichText value={cell.content} />
                    </th>
                  ))}
                </tr>
              ))}
            </thead>
          ) : null}
          <tbody>
            {slice.primary.table.body.rows.map((row, r) => (
              <tr key={r}>
                {row.cells.map((cell, c) => (
                  <td key={c} className="border border-line p-2">
                    <RichText value={cell.content} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      );
    }
    case 'button': {
      const href = linkUrl(slice.primary.link);
      return href ? (
        <p>
          <a href={href} className="inline-block rounded-full bg-primary-ink px-5 py-3 text-sm font-bold text-white">
            {slice.primary.label}
          </a>
        </p>
      ) : null;
    }
  }
}

export function ContentSlices({ slices }: { slices: Slice[] | undefined }) {
  return (
    <>
      {(slices ?? []).map((slice, index) => (
        <div key={index} className="mt-4">
          <SliceView slice={slice} />
        </div>
      ))}
    </>
  );
}
