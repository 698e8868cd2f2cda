// Ranking layout: period tabs above the board.
import { Outlet } from 'react-router';
import { SiteHeader } from '~/components/SiteHeader';
import { SiteFooter } from '~/components/SiteFooter';
import { BottomTabBar } from '~/components/BottomTabBar';
import { LoginBonusSheet } from '~/components/LoginBonusSheet';
import { AppNavLink } from '~/components/AppLink';
import { Container } from '~/components/PageFrame';

export const RANKING_BOARDS = [
  { to: '/ranking/daily/goodluck', label: '神引き（日）' },
  { to: '/ranking/weekly/exp', label: '経験値（週）' },
  { to: '/ranking/monthly/level', label: 'レベル（月）' },
] as const;

export default function RankingLayout() {
  return (
    <>
      <SiteHeader />
      <main id="main">
        <Container>
          <h1 className="mb-3 text-xl font-black sm:text-2xl">ランキング</h1>
          <nav
            aria-label="ランキングの種類"
            className="mb-4 grid grid-cols-3 gap-1 rounded-full bg-white p-1 text-center text-xs font-bold shadow-sm sm:text-sm"
          >
            {RANKING_BOARDS.map((board) => (
              <AppNavLink
                key={board.to}
                to={board.to}
                className={({ isActive }) =>
                  `rounded-full px-2 py-2.5 ${isActive ? 'bg-primary-ink text-white' : 'text-muted hover:bg-canvas'}`
                }
              >
                {board.label}
              </AppNavLink>
            ))}
          </nav>
          <Outlet />
        </Container>
      </main>
      <SiteFooter />
      <BottomTabBar />
      <LoginBonusSheet />
    </>
  );
}
