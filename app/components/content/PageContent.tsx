// A page's content: its rich-text body, then its slice zone. The chrome (title, hero image) stays in
// the routes. Give it data that went through normalisePageData: this renders what it is given.
import type { PageData } from '#modules/content/render';
import { RichText } from './RichText';
import { SliceZone } from './SliceZone';

export function PageContent({ data }: { data: Pick<PageData, 'body' | 'slices'> }) {
  return (
    <div className="flex flex-col gap-4">
      {data.body.length ? <RichText value={data.body} /> : null}
      <SliceZone slices={data.slices} />
    </div>
  );
}
