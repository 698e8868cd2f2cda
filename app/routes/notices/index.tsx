// /notices: every お知らせ inside its window (content documents of type notice, decision 039).
import type { Route } from './+types/index';
import { shopRequestContext } from '#server/context';
import { Container } from '~/components/PageFrame';
import { NoticeList, noticeListItem } from '~/components/NoticeList';
import { contentOf } from '#server/context';

export const handle = { title: 'お知らせ' };

export async function loader({ context }: Route.LoaderArgs) {
  const notices = await contentOf(context.get(shopRequestContext).services).listNotices();
  return { notices: notices.map(noticeListItem) };
}

export default function Notices({ loaderData }: Route.ComponentProps) {
  return (
    <Container className="mx-auto max-w-3xl">
      <NoticeList notices={loaderData.notices} heading="h1" />
    </Container>
  );
}
