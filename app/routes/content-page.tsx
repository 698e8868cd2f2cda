// /{slug}: editorial pages from the content store; anything unknown is the not-found page (404).
import type { Route } from './+types/content-page';
import { shopRequestContext } from '~/context';
import { RichText } from '~/components/content';
import { notFound } from '~/lib/not-found';
import { getPublishedPage } from '#modules/content';

export const handle = {
  title: (data: { page: { data: { title: string } } }) => data.page.data.title,
  description: (data: { page: { data: { description?: string } } }) => data.page.data.description,
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db, config } = context.get(shopRequestContext).services;
  const pathname = new URL(request.url).pathname;
  const page = await getPublishedPage(db, params['*'] ?? '', ['page']);
  if (!page)
    throw notFound(pathname, {
      name: config.SITE_NAME,
      tagline: config.SITE_TAGLINE,
      origin: config.PUBLIC_ORIGIN,
      description: config.SITE_DESCRIPTION,
    });
  return { page };
}

export default function ContentPage({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  return (
    <article className="mx-auto max-w-3xl rounded-2xl bg-white p-5 shadow-sm sm:p-8">
      <h1 className="text-xl font-black sm:text-2xl">{page.data.title}</h1>
      {page.data.description ? <p className="mt-2 text-sm text-muted">{page.data.description}</p> : null}
      <div className="mt-4">
        <RichText value={page.data.body} />
      </div>
    </article>
  );
}
