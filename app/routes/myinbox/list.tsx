// /myinbox/idvs (あなたへ: personal mails) and /myinbox/alls (お知らせ: broadcasts), newest first, 20 a page.
import { useMatches } from 'react-router';
import type { Route } from './+types/list';
import { shopRequestContext } from '~/context';
import { PageHeading, EmptyState } from '~/components/PageFrame';
import { InboxTabs } from '~/components/InboxTabs';
import { AppLink } from '~/components/AppLink';
import { MailList } from '~/components/MailList';
import { mailListOf } from '~/lib/mailbox.server';

export const handle = { title: 'メールボックス' };

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  // The members-only guard (app/guards) sends visitors to sign in before this runs.
  if (!shop.member) return { list: null };
  const url = new URL(request.url);
  const box = url.pathname.startsWith('/myinbox/alls') ? 'broadcast' : 'personal';
  return { list: await mailListOf({ ...shop, member: shop.member }, box, url) };
}

export default function InboxList({ loaderData }: Route.ComponentProps) {
  const matches = useMatches();
  const broadcasts = matches.some((m) => m.id === 'myinbox-alls');
  const path = broadcasts ? '/myinbox/alls' : '/myinbox/idvs';
  const list = loaderData.list;
  return (
    <>
      <PageHeading title="メールボックス" />
      <InboxTabs />
      {!list || list.items.length === 0 ? (
        <EmptyState title={broadcasts ? 'お知らせはまだありません' : 'あなたへのメールはまだありません'}>
          {list?.paged
            ? 'これより前のメールはありません。'
            : broadcasts
              ? '運営からのお知らせがここに届きます。'
              : 'プレゼントやお知らせが届くと、ここに表示されます。'}
        </EmptyState>
      ) : (
        <>
          <MailList items={list.items} label={broadcasts ? 'お知らせ' : 'あなたへのメール'} />
          <nav aria-label="ページ" className="mt-4 flex justify-between text-sm">
            {list.paged ? <AppLink to={path}>新しいメールへ</AppLink> : <span />}
            {list.nextBefore && <AppLink to={`${path}?before=${list.nextBefore}`}>さらに前のメール</AppLink>}
          </nav>
        </>
      )}
    </>
  );
}
