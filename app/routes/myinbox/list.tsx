// /myinbox/idvs (あなたへ) and /myinbox/alls (お知らせ).
import { useMatches } from 'react-router';
import { PageHeading, EmptyState } from '~/components/PageFrame';
import { InboxTabs } from '~/components/InboxTabs';

export const handle = { title: 'メールボックス' };

export default function InboxList() {
  const matches = useMatches();
  const broadcasts = matches.some((m) => m.id === 'myinbox-alls');
  return (
    <>
      <PageHeading title="メールボックス" />
      <InboxTabs />
      <EmptyState title={broadcasts ? 'お知らせはまだありません' : 'あなたへのメールはまだありません'}>
        {broadcasts ? '運営からのお知らせがここに届きます。' : 'プレゼントやお知らせが届くと、ここに表示されます。'}
      </EmptyState>
    </>
  );
}
