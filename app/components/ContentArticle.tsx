// The page chrome of every content document (pages, special pages, notices, /preview): the hero image,
// the title, the description and the body with its slices. One component, so a preview looks exactly
// like the published page.
import type { ReactNode } from 'react';
import { RichText } from '~/components/RichText';
import { Image } from '~/components/Image';
import { ContentSlices } from '~/components/ContentSlices';
import { safeLinkUrl, type PageData } from '#modules/content/rich-text';

/** A hero image's path: a site path or an image field's URL, checked like every other content URL. */
function heroSource(hero: PageData['heroImage']): string | null {
  if (!hero) return null;
  return safeLinkUrl(typeof hero === 'string' ? hero : hero.url);
}

export function ContentArticle({
  data,
  eyebrow,
  children,
}: {
  data: Pick<PageData, 'title' | 'description' | 'heroImage' | 'body' | 'slices'>;
  /** A line above the title (a notice's date, 「プレビュー」). */
  eyebrow?: ReactNode;
  /** Anything after the body (a notice's way back to the list). */
  children?: ReactNode;
}) {
  const hero = heroSource(data.heroImage);
  return (
    <article className="mx-auto max-w-3xl overflow-hidden rounded-2xl bg-white shadow-sm">
      {hero ? (
        <Image
          src={hero}
          alt=""
          width={1200}
          height={500}
          sizes="(min-width: 768px) 768px, 100vw"
          priority
          className="aspect-[12/5] h-auto w-full object-cover"
        />
      ) : null}
      <div className="p-5 sm:p-8">
        {eyebrow ? <div className="mb-2 text-xs text-muted">{eyebrow}</div> : null}
        <h1 className="text-xl font-black sm:text-2xl">{data.title}</h1>
        {data.description ? <p className="mt-2 text-sm text-muted">{data.description}</p> : null}
        <div className="mt-4">
          <RichText value={data.body} />
        </div>
        <ContentSlices slices={data.slices} />
        {children}
      </div>
    </article>
  );
}
