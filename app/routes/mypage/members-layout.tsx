// The pages under /mypage that are a member's own (all but /mypage itself and the invitation page, which
// shows its rules to anyone). The specification guards no /mypage route, so a visitor is not sent away:
// every one of these pages answers a visitor the same way (decision 002, issue 29 item 16), with its
// title and the sign-in prompt (200, like /mypage's own). This loader and each page's loader throw the
// visitor marker (lib/members-only.server.ts); a loader error bubbles to the nearest boundary, this one.
// Posts keep their own checks (a visitor's post is sent to sign in).
import { isRouteErrorResponse, Outlet, useMatches, useRouteError } from 'react-router';
import type { Route } from './+types/members-layout';
import { shopRequestContext } from '#server/context';
import { MembersOnlyPrompt } from '~/components/MembersOnlyPrompt';
import { pageTitleFromMatches } from '~/lib/page-meta';
import { MYPAGE_VISITOR } from '~/lib/members-only';
import { visitorAnswer } from '~/controllers/members-only.server';

export function loader({ request, context }: Route.LoaderArgs) {
  if (!context.get(shopRequestContext).member) throw visitorAnswer(request);
  return null;
}

export default function MembersLayout() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const matches = useMatches();
  if (isRouteErrorResponse(error) && (error.data as { kind?: string } | null)?.kind === MYPAGE_VISITOR)
    return <MembersOnlyPrompt title={pageTitleFromMatches(matches) ?? 'マイページ'} />;
  // Anything else is the root's to show (the not-found page, the busy page, a failed chunk).
  throw error;
}
