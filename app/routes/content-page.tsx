// /{slug}: editorial pages from the content store; anything unknown is the not-found page (404).
import type { Route } from './+types/content-page';
import { shopRequestContext } from '#server/context';
import { ContentArticle } from '~/components/ContentArticle';
import { notFound } from '~/lib/not-found';
import { contentOf } from '#server/context';

export const handle = {
  title: (data: { page: { data: { title: string } } }) => data.page.data.title,
  description: (data: { page: { data: { description?: string } } }) => data.page.data.description,
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(shopRequestContext).services;
  const { config } = services;
  const pathname = new URL(request.url).pathname;
  const page = await contentOf(services).getPage(params['*'] ?? '', ['page']);
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
  return <ContentArticle data={loaderData.page.data} />;
}
