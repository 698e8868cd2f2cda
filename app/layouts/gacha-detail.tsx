// Pack detail layout: header and page; the page brings its own sticky draw panel instead of the tab bar.
import { Outlet } from 'react-router';
import { SiteHeader } from '~/components/SiteHeader';
import { SiteFooter } from '~/components/SiteFooter';

export default function GachaDetailLayout() {
  return (
    <>
      <SiteHeader />
      <main id="main" className="pb-36 md:pb-0">
        <Outlet />
      </main>
      <SiteFooter />
    </>
  );
}
