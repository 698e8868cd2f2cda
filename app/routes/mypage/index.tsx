// /mypage: the member's card and the menu; visitors are asked to sign in (mypage has no route guard).
import { Form, useNavigation } from 'react-router';
import { PageHeading, EmptyState } from '~/components/PageFrame';
import { ButtonLink, Button } from '~/components/Button';
import { AppLink } from '~/components/AppLink';
import { ChevronRightIcon, UserIcon } from '~/components/icons';
import { useRootData } from '~/lib/root-data';
import { LEGAL_LINKS } from '~/components/SiteFooter';

export const handle = { title: 'マイページ' };

const MENU = [
  { to: '/myinbox/idvs', label: 'お知らせ・メールボックス' },
  { to: '/mylevel', label: 'マイレベル' },
  { to: '/myrank', label: 'マイランク' },
  { to: '/mypage/invitation', label: '友達招待' },
  { to: '/mypage/tokutencode', label: '特典コード' },
  { to: '/mypage/settings/phonenumber', label: '電話番号' },
  { to: '/mypage/settings/unlink', label: '連携アカウント' },
  { to: '/guide', label: 'よくある質問・ご利用ガイド' },
  ...LEGAL_LINKS.filter((l) => l.to === '/terms' || l.to === '/tokushoho'),
];

export default function MyPage() {
  const root = useRootData();
  const navigation = useNavigation();
  const member = root?.member;
  if (!member) {
    return (
      <>
        <PageHeading title="マイページ" />
        <EmptyState title="ログインしてください"
          action={<div className="flex gap-2"><ButtonLink to="/auth/sign_in?redirect=%2Fmypage">ログイン</ButtonLink><ButtonLink to="/auth/sign_up" variant="secondary">新規登録</ButtonLink></div>}>
          ログインすると、獲得したカードやコインの履歴を確認できます。
        </EmptyState>
      </>
    );
  }
  const signingOut = navigation.state !== 'idle' && navigation.formAction === '/auth/sign_out';
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-4">
      <h1 className="sr-only">マイページ</h1>
      <section aria-label="会員情報" className="flex items-center gap-3 rounded-2xl bg-gradient-to-br from-primary to-rose-400 p-5 text-white shadow">
        <div className="flex size-14 items-center justify-center rounded-full bg-white/25"><UserIcon className="size-8" /></div>
        <div className="min-w-0">
          <p className="truncate text-lg font-black" data-testid="member-name">{member.name}</p>
          <p className="text-xs opacity-90">会員ID：{member.id.slice(0, 10)}</p>
        </div>
      </section>
      <section id="prizes" aria-labelledby="prizes-title" className="flex flex-col gap-2">
        <h2 id="prizes-title" className="text-base font-black">獲得商品</h2>
        <EmptyState title="獲得したカードはまだありません" action={<ButtonLink to="/" variant="secondary">オリパを探す</ButtonLink>}>
          オリパで当たったカードはここに届き、発送またはコイン交換を選べます。
        </EmptyState>
      </section>
      <nav aria-label="マイページメニュー" className="overflow-hidden rounded-2xl bg-white shadow-sm">
        <ul className="divide-y divide-line">
          {MENU.map((item) => (
            <li key={item.to}>
              <AppLink to={item.to} className="flex min-h-13 items-center justify-between px-4 py-3.5 text-sm font-bold hover:bg-canvas">
                {item.label}
                <ChevronRightIcon className="size-5 text-muted" />
              </AppLink>
            </li>
          ))}
        </ul>
      </nav>
      <Form method="post" action="/auth/sign_out">
        <Button type="submit" variant="plain" fullWidth loading={signingOut}>ログアウト</Button>
      </Form>
    </div>
  );
}
