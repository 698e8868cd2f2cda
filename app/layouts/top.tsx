// Top layout (home, genre tops, special pages): header, genre tabs, page, footer, tab bar.
import { Outlet, useParams } from 'react-router';
import { SiteHeader } from '~/components/SiteHeader';
import { SiteFooter } from '~/components/SiteFooter';
import { BottomTabBar } from '~/components/BottomTabBar';
import { GenreTabs } from '~/components/GenreTabs';

export default function TopLayout() {
  const params = useParams();
  return (
    <>
      <SiteHeader />
      {params.specialId ? null : <GenreTabs activeGenreId={params.genreId ?? null} />}
      <main id="main">
        <Outlet />
      </main>
      <SiteFooter />
      <BottomTabBar />
    </>
  );
}
