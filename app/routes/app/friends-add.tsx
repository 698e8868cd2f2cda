// /app/friends/add: adding a farm friend by code or link.
import { FeaturePage } from '~/components/FeaturePage';

export const handle = { title: 'フレンド追加' };

export default function FriendsAdd() {
  return (
    <FeaturePage title="フレンド追加" emptyTitle="フレンド機能は準備中です">
      ファームのフレンド追加は近日公開予定です。
    </FeaturePage>
  );
}
