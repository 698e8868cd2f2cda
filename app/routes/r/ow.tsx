// /r/ow: the member's own referral landing (invitation links resolve here).
import { FeaturePage } from '~/components/FeaturePage';
import { ButtonLink } from '~/components/Button';

export const handle = { title: '招待リンク' };

export default function ReferralOwn() {
  return (
    <FeaturePage
      title="招待リンク"
      emptyTitle="招待リンクは準備中です"
      action={<ButtonLink to="/">トップページへ</ButtonLink>}
    >
      友達招待の機能は近日公開予定です。
    </FeaturePage>
  );
}
