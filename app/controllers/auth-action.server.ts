// /auth/action?mode=…&oobCode=…: the page every identity mail links to. Opening it spends nothing
// (a mail scanner may open it); it checks what can be checked without using the code, and the
// member's press does the work. Expired or used codes get a page with a way to ask again.
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { safeRedirectPath } from '#modules/kernel/navigation';
import { callAuth, captchaForNextTry, captchaHeaders, cookieHeaders } from './auth-call.server';
import type { CaptchaWidget } from '~/components/Captcha';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from './forms.server';
import { passwordPolicyFor } from './identity.server';
import { signInWithAppToken } from './app-handoff.server';
import {
  ACTION_MODES,
  authErrorMessage,
  fieldErrorsOf,
  resetPasswordSchema,
  type ActionMode,
  type FieldErrors,
  type PasswordPolicy,
} from '#modules/identity';
import { peekRecoverEmail, recoverEmail, resetCodeIsValid, verificationClaimsOf } from '#modules/identity/server';

/** Why a link cannot be used; each has its own words and its own way to ask again. */
export type DeadLinkReason =
  'missing' | 'expired' | 'used' | 'mismatch' | 'changed-again' | 'address-taken' | 'not-app' | 'limited';

export type ActionPageData =
  | { state: 'dead'; mode: ActionMode | null; reason: DeadLinkReason }
  | { state: 'done'; mode: ActionMode }
  | { state: 'confirm'; mode: 'verifyEmail' | 'signIn'; code: string; email: string | null; continueUrl: string }
  | {
      state: 'confirm';
      mode: 'verifyAndChangeEmail' | 'approveEmailChange';
      code: string;
      email: string | null;
      newEmail: string | null;
      continueUrl: string;
    }
  | { state: 'confirm'; mode: 'recoverEmail'; code: string; email: string; newEmail: string; continueUrl: string }
  | {
      state: 'confirm';
      mode: 'resetPassword';
      code: string;
      policy: PasswordPolicy;
      continueUrl: string;
      /** Failures from this address already ask for the captcha (a reset follows wrong passwords). */
      captcha: CaptchaWidget | null;
    };

export type ActionResultData =
  | { state: 'done'; mode: ActionMode; email?: string }
  | { state: 'dead'; mode: ActionMode; reason: DeadLinkReason }
  | {
      state: 'invalid';
      fieldErrors?: FieldErrors;
      formError?: string;
      /** The new password's form needs the captcha for the next try (after repeated failures). */
      captcha?: CaptchaWidget | null;
    };

const CODE = /^[A-Za-z0-9._-]{8,2048}$/;
const isMode = (value: string | null): value is ActionMode =>
  value !== null && (ACTION_MODES as readonly string[]).includes(value);

function linkOf(request: Request) {
  const url = new URL(request.url);
  const mode = url.searchParams.get('mode');
  const code = url.searchParams.get('oobCode') ?? '';
  return {
    mode: isMode(mode) ? mode : null,
    code: CODE.test(code) ? code : null,
    continueUrl: safeRedirectPath(url.searchParams.get('continueUrl')),
  };
}

const dead = (mode: ActionMode | null, reason: DeadLinkReason, status = 410) =>
  data<ActionPageData>({ state: 'dead', mode, reason }, { status });

/** The page for a link: what it will do, or why it cannot. */
export async function actionPageLoader(shop: ShopRequest, request: Request) {
  // After a press: the page the action redirected to (Post/Redirect/Get: a reload sends nothing again).
  const done = new URL(request.url).searchParams.get('done');
  if (isMode(done)) return data<ActionPageData>({ state: 'done', mode: done });
  const { mode, code, continueUrl } = linkOf(request);
  // A bare or garbled link is a page that says so (the route exists), not an error status.
  if (!mode || !code) return dead(mode, 'missing', 200);
  const now = Date.now();
  switch (mode) {
    case 'customToken': {
      // The native app's one-time token: it signs its member in at once (the app's web view only).
      const outcome = await signInWithAppToken(shop, request, code, continueUrl);
      const reason: DeadLinkReason =
        outcome.kind === 'not-app'
          ? 'not-app'
          : outcome.kind === 'limited'
            ? 'limited'
            : outcome.kind === 'other-member'
              ? 'mismatch'
              : 'used';
      return dead(mode, reason, outcome.kind === 'limited' ? 429 : outcome.kind === 'other-member' ? 409 : 410);
    }
    case 'verifyEmail':
    case 'verifyAndChangeEmail':
    case 'approveEmailChange': {
      // Read for the page's words only; the press verifies the signature.
      const claims = verificationClaimsOf(code) as { email?: string; updateTo?: string; exp?: number };
      if (typeof claims.exp === 'number' && claims.exp * 1000 <= now) return dead(mode, 'expired');
      if (mode === 'verifyEmail')
        return data<ActionPageData>({ state: 'confirm', mode, code, email: claims.email ?? null, continueUrl });
      return data<ActionPageData>({
        state: 'confirm',
        mode,
        code,
        email: claims.email ?? null,
        newEmail: claims.updateTo ?? null,
        continueUrl,
      });
    }
    case 'signIn':
      return data<ActionPageData>({ state: 'confirm', mode, code, email: null, continueUrl });
    case 'resetPassword': {
      const context = await shop.services.auth.$context;
      if (!(await resetCodeIsValid(context, code))) return dead(mode, 'expired');
      return data<ActionPageData>({
        state: 'confirm',
        mode,
        code,
        policy: passwordPolicyFor(shop.services),
        continueUrl,
        // The reset names no account by email: the guard judges the address, and so does the page.
        captcha: await captchaForNextTry(shop, request, null, {}),
      });
    }
    case 'recoverEmail': {
      const peeked = await peekRecoverEmail(await shop.services.auth.$context, code);
      if (!peeked.ok) return dead(mode, peeked.reason === 'invalid' ? 'used' : peeked.reason);
      return data<ActionPageData>({
        state: 'confirm',
        mode,
        code,
        email: peeked.email,
        newEmail: peeked.newEmail ?? '',
        continueUrl,
      });
    }
  }
}

const doneUrl = (mode: ActionMode) => `/auth/action?done=${mode}`;

const deadByCode = (mode: ActionMode, code: string | null) =>
  data<ActionResultData>(
    {
      state: 'dead',
      mode,
      reason: code === 'TOKEN_EXPIRED' ? 'expired' : code === 'INVALID_USER' ? 'mismatch' : 'used',
    },
    { status: 410 },
  );

/** The member's press: verify, sign in, set the new password or put the old address back. */
export async function actionPageAction(shop: ShopRequest, request: Request) {
  const { mode, code, continueUrl } = linkOf(request);
  if (!mode || !code)
    return data<ActionResultData>({ state: 'dead', mode: mode ?? 'verifyEmail', reason: 'missing' }, { status: 404 });
  const form = await readFormFields(request);
  if (!form) return data<ActionResultData>({ state: 'invalid', formError: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  switch (mode) {
    case 'verifyEmail':
    case 'verifyAndChangeEmail':
    case 'approveEmailChange': {
      const result = await callAuth(shop, request, '/verify-email', {}, { method: 'GET', query: { token: code } });
      if (!result.ok) {
        if (result.status === 429)
          return data<ActionResultData>({ state: 'invalid', formError: authErrorMessage(null, 429) }, { status: 429 });
        return deadByCode(mode, result.code);
      }
      if (mode === 'approveEmailChange') return redirect(doneUrl(mode));
      if (mode === 'verifyAndChangeEmail')
        return redirect('/mypage/settings/email?changed=1', { headers: cookieHeaders(result.setCookies) });
      return redirect(continueUrl, { headers: cookieHeaders(result.setCookies) });
    }
    case 'signIn': {
      const result = await callAuth(shop, request, '/magic-link/verify', {}, { method: 'GET', query: { token: code } });
      if (!result.ok) {
        if (result.status === 429)
          return data<ActionResultData>({ state: 'invalid', formError: authErrorMessage(null, 429) }, { status: 429 });
        if (result.code === 'SECOND_FACTOR_NEEDS_PASSWORD')
          return data<ActionResultData>(
            { state: 'invalid', formError: authErrorMessage(result.code) },
            { status: 403 },
          );
        return deadByCode(mode, result.code === 'INVALID_TOKEN' ? 'TOKEN_EXPIRED' : result.code);
      }
      return redirect(continueUrl, { headers: cookieHeaders(result.setCookies) });
    }
    case 'resetPassword': {
      const parsed = resetPasswordSchema(passwordPolicyFor(shop.services)).safeParse(form);
      if (!parsed.success)
        return data<ActionResultData>({ state: 'invalid', fieldErrors: fieldErrorsOf(parsed.error) }, { status: 400 });
      const result = await callAuth(
        shop,
        request,
        '/reset-password',
        { newPassword: parsed.data.password, token: code },
        { headers: captchaHeaders(form) },
      );
      if (!result.ok) {
        if (result.code === 'INVALID_TOKEN') return deadByCode(mode, 'TOKEN_EXPIRED');
        const message = authErrorMessage(result.code, result.status);
        const onPassword =
          result.code === 'PASSWORD_DOES_NOT_MEET_REQUIREMENTS' || result.code?.startsWith('PASSWORD_TOO');
        const captcha = await captchaForNextTry(shop, request, result, {});
        return data<ActionResultData>(
          onPassword
            ? { state: 'invalid', fieldErrors: { password: message }, captcha }
            : { state: 'invalid', formError: message, captcha },
          { status: result.status === 429 ? 429 : 400 },
        );
      }
      return redirect(doneUrl(mode));
    }
    case 'customToken':
      return data<ActionResultData>({ state: 'dead', mode, reason: 'used' }, { status: 405 });
    case 'recoverEmail': {
      const outcome = await recoverEmail(await shop.services.auth.$context, code);
      if (!outcome.ok)
        return data<ActionResultData>(
          { state: 'dead', mode, reason: outcome.reason === 'invalid' ? 'used' : outcome.reason },
          { status: 410 },
        );
      return redirect(doneUrl(mode));
    }
  }
}
