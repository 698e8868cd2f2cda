// A page's content: its rich-text body, then its slice zone. The chrome (title, hero image) stays in
// the routes. Give it data that went through normalisePageData: this renders what it is given.
import { hasRichTextToShow, type PageData } from '#modules/content/render';
import { RichText } from './RichText';
import { SliceZone } from './SliceZone';

export function PageContent({ data }: { data: Pick<PageData, 'body' | 'slices'> }) {
  return (
    <div className="flex flex-col gap-4">
      {/* Empty paragraphs alone (specification section 5) make no block; an image-only body still shows. */}
      {hasRichTextToShow(data.body) ? <RichText value={data.body} /> : null}
      <SliceZone slices={data.slices} />
    </div>
  );
}
