// Default layout: header, the page in a container, footer, and the phone tab bar.
import { Outlet } from 'react-router';
import { SiteHeader } from '~/components/SiteHeader';
import { SiteFooter } from '~/components/SiteFooter';
import { BottomTabBar } from '~/components/BottomTabBar';
import { LoginBonusSheet } from '~/components/LoginBonusSheet';
import { Container } from '~/components/PageFrame';

export default function DefaultLayout() {
  return (
    <>
      <SiteHeader />
      <main id="main">
        <Container>
          <Outlet />
        </Container>
      </main>
      <SiteFooter />
      <BottomTabBar />
      <LoginBonusSheet />
    </>
  );
}
