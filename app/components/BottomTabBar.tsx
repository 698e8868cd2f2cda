// The fixed bottom tab bar on phones: オリパ / ランキング / 獲得商品 / チャージ / マイページ.
import { AppNavLink } from './AppLink';
import { HomeIcon, TrophyIcon, GiftIcon, CoinIcon, UserIcon } from './icons';

const TABS = [
  { to: '/', label: 'オリパ', Icon: HomeIcon, end: true },
  { to: '/ranking/daily/goodluck', label: 'ランキング', Icon: TrophyIcon, end: false },
  { to: '/mypage/prizes', label: '獲得商品', Icon: GiftIcon, end: false },
  { to: '/shop', label: 'チャージ', Icon: CoinIcon, end: false },
  { to: '/mypage', label: 'マイページ', Icon: UserIcon, end: true },
] as const;

export function BottomTabBar() {
  return (
    <nav aria-label="タブメニュー" className="fixed inset-x-0 bottom-0 z-tabbar border-t border-line bg-white pb-safe md:hidden">
      <ul className="grid grid-cols-5">
        {TABS.map(({ to, label, Icon, end }) => (
          <li key={to}>
            <AppNavLink to={to} end={end}
              className={({ isActive }) => `flex min-h-14 flex-col items-center justify-center gap-0.5 text-[11px] font-bold ${isActive ? 'text-primary-ink' : 'text-muted'}`}>
              <Icon className="size-6" />
              {label}
            </AppNavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
