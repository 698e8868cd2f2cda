// /notices/{noticeId}: one お知らせ. A published notice stays readable after its window (old links keep working).
import type { Route } from './+types/notice';
import { shopRequestContext } from '#server/context';
import { Container } from '~/components/PageFrame';
import { ContentArticle } from '~/components/ContentArticle';
import { AppLink } from '~/components/AppLink';
import { notFound } from '~/lib/not-found';
import { contentOf } from '#server/context';
import { formatMemberDate } from '#modules/kernel/dates';

export const handle = {
  title: (data: { notice: { data: { title: string } } }) => data.notice.data.title,
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const notice = await contentOf(context.get(shopRequestContext).services).getNotice(params.noticeId);
  if (!notice) throw notFound(new URL(request.url).pathname);
  return { notice };
}

export default function Notice({ loaderData }: Route.ComponentProps) {
  const { notice } = loaderData;
  const date = notice.data.startsAt ?? notice.publishedAt;
  return (
    <Container>
      <ContentArticle
        data={{ title: notice.data.title, body: notice.data.body }}
        eyebrow={
          <span className="flex items-center gap-2">
            お知らせ{date ? <time dateTime={date}>{formatMemberDate(date)}</time> : null}
            {notice.data.important ? (
              <span className="rounded bg-primary px-1.5 py-0.5 text-xs font-bold text-white">重要</span>
            ) : null}
          </span>
        }
      >
        <p className="mt-8">
          <AppLink to="/notices" className="text-sm text-primary-ink underline">
            お知らせ一覧へ
          </AppLink>
        </p>
      </ContentArticle>
    </Container>
  );
}
