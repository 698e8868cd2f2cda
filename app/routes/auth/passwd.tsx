// /auth/passwd: password reset. Sending the reset mail arrives with the mail feature; the page says so.
import { EmptyState } from '~/components/PageFrame';
import { ButtonLink } from '~/components/Button';

export const handle = { title: 'パスワード再設定' };

export default function Passwd() {
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-black">パスワード再設定</h1>
      <EmptyState
        title="メールでの再設定は準備中です"
        action={
          <ButtonLink to="/auth/sign_in" variant="secondary">
            ログイン画面へ戻る
          </ButtonLink>
        }
      >
        パスワード再設定メールの送信機能は現在準備中です。お困りの場合はお問い合わせください。
      </EmptyState>
    </div>
  );
}
