// /auth/sign_in's email and password form: better-auth's /sign-in/email through callAuth (so the abuse
// guard's limits and captcha apply); a member with TOTP continues to the code step (second-factor.server.ts).
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { safeRedirectPath } from '#modules/kernel/navigation';
import { callAuth, captchaForNextTry, captchaHeaders, cookieHeaders } from '~/controllers/auth-call.server';
import type { CaptchaWidget } from '~/components/Captcha';
import { authErrorMessage, fieldErrorsOf, signInSchema, type FieldErrors } from '#modules/identity';
import { needsSecondStep, secondStepPath } from './second-factor.server';

/** What the password form reads back from its action. */
export type PasswordSignInData = {
  fieldErrors?: FieldErrors;
  formError?: string;
  email?: string;
  /** After repeated failures: the captcha widget's settings (the next try needs its token). */
  captcha?: CaptchaWidget | null;
  /** The address has not been confirmed yet: a new confirmation mail went out. */
  unverified?: boolean;
};

/**
 * The password form (`email`, `password`, `redirect`, the captcha's token after failures): signed in
 * and on to `redirect`, on to the code step, or the form again with its error.
 */
export async function passwordSignInAction(shop: ShopRequest, request: Request, form: Record<string, string>) {
  const parsed = signInSchema().safeParse(form);
  if (!parsed.success) {
    return data<PasswordSignInData>(
      { fieldErrors: fieldErrorsOf(parsed.error), email: String(form.email ?? '') },
      { status: 400 },
    );
  }
  const result = await callAuth(
    shop,
    request,
    '/sign-in/email',
    {
      email: parsed.data.email,
      password: parsed.data.password,
      rememberMe: true,
      callbackURL: safeRedirectPath(parsed.data.redirect),
    },
    { headers: captchaHeaders(form) },
  );
  if (!result.ok && result.code === 'EMAIL_NOT_VERIFIED') {
    // Only someone who knows the password gets here; better-auth sent a fresh confirmation mail.
    return data<PasswordSignInData>({ unverified: true, email: parsed.data.email }, { status: 403 });
  }
  if (!result.ok) {
    const captcha = await captchaForNextTry(shop, request, result, { email: parsed.data.email });
    return data<PasswordSignInData>(
      { formError: authErrorMessage(result.code, result.status), email: parsed.data.email, captcha },
      { status: result.status === 429 ? 429 : result.status === 400 ? 400 : 401 },
    );
  }
  // "Two factor required": no session yet, only better-auth's short two_factor cookie; ask for the code.
  if (needsSecondStep(result))
    return redirect(secondStepPath(parsed.data.redirect), { headers: cookieHeaders(result.setCookies) });
  return redirect(safeRedirectPath(parsed.data.redirect), { headers: cookieHeaders(result.setCookies) });
}
