// /myinbox/bonus/logs: what the member has received from mails.
import { PageHeading, EmptyState } from '~/components/PageFrame';
import { InboxTabs } from '~/components/InboxTabs';

export const handle = { title: '受け取り履歴' };

export default function BonusLogs() {
  return (
    <>
      <PageHeading title="メールボックス" />
      <InboxTabs />
      <EmptyState title="受け取り履歴はまだありません">
        メールで受け取ったプレゼントの履歴がここに表示されます。
      </EmptyState>
    </>
  );
}
