// /{specialId} (layout top): special pages, and editorial pages at one level; check-special-valid guards it.
import type { Route } from './+types/special';
import { shopRequestContext } from '~/context';
import { RichText } from '~/components/content';
import { Image } from '~/components/Image';
import { Container } from '~/components/PageFrame';
import { notFound } from '~/lib/not-found';
import { getPublishedPage } from '#modules/content';

export const handle = {
  title: (data: { page: { data: { title: string } } }) => data.page.data.title,
  description: (data: { page: { data: { description?: string } } }) => data.page.data.description,
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db } = context.get(shopRequestContext).services;
  const page = await getPublishedPage(db, params.specialId);
  if (!page) throw notFound(new URL(request.url).pathname);
  return { page };
}

export default function SpecialPage({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  return (
    <Container>
      <article className="mx-auto max-w-3xl overflow-hidden rounded-2xl bg-white shadow-sm">
        {page.data.heroImage ? (
          <Image
            src={page.data.heroImage}
            alt=""
            width={1200}
            height={500}
            sizes="(min-width: 768px) 768px, 100vw"
            priority
            className="aspect-[12/5] h-auto w-full object-cover"
          />
        ) : null}
        <div className="p-5 sm:p-8">
          <h1 className="text-xl font-black sm:text-2xl">{page.data.title}</h1>
          {page.data.description ? <p className="mt-2 text-sm text-muted">{page.data.description}</p> : null}
          <div className="mt-4">
            <RichText value={page.data.body} />
          </div>
        </div>
      </article>
    </Container>
  );
}
