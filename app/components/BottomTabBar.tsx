// The fixed bottom tab bar on phones: オリパ / ランキング / 獲得商品 / チャージ / マイページ.
import { useLocation } from 'react-router';
import { AppLink } from './AppLink';
import { HomeIcon, TrophyIcon, GiftIcon, CoinIcon, UserIcon } from './icons';

type Tab = {
  to: string;
  label: string;
  Icon: typeof HomeIcon;
  isActive: (pathname: string, search: URLSearchParams) => boolean;
};

const TABS: Tab[] = [
  { to: '/', label: 'オリパ', Icon: HomeIcon, isActive: (p) => p === '/' || p.startsWith('/gacha/') },
  { to: '/ranking/daily/goodluck', label: 'ランキング', Icon: TrophyIcon, isActive: (p) => p.startsWith('/ranking') },
  // The prize box lives in mypage (獲得商品); the tab opens mypage on it.
  {
    to: '/mypage?tab=prizes',
    label: '獲得商品',
    Icon: GiftIcon,
    isActive: (p, q) => p === '/mypage' && q.get('tab') === 'prizes',
  },
  { to: '/shop', label: 'チャージ', Icon: CoinIcon, isActive: (p) => p.startsWith('/shop') },
  {
    to: '/mypage',
    label: 'マイページ',
    Icon: UserIcon,
    // The farm and friends are reached from マイページ's menu (issue 29 item 10).
    isActive: (p, q) =>
      (p.startsWith('/mypage') && q.get('tab') !== 'prizes') || p === '/app/farm' || p === '/app/friends/add',
  },
];

export function BottomTabBar() {
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  return (
    <nav
      aria-label="タブメニュー"
      className="fixed inset-x-0 bottom-0 z-tabbar border-t border-line bg-white pb-safe md:hidden"
    >
      <ul className="grid grid-cols-5">
        {TABS.map(({ to, label, Icon, isActive }) => {
          const active = isActive(location.pathname, search);
          return (
            <li key={to}>
              <AppLink
                to={to}
                aria-current={active ? 'page' : undefined}
                className={`flex min-h-14 flex-col items-center justify-center gap-0.5 text-xs font-bold ${active ? 'text-primary-ink' : 'text-muted'}`}
              >
                <Icon className="size-6" />
                {label}
              </AppLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
