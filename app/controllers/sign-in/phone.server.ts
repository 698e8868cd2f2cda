// 「電話番号でログイン」 on /auth/sign_in (intent=phone-send, phone-verify): a verified number → a 6-digit
// SMS code → signed in, on to `redirect`; the steps themselves are shared with the settings page.
import { redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { safeRedirectPath } from '#modules/kernel/navigation';
import { cookieHeaders } from '~/controllers/auth-call.server';
import { phoneCodeSteps } from '~/controllers/phone-number.server';

/**
 * The phone part of /auth/sign_in's action: a code is sent only to a number verified on an account,
 * but every number reads the same answer.
 */
export async function phoneSignInAction(shop: ShopRequest, request: Request, form: Record<string, string>) {
  return phoneCodeSteps(shop, request, form, {
    verifyBody: {},
    onVerified: (result) =>
      redirect(safeRedirectPath(form.redirect || undefined), { headers: cookieHeaders(result.setCookies) }),
  });
}
