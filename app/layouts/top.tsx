// Top layout (home, genre tops, special pages): header, genre tabs, page, footer, tab bar.
import { Outlet, useParams } from 'react-router';
import { SiteHeader } from '~/components/SiteHeader';
import { SiteFooter } from '~/components/SiteFooter';
import { BottomTabBar } from '~/components/BottomTabBar';
import { LoginBonusSheet } from '~/components/LoginBonusSheet';
import { GenreTabs } from '~/components/GenreTabs';
import { InvitationNotice } from '~/components/InvitationNotice';
import { shopRequestContext } from '#server/context';
import { invitationNoticeOf } from '~/controllers/invitation.server';
import type { Route } from './+types/top';

export async function loader({ request, context }: Route.LoaderArgs) {
  // A visitor who opened a friend's invitation link (/r?code=… redirects here): a way on to the sign-up.
  return { invitation: await invitationNoticeOf(context.get(shopRequestContext), request) };
}

export default function TopLayout({ loaderData }: Route.ComponentProps) {
  const params = useParams();
  return (
    <>
      <SiteHeader />
      {params.specialId ? null : <GenreTabs activeGenreId={params.genreId ?? null} />}
      <main id="main">
        {loaderData.invitation ? (
          <div className="mx-auto w-full max-w-6xl px-3 pt-3 sm:px-4">
            <InvitationNotice notice={loaderData.invitation} withLink />
          </div>
        ) : null}
        <Outlet />
      </main>
      <SiteFooter />
      <BottomTabBar />
      <LoginBonusSheet />
    </>
  );
}
