// Result layout: full screen on a dark stage, for the reveal and the cards won.
import { Outlet } from 'react-router';

export default function GachaResultLayout() {
  return (
    <main id="main" className="min-h-dvh bg-gradient-to-b from-slate-900 to-slate-800 text-white">
      <Outlet />
    </main>
  );
}
