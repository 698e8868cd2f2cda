// /{specialId} (layout top): special pages, and editorial pages at one level; check-special-valid guards it.
import type { Route } from './+types/special';
import { shopRequestContext } from '#server/context';
import { Container } from '~/components/PageFrame';
import { ContentArticle } from '~/components/ContentArticle';
import { notFound } from '~/lib/not-found';
import { contentOf } from '#server/context';

export const handle = {
  title: (data: { page: { data: { title: string } } }) => data.page.data.title,
  description: (data: { page: { data: { description?: string } } }) => data.page.data.description,
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const page = await contentOf(context.get(shopRequestContext).services).getPage(params.specialId);
  if (!page) throw notFound(new URL(request.url).pathname);
  return { page };
}

export default function SpecialPage({ loaderData }: Route.ComponentProps) {
  return (
    <Container>
      <ContentArticle data={loaderData.page.data} />
    </Container>
  );
}
