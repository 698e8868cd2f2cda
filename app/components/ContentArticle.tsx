// The page chrome of every content document (pages, special pages, notices, /preview): the hero image,
// the title, the description, then the field kinds through the one component set (PageContent). One
// component, so a preview looks exactly like the published page. Data arrives normalised (decision 042).
import type { ReactNode } from 'react';
import { Image } from '~/components/Image';
import { PageContent } from '~/components/content';
import { safeImageUrl, type PageData } from '#modules/content/render';

/** A hero image's path: a site path or an image field's URL, checked like every other content URL. */
function heroSource(hero: PageData['heroImage']): string | null {
  if (!hero) return null;
  return safeImageUrl(typeof hero === 'string' ? hero : hero.url);
}

export function ContentArticle({
  data,
  eyebrow,
  children,
}: {
  data: Pick<PageData, 'title' | 'description' | 'heroImage' | 'body' | 'slices'>;
  /** A line above the title (a notice's date). */
  eyebrow?: ReactNode;
  /** Anything after the body (a notice's way back to the list). */
  children?: ReactNode;
}) {
  const hero = heroSource(data.heroImage);
  return (
    <article className="mx-auto max-w-3xl overflow-hidden rounded-2xl bg-white shadow-sm">
      {hero && !hero.startsWith('/') ? (
        // An image on the content service's CDN (Prismic): the shop's resizer serves only its own files.
        <img
          src={hero}
          alt=""
          width={1200}
          height={500}
          fetchPriority="high"
          className="aspect-[12/5] h-auto w-full object-cover"
        />
      ) : hero ? (
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
          <PageContent data={{ body: data.body, slices: data.slices }} />
        </div>
        {children}
      </div>
    </article>
  );
}
