// /mylevel: the member's level and experience.
import { FeaturePage } from '~/components/FeaturePage';

export const handle = { title: 'マイレベル' };

export default function MyLevel() {
  return (
    <FeaturePage title="マイレベル" lead="オリパを引くと1コインにつき1経験値がたまります" emptyTitle="レベルの集計は準備中です">
      経験値とレベルアップ報酬は、抽選機能の公開とあわせて表示されます。
    </FeaturePage>
  );
}
