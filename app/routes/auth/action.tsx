// /auth/action: where links in our mails land (address confirmation, password reset).
import { useSearchParams } from 'react-router';
import { EmptyState } from '~/components/PageFrame';
import { ButtonLink } from '~/components/Button';

export const handle = { title: 'アカウントの手続き' };

export default function AuthAction() {
  const [params] = useSearchParams();
  const mode = params.get('mode');
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-black">アカウントの手続き</h1>
      <EmptyState
        title={mode ? 'このリンクは現在ご利用いただけません' : '手続きのリンクが見つかりません'}
        action={<ButtonLink to="/">トップページへ</ButtonLink>}
      >
        メールのリンクから開いた場合は、お手数ですが最新のメールのリンクを開き直してください。
      </EmptyState>
    </div>
  );
}
