// /r/ow (decision 038): the member's own invitation entry ("own"), for the app, mails and menus: a
// stable short address that opens /mypage/invitation. Members only (the specification's /r/* rule sends
// a visitor to sign in first, and back here after). With ?code=… (a member who signed up before opening
// a friend's link) the page's code form is filled in; the /r cookie is left too (server/invitation.ts).
import { redirect } from 'react-router';
import type { Route } from './+types/ow';
import { normaliseInvitationCode } from '#modules/invitation';

export function loader({ request }: Route.LoaderArgs) {
  const code = normaliseInvitationCode(new URL(request.url).searchParams.get('code'));
  return redirect(code ? `/mypage/invitation?code=${code}` : '/mypage/invitation');
}

export default function ReferralOwn() {
  return null;
}
