// /mypage/invitation: the member's invitation code and invited friends.
import { FeaturePage } from '~/components/FeaturePage';

export const handle = { title: '友達招待' };

export default function Invitation() {
  return (
    <FeaturePage
      membersOnly
      title="友達招待"
      lead="お友達を招待して、一緒にコインをもらおう"
      emptyTitle="友達招待は準備中です"
    >
      招待コードの発行と特典の付与は、近日公開予定です。
    </FeaturePage>
  );
}
