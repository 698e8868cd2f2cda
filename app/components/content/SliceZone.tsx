// A slice zone: each slice_type maps to its component; a slice this shop does not know renders nothing.
import { SLICE_TYPES, type Slice, type SliceZone as SliceZoneValue } from '#modules/content/render';
import { ContentImage } from './ContentImage';
import { ContentButton, ContentLink } from './ContentLink';
import { ContentTable } from './ContentTable';
import { Embed } from './Embed';
import { RichText } from './RichText';

function Caption({ text }: { text?: string | null }) {
  return text?.trim() ? <figcaption className="mt-1 text-xs text-muted">{text.trim()}</figcaption> : null;
}

export function SliceView({ slice }: { slice: Slice }) {
  switch (slice.slice_type) {
    case 'text':
      return <RichText value={slice.primary.text} />;
    case 'image': {
      const image = <ContentImage image={slice.primary.image} />;
      return (
        <figure>
          {slice.primary.link ? (
            <ContentLink link={slice.primary.link} className="block">
              {image}
            </ContentLink>
          ) : (
            image
          )}
          <Caption text={slice.primary.caption} />
        </figure>
      );
    }
    case 'embed':
      return (
        <figure>
          <Embed embed={slice.primary.embed} />
          <Caption text={slice.primary.caption} />
        </figure>
      );
    case 'table':
      return <ContentTable table={slice.primary.table} caption={slice.primary.caption} />;
    case 'button':
      return <ContentButton label={slice.primary.label} link={slice.primary.link} />;
    default:
      return null;
  }
}

export function SliceZone({ slices }: { slices: SliceZoneValue | null | undefined }) {
  // Unknown slices leave no trace, not even an empty wrapper.
  const known = (slices ?? []).filter((slice) => (SLICE_TYPES as readonly string[]).includes(slice.slice_type));
  if (!known.length) return null;
  return (
    <>
      {known.map((slice, i) => (
        <section key={slice.id ?? i} data-slice-type={slice.slice_type}>
          <SliceView slice={slice} />
        </section>
      ))}
    </>
  );
}
