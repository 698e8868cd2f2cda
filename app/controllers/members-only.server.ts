// What a member's page under /mypage answers a visitor (decision 002, issue 29 item 16). The area has no
// route guard, so its pages decide: a page view (GET, and the router's data request for it) throws the
// visitor marker, which app/routes/mypage/members-layout.tsx shows as the sign-in prompt (200); a post
// goes to sign in, back to the page, as before.
import { data, redirect } from 'react-router';
import { signInPathFor } from '#modules/kernel/navigation';
import { MYPAGE_VISITOR } from '~/lib/members-only';

/**
 * Throw it when a /mypage page finds no member.
 * @example if (!shop.member) throw visitorAnswer(request)
 */
export function visitorAnswer(request: Request, back?: string): Response | ReturnType<typeof data> {
  if (request.method === 'GET' || request.method === 'HEAD')
    return data({ kind: MYPAGE_VISITOR }, { status: 200, headers: { 'Cache-Control': 'no-store' } });
  const url = new URL(request.url);
  return redirect(signInPathFor(back ?? url.pathname + url.search));
}
