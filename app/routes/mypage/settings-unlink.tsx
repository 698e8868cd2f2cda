// /mypage/settings/unlink: linked sign-in accounts (LINE, Google, …).
import { FeaturePage } from '~/components/FeaturePage';

export const handle = { title: '連携アカウント' };

export default function SettingsUnlink() {
  return (
    <FeaturePage membersOnly title="連携アカウント" emptyTitle="連携しているアカウントはありません">
      LINE・Google などのアカウント連携は準備中です。現在はメールアドレスとパスワードでログインできます。
    </FeaturePage>
  );
}
