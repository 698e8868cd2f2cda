// The two pages that use phone numbers, over better-auth's phoneNumber plugin (through callAuth, so
// its limits and the shop's hooks in modules/identity/phone.server.ts apply as for the raw API):
// /mypage/settings/phonenumber adds, changes or removes the member's number with an SMS code, and
// /auth/sign_in signs in with a verified number and a code (app/controllers/sign-in/phone.server.ts). Both are
// forms that work before hydration: every step answers the page's state (PhoneFormState), a resend too
// early says the seconds left.
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import {
  callAuth,
  captchaForNextTry,
  captchaHeaders,
  cookieHeaders,
  isCaptchaRefusal,
  type AuthCallResult,
} from './auth-call.server';
import { UNREADABLE_FORM_MESSAGE, readFormFields } from './forms.server';
import { settleInvitationNow } from './invitation.server';
import {
  AUTH_ERROR_MESSAGES,
  authErrorMessage,
  formatPhoneNumber,
  maskPhoneNumber,
  phoneCodeCooldownMessage,
  phoneCodeSchema,
  phoneNumberSchema,
  wrongPhoneCodeMessage,
} from '#modules/identity';
import { PHONE_CODE, hasSignInBesidesPhone, memberPhoneNumber, phoneNumberPolicy } from '#modules/identity/server';
import type { PhoneFormState } from '~/components/PhoneCodeSteps';
import { maintenanceRefusal, refusalInit } from './maintenance.server';

export const PHONE_SETTINGS_PATH = '/mypage/settings/phonenumber';
const SENT_NOTICE = 'SMSで認証コードを送信しました。届いた6桁のコードを入力してください。';

export interface PhoneSettingsData {
  current: { masked: string; verified: boolean } | null;
  /** Removing is offered only when the member can still sign in another way. */
  canRemove: boolean;
  notice: string | null;
}

/** The loader of /mypage/settings/phonenumber (members only: the route guard sends guests to sign in). */
export async function phoneSettingsLoader(shop: ShopRequest, request: Request): Promise<PhoneSettingsData> {
  if (!shop.member) return { current: null, canRemove: false, notice: null };
  const { db } = shop.services;
  const [{ phoneNumber, verified }, canRemove] = await Promise.all([
    memberPhoneNumber(db, shop.member.id),
    hasSignInBesidesPhone(db, shop.member.id),
  ]);
  const done = new URL(request.url).searchParams.get('done');
  return {
    current: phoneNumber ? { masked: maskPhoneNumber(phoneNumber), verified } : null,
    canRemove: Boolean(phoneNumber) && canRemove,
    notice: done === 'verified' ? '電話番号を認証しました。' : done === 'removed' ? '電話番号を削除しました。' : null,
  };
}

/** The action of /mypage/settings/phonenumber: phone-send, phone-verify (updatePhoneNumber) and phone-remove. */
export async function phoneSettingsAction(shop: ShopRequest, request: Request) {
  if (!shop.member) return answer({ step: 'number', formError: '安全のため、もう一度ログインしてください。' }, 401);
  const closed = await maintenanceRefusal(shop);
  if (closed) {
    const init = refusalInit(closed);
    return data(
      { phone: { step: 'number', formError: closed.message } satisfies PhoneFormState },
      { status: init.status, headers: { ...init.headers, 'Cache-Control': 'no-store' } },
    );
  }
  const form = await readFormFields(request);
  if (!form) return answer({ step: 'number', formError: UNREADABLE_FORM_MESSAGE }, 400);
  if (form.intent === 'phone-remove') {
    if (!(await hasSignInBesidesPhone(shop.services.db, shop.member.id)))
      return answer(
        {
          step: 'number',
          formError: 'ほかのログイン方法がないため、電話番号は削除できません。先にパスワードを設定してください。',
        },
        400,
      );
    const result = await callAuth(shop, request, '/update-user', { phoneNumber: null });
    if (!result.ok)
      return answer({ step: 'number', formError: authErrorMessage(result.code, result.status) }, failed(result));
    return redirect(`${PHONE_SETTINGS_PATH}?done=removed`, { headers: cookieHeaders(result.setCookies) });
  }
  return phoneCodeSteps(shop, request, form, {
    verifyBody: { updatePhoneNumber: true },
    onVerified: (result) =>
      redirect(`${PHONE_SETTINGS_PATH}?done=verified`, { headers: cookieHeaders(result.setCookies) }),
  });
}

/**
 * The number step and the code step (intent=phone-send, phone-verify), shared by both pages; each
 * page says what a verified code does. The code is a guarded check: after repeated failures the code
 * step carries the captcha (as soon as the counts ask for it, or when the guard refused without it)
 * and its token goes with the code.
 * @example return phoneCodeSteps(shop, request, form, { verifyBody: {}, onVerified: (result) => redirect('/') })
 */
export async function phoneCodeSteps(
  shop: ShopRequest,
  request: Request,
  form: Record<string, string>,
  options: { verifyBody: Record<string, unknown>; onVerified: (result: AuthCallResult) => Response },
) {
  const numbers = phoneNumberSchema(phoneNumberPolicy(shop.services.config));
  /** The code step for this number; `result`: the check just refused, if any. */
  const codeStepFor = async (phoneNumber: string, result: AuthCallResult | null) => ({
    step: 'code' as const,
    phoneNumber,
    shownNumber: formatPhoneNumber(phoneNumber),
    captcha: await captchaForNextTry(shop, request, result, { phoneNumber }),
  });
  if (form.intent === 'phone-send') {
    const parsed = numbers.safeParse(form.phoneNumber);
    if (!parsed.success)
      return answer(
        {
          step: 'number',
          typed: form.phoneNumber ?? '',
          fieldErrors: { phoneNumber: parsed.error.issues[0]!.message },
        },
        400,
      );
    const phoneNumber = parsed.data;
    const result = await callAuth(shop, request, '/phone-number/send-otp', { phoneNumber });
    if (result.ok)
      return answer(
        {
          ...(await codeStepFor(phoneNumber, null)),
          notice: SENT_NOTICE,
          cooldownSeconds: PHONE_CODE.resendCooldownSeconds,
        },
        200,
      );
    if (result.code === 'PHONE_CODE_COOLDOWN') {
      // A code went out moments ago and still works: go on to the code, with the seconds left.
      const seconds = Number(result.body?.retryAfterSeconds) || PHONE_CODE.resendCooldownSeconds;
      return answer(
        {
          ...(await codeStepFor(phoneNumber, null)),
          formError: phoneCodeCooldownMessage(seconds),
          cooldownSeconds: seconds,
        },
        429,
      );
    }
    return answer(
      { step: 'number', typed: form.phoneNumber ?? '', formError: authErrorMessage(result.code, result.status) },
      failed(result),
    );
  }
  if (form.intent === 'phone-verify') {
    const number = numbers.safeParse(form.phoneNumber);
    if (!number.success) return answer({ step: 'number', formError: number.error.issues[0]!.message }, 400);
    const phoneNumber = number.data;
    const code = phoneCodeSchema.safeParse(form.code);
    if (!code.success)
      return answer(
        { ...(await codeStepFor(phoneNumber, null)), fieldErrors: { code: code.error.issues[0]!.message } },
        400,
      );
    const result = await callAuth(
      shop,
      request,
      '/phone-number/verify',
      { phoneNumber, code: code.data, ...options.verifyBody },
      { headers: captchaHeaders(form) },
    );
    if (result.ok) {
      // A verified phone is half of an invitation's reward: settle it now if the purchase is there (decision 038).
      await settleInvitationNow(shop);
      return options.onVerified(result);
    }
    if (result.code === 'PHONE_NUMBER_EXIST')
      return answer({ step: 'number', formError: AUTH_ERROR_MESSAGES.PHONE_NUMBER_EXIST }, 409);
    const codeStep = await codeStepFor(phoneNumber, result);
    // The code was not looked at: the message asks for the check, and the typed code stays.
    if (isCaptchaRefusal(result))
      return answer({ ...codeStep, formError: authErrorMessage(result.code, result.status) }, failed(result));
    const message =
      result.code === 'INVALID_OTP'
        ? wrongPhoneCodeMessage(typeof result.body?.attemptsLeft === 'number' ? result.body.attemptsLeft : null)
        : authErrorMessage(result.code, result.status);
    return answer({ ...codeStep, fieldErrors: { code: message } }, failed(result));
  }
  return answer({ step: 'number', formError: UNREADABLE_FORM_MESSAGE }, 400);
}

/** A refusal's status on the page: the plugin's 4xx as they are; a failure on our side 503 (try again). */
function failed(result: AuthCallResult): number {
  return result.status >= 400 && result.status < 500 ? result.status : 503;
}

function answer(state: PhoneFormState, status: number) {
  return data({ phone: state }, { status, headers: { 'Cache-Control': 'no-store' } });
}
