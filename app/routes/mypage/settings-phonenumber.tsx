// /mypage/settings/phonenumber: SMS verification of the member's phone number.
import { FeaturePage } from '~/components/FeaturePage';

export const handle = { title: '電話番号認証' };

export default function SettingsPhoneNumber() {
  return (
    <FeaturePage membersOnly title="電話番号認証" emptyTitle="電話番号認証は準備中です">
      SMSによる電話番号の認証は近日対応予定です。発送申請や友達招待の特典には認証が必要になります。
    </FeaturePage>
  );
}
