// /app/farm: the farm mini game.
import { FeaturePage } from '~/components/FeaturePage';

export const handle = { title: 'ファーム' };

export default function Farm() {
  return (
    <FeaturePage title="ファーム" lead="毎日水やりをしてコインを育てよう" emptyTitle="ファームは準備中です">
      種を植えて水やりをすると、収穫で無償コインがもらえるミニゲームを準備しています。
    </FeaturePage>
  );
}
