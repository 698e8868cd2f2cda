// /mylevel/top: the level table and its rewards.
import { FeaturePage } from '~/components/FeaturePage';

export const handle = { title: 'レベル特典' };

export default function MyLevelTop() {
  return (
    <FeaturePage title="レベル特典" emptyTitle="レベル特典は準備中です">レベルごとの特典一覧は近日公開予定です。</FeaturePage>
  );
}
