// The social buttons (on /auth/sign_in and /auth/sign_up, both posted to /auth/sign_in with intent=social):
// a form post that redirects to the provider, so it works before hydration; with JavaScript the same form is sent into a popup
// (app/lib/auth-popup.ts). docs/decisions/015-social-sign-in.md.
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { safeRedirectPath } from '#modules/kernel/navigation';
import { cookieHeaders } from '~/controllers/auth-call.server';
import { providerPageForBrowser, socialProvidersOn } from '~/controllers/social-sign-in.server';
import { startSocialSignIn } from '#modules/identity/server';
import { authErrorMessage, isSocialProviderId } from '#modules/identity';

/** Where the popup lands (app/routes/auth/popup.tsx); it reports to its opener and closes. */
export const POPUP_LANDING_PATH = '/auth/popup';

/**
 * Answers a posted social sign-in button (`provider`, `redirect`, `popup`): a redirect to the provider
 * with better-auth's state cookie, or the form error. Success returns to `redirect` (a local path only);
 * failure to /auth/sign_in?error=<code> (or, in a popup, to the popup page, which tells the opener).
 */
export async function socialSignInAction(shop: ShopRequest, request: Request, form: Record<string, string>) {
  const provider = form.provider;
  if (!isSocialProviderId(provider)) {
    return data({ formError: authErrorMessage('PROVIDER_NOT_FOUND') }, { status: 400 });
  }
  const back = safeRedirectPath(form.redirect);
  const popup = form.popup === '1';
  const signInAgain = `/auth/sign_in${back === '/' ? '' : `?redirect=${encodeURIComponent(back)}`}`;
  const started = await startSocialSignIn(shop.services.auth, {
    headers: request.headers,
    provider,
    callbackURL: popup ? `${POPUP_LANDING_PATH}?redirect=${encodeURIComponent(back)}` : back,
    errorCallbackURL: popup ? POPUP_LANDING_PATH : signInAgain,
    configured: socialProvidersOn(shop.services),
  });
  if (!started.ok) {
    return data(
      { formError: authErrorMessage(started.code, started.status) },
      { status: started.status >= 500 ? 502 : started.status },
    );
  }
  return redirect(providerPageForBrowser(shop.services, started.url), { headers: cookieHeaders(started.setCookies) });
}
