// /mypage/backfromline and /mypage/backfromlinecampaign: where LINE sends the member back.
import { FeaturePage } from '~/components/FeaturePage';
import { ButtonLink } from '~/components/Button';

export const handle = { title: 'LINE連携' };

export default function BackFromLine() {
  return (
    <FeaturePage
      membersOnly
      title="LINE連携"
      emptyTitle="LINE連携は準備中です"
      action={<ButtonLink to="/mypage">マイページへ</ButtonLink>}
    >
      LINEアカウントとの連携は近日対応予定です。
    </FeaturePage>
  );
}
