// Result layout: full screen on a dark stage, for the reveal and the cards won; at its foot, small, the
// 古物営業法 line every page carries (after the page, so the sticky action bar, which sticks inside the
// card list, never covers it).
import { Outlet } from 'react-router';
import { KobutsuLine } from '~/components/SiteFooter';

export default function GachaResultLayout() {
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-slate-900 to-slate-800 text-white">
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <footer className="pt-2 pb-safe">
        <KobutsuLine tone="dark" />
      </footer>
    </div>
  );
}
