// The menu of /mypage, each item with the account's state beside it where it has one.
import { AppLink } from '~/components/AppLink';
import { ChevronRightIcon } from '~/components/icons';
import { LEGAL_LINKS } from '~/components/SiteFooter';
import type { AccountSummary } from '#modules/identity/server';
import { SOCIAL_PROVIDER_NAMES, isSocialProviderId } from '#modules/identity/browser';

const MENU = [
  { to: '/mypage/draws', label: '当選履歴（抽選の記録と証明）' },
  { to: '/mypage?tab=purchases', label: '購入履歴' },
  { to: '/myinbox/idvs', label: 'お知らせ・メールボックス' },
  { to: '/mylevel', label: 'マイレベル' },
  { to: '/myrank', label: 'マイランク' },
  { to: '/app/farm', label: 'ファーム（毎日遊べるミニゲーム）' },
  { to: '/app/friends/add', label: 'フレンド（ファームで水やりし合う）' },
  { to: '/mypage/invitation', label: '友達招待' },
  { to: '/mypage/tokutencode', label: '特典コード' },
  { to: '/mypage/shipping', label: '発送状況' },
  { to: '/mypage/addresses', label: '住所録（お届け先）' },
  { to: '/mypage/settings/profile', label: 'プロフィール（ニックネーム・生年月日）' },
  { to: '/mypage/settings/email', label: 'メールアドレスの変更' },
  { to: '/mypage/settings/password', label: 'パスワード' },
  { to: '/mypage/settings/phonenumber', label: '電話番号' },
  { to: '/mypage/settings/unlink', label: '連携アカウント' },
  { to: '/mypage/settings/security', label: '二段階認証' },
  { to: '/mypage/settings/limits', label: '利用上限・自己除外' },
  { to: '/guide', label: 'よくある質問・ご利用ガイド' },
  { to: '/contact', label: 'お問い合わせ' },
  ...LEGAL_LINKS.filter((l) => l.to === '/terms' || l.to === '/tokushoho'),
  { to: '/mypage/settings/delete', label: '退会' },
];

/** The account's state beside its menu item: the address, the phone, the second factor, the providers. */
function accountStatus(to: string, account: AccountSummary): string | null {
  if (to === '/mypage/settings/email') return account.email ?? '未登録';
  if (to === '/mypage/settings/phonenumber') return account.phone ?? '未登録';
  if (to === '/mypage/settings/security') return account.twoFactorEnabled ? 'オン' : 'オフ';
  if (to === '/mypage/settings/unlink')
    return account.providers.length
      ? account.providers.map((id) => (isSocialProviderId(id) ? SOCIAL_PROVIDER_NAMES[id] : id)).join('・')
      : 'なし';
  return null;
}

/** The menu; hidden on phones while a tab is open. */
export function MyPageMenu({ hidden, account }: { hidden: boolean; account: AccountSummary | null }) {
  return (
    <nav
      aria-label="マイページメニュー"
      className={`overflow-hidden rounded-2xl bg-white shadow-sm ${hidden ? 'hidden md:block' : ''}`}
    >
      <ul className="divide-y divide-line">
        {MENU.map((item) => (
          <li key={item.to}>
            <AppLink
              to={item.to}
              className="flex min-h-13 items-center justify-between px-4 py-3.5 text-sm font-bold hover:bg-canvas"
            >
              <span>{item.label}</span>
              <span className="flex items-center gap-1">
                {account ? (
                  <span className="max-w-[11rem] truncate text-xs font-normal text-muted">
                    {accountStatus(item.to, account)}
                  </span>
                ) : null}
                <ChevronRightIcon className="size-5 text-muted" />
              </span>
            </AppLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
