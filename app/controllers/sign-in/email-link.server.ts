// 「メールでログインリンクを受け取る」 on /auth/sign_in: better-auth's /sign-in/magic-link; the same answer
// for every address, and only members get a mail (the link lands on /auth/action?mode=signIn).
import { data } from 'react-router';
import type { ShopRequest } from '#server/context';
import { safeRedirectPath } from '#modules/kernel/navigation';
import { callAuth } from '~/controllers/auth-call.server';
import { authErrorMessage, emailOnlySchema, fieldErrorsOf } from '#modules/identity';

/** What the email-link form reads back: the address it answered for, or why it could not. */
export type EmailLinkSignInData = {
  emailLink?: { sent?: string; error?: string; fieldError?: string };
};

/** The email-link form (intent=email-link, `email`, `redirect`). */
export async function emailLinkSignInAction(shop: ShopRequest, request: Request, form: Record<string, string>) {
  const parsed = emailOnlySchema().safeParse(form);
  if (!parsed.success)
    return data<EmailLinkSignInData>({ emailLink: { fieldError: fieldErrorsOf(parsed.error).email } }, { status: 400 });
  const result = await callAuth(shop, request, '/sign-in/magic-link', {
    email: parsed.data.email,
    callbackURL: safeRedirectPath(parsed.data.redirect),
  });
  if (!result.ok && result.status === 429)
    return data<EmailLinkSignInData>({ emailLink: { error: authErrorMessage(result.code, 429) } }, { status: 429 });
  if (!result.ok) shop.services.logger.warn({ code: result.code, status: result.status }, 'email link request failed');
  return data<EmailLinkSignInData>({ emailLink: { sent: parsed.data.email } });
}
