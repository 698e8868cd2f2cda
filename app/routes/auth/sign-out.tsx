// /auth/sign_out: a POST only (a link from another site cannot sign a member out), then to the top.
import { redirect } from 'react-router';
import type { Route } from './+types/sign-out';
import { shopRequestContext } from '#server/context';
import { callAuth, cookieHeaders } from '~/controllers/auth-call.server';

export async function action({ request, context }: Route.ActionArgs) {
  const shop = context.get(shopRequestContext);
  const result = await callAuth(shop, request, '/sign-out', {});
  return redirect('/', { headers: cookieHeaders(result.setCookies) });
}

export function loader() {
  return redirect('/');
}
