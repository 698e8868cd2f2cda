// The code step of /auth/sign_in (`?step=code`, or `?step=backup` for a backup code): a member with the
// second factor on has only better-auth's short two_factor cookie after the password, and the session
// is given once the code is right (better-auth's /two-factor/verify-*, through callAuth). After repeated
// failures the abuse guard asks for the captcha here too: the step shows the widget as soon as it is
// needed (secondStepCaptcha, on opening) or asked for (the refusal), and forwards its token.
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { safeRedirectPath } from '#modules/kernel/navigation';
import {
  callAuth,
  captchaForNextTry,
  captchaHeaders,
  cookieHeaders,
  type AuthCallResult,
} from '~/controllers/auth-call.server';
import type { CaptchaWidget } from '~/components/Captcha';
import { CODE_FORMAT_MESSAGE } from '~/controllers/second-factor.server';
import { authErrorMessage } from '#modules/identity';
import { TRUST_DEVICE_DAYS, isTotpCode, normaliseBackupCode, normaliseOtp } from '#modules/identity/server';

/** Whether better-auth answered a password sign-in with "two factor required" (its short two_factor cookie). */
export function needsSecondStep(result: AuthCallResult): boolean {
  return result.setCookies.some((line) => /\.two_factor=[^;]+/.test(line) && !/max-age=0/i.test(line));
}

/** /auth/sign_in's code step, keeping where the member was going. */
export function secondStepPath(redirectTo: string | undefined, step: 'code' | 'backup' = 'code'): string {
  const params = new URLSearchParams({ step });
  const target = safeRedirectPath(redirectTo);
  if (target !== '/') params.set('redirect', target);
  return `/auth/sign_in?${params.toString()}`;
}

export type SecondStepActionData = {
  step: 'code' | 'backup';
  formError: string;
  /** The two-factor cookie expired or ran out of attempts: start again with the password. */
  restart?: boolean;
  /** The captcha the next try needs (after repeated failures), or null. */
  captcha?: CaptchaWidget | null;
};

/**
 * The widget for the code step as it opens: failures from this address (wrong passwords before it,
 * say) may already ask for a captcha, so the member solves it with the first code, not after a refusal.
 * The account behind the two-factor cookie is counted by the guard but not looked up here: the cookie
 * lives ten minutes in one browser, whose address's count is at least as high.
 * @example const captcha = step ? await secondStepCaptcha(shop, request) : null
 */
export function secondStepCaptcha(shop: ShopRequest, request: Request): Promise<CaptchaWidget | null> {
  return captchaForNextTry(shop, request, null, {});
}

const RESTART_CODES = new Set([
  'INVALID_TWO_FACTOR_COOKIE',
  'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE',
  'FAILED_TO_INVALIDATE_TWO_FACTOR_CHALLENGE',
]);

/**
 * The second step of a password sign-in (intent=second-factor): `step=code` (a TOTP code) or
 * `step=backup` (a backup code), `trustDevice=on` for 「この端末を30日間信頼する」, and `redirect`. On
 * success the session cookie is set and the member continues to `redirect`.
 */
export async function secondStepAction(shop: ShopRequest, request: Request, form: Record<string, string>) {
  const step = form.step === 'backup' ? 'backup' : 'code';
  const trustDevice = form.trustDevice === 'on' || form.trustDevice === 'true';
  const withCaptcha = { headers: captchaHeaders(form) };
  let result: AuthCallResult;
  if (step === 'code') {
    const code = normaliseOtp(form.code);
    if (!isTotpCode(code)) return data<SecondStepActionData>({ step, formError: CODE_FORMAT_MESSAGE }, { status: 400 });
    result = await callAuth(shop, request, '/two-factor/verify-totp', { code, trustDevice }, withCaptcha);
  } else {
    const code = normaliseBackupCode(form.code);
    if (!/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/.test(code))
      return data<SecondStepActionData>(
        { step, formError: 'バックアップコード（10文字、英数字）を入力してください。' },
        { status: 400 },
      );
    result = await callAuth(shop, request, '/two-factor/verify-backup-code', { code, trustDevice }, withCaptcha);
  }
  if (!result.ok) {
    const restart = RESTART_CODES.has(result.code ?? '');
    // A dead challenge starts again with the password, where the password form asks for the captcha.
    const captcha = restart ? null : await captchaForNextTry(shop, request, result, {});
    return data<SecondStepActionData>(
      { step, formError: authErrorMessage(result.code, result.status), restart, captcha },
      { status: result.status === 429 ? 429 : 401, headers: cookieHeaders(result.setCookies) },
    );
  }
  return redirect(safeRedirectPath(form.redirect), { headers: cookieHeaders(result.setCookies) });
}

export { TRUST_DEVICE_DAYS };
