// The mailbox tabs: あなたへ / お知らせ / 受け取り履歴.
import { AppNavLink } from './AppLink';

export const INBOX_TABS = [
  { to: '/myinbox/idvs', label: 'あなたへ' },
  { to: '/myinbox/alls', label: 'お知らせ' },
  { to: '/myinbox/bonus/logs', label: '受け取り履歴' },
] as const;

export function InboxTabs() {
  return (
    <nav
      aria-label="メールの種類"
      className="mb-4 grid grid-cols-3 gap-1 rounded-full bg-white p-1 text-center text-sm font-bold shadow-sm"
    >
      {INBOX_TABS.map((tab) => (
        <AppNavLink
          key={tab.to}
          to={tab.to}
          className={({ isActive }) =>
            `rounded-full px-2 py-2.5 ${isActive ? 'bg-primary-ink text-white' : 'text-muted'}`
          }
        >
          {tab.label}
        </AppNavLink>
      ))}
    </nav>
  );
}
