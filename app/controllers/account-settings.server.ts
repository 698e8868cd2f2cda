// /mypage/settings/profile (nickname, birthday), /mypage/settings/email (a new address, confirmed by
// the old one and the new one) and /mypage/settings/password (change, or set one for a member who
// signed up with a provider). Every change is the signed-in member's own, through better-auth with
// the member's cookies; the address and the password need the current password (or, without one,
// a sign-in younger than REAUTH_MAX_AGE_MINUTES).
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { signInPathFor } from '#modules/kernel/navigation';
import { visitorAnswer } from '~/controllers/members-only.server';
import { callAuth, cookieHeaders } from './auth-call.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from './forms.server';
import { nicknameRulesFor, passwordPolicyFor } from './identity.server';
import {
  authErrorMessage,
  birthdaySchema,
  changePasswordSchema,
  emailSchema,
  fieldErrorsOf,
  newPasswordSchema,
  nicknameSchemaOf,
  setWinnersFeedNamed,
  takeRateLimit,
  winnersFeedNamedOf,
  type FieldErrors,
  type PasswordPolicy,
} from '#modules/identity';
import { hasPassword, sessionIsRecent } from '#modules/identity/server';
import { maintenanceRefusal, refusalInit } from './maintenance.server';

export type SettingsActionData = { ok?: string; fieldErrors?: FieldErrors; formError?: string };

const invalid = (fields: FieldErrors, status = 400) => data<SettingsActionData>({ fieldErrors: fields }, { status });
const failed = (message: string, status = 400) => data<SettingsActionData>({ formError: message }, { status });

/** The signed-in member's session as better-auth keeps it, or a redirect to sign in. */
async function sessionOf(shop: ShopRequest, request: Request) {
  const session = await shop.services.auth.api.getSession({ headers: request.headers });
  if (!session) throw redirect(signInPathFor(new URL(request.url).pathname));
  return session;
}

/**
 * The current password, checked for this member (rate-limited like sign-in), or — for a member
 * without one — a recent sign-in. Answers the refusal to show, or null when the member proved it.
 */
async function reauthenticate(
  shop: ShopRequest,
  request: Request,
  session: Awaited<ReturnType<typeof sessionOf>>,
  password: string | undefined,
): Promise<SettingsActionData | null> {
  const { db, config, auth } = shop.services;
  if (!(await hasPassword(db, session.user.id))) {
    return sessionIsRecent(new Date(session.session.createdAt), config.REAUTH_MAX_AGE_MINUTES)
      ? null
      : { formError: authErrorMessage('SESSION_NOT_FRESH') };
  }
  if (!password) return { fieldErrors: { currentPassword: '現在のパスワードを入力してください。' } };
  const limit = await takeRateLimit(db, {
    key: `reauth:member:${session.user.id}`,
    windowSeconds: 60,
    max: config.SIGN_IN_ATTEMPTS_PER_MINUTE,
  });
  if (!limit.allowed) return { formError: authErrorMessage('TOO_MANY_REQUESTS', 429) };
  try {
    await auth.api.verifyPassword({ body: { password }, headers: request.headers });
    return null;
  } catch {
    return { fieldErrors: { currentPassword: 'パスワードが正しくありません。' } };
  }
}

// ---------------------------------------------------------------------------------------------
// Profile: nickname and birthday

export async function profileLoader(shop: ShopRequest, request: Request) {
  if (!shop.member) throw visitorAnswer(request);
  const session = await sessionOf(shop, request);
  const birthday = (session.user as { birthday?: string | null }).birthday ?? null;
  const [year, month, day] = birthday ? birthday.split('-') : ['', '', ''];
  return {
    name: session.user.name,
    birthday: { year: year ?? '', month: String(Number(month ?? '')) || '', day: String(Number(day ?? '')) || '' },
    nicknameMaxLength: shop.services.config.NICKNAME_MAX_LENGTH,
    winnersFeedNamed: await winnersFeedNamedOf(shop.services.db, session.user.id),
  };
}

export async function profileAction(shop: ShopRequest, request: Request) {
  if (!shop.member) throw redirect(signInPathFor(new URL(request.url).pathname));
  const closed = await maintenanceRefusal(shop);
  if (closed) return data<SettingsActionData>({ formError: closed.message }, refusalInit(closed));
  const form = await readFormFields(request);
  if (!form) return failed(UNREADABLE_FORM_MESSAGE);
  const name = nicknameSchemaOf(nicknameRulesFor(shop.services)).safeParse(form.name);
  const noBirthday = !form.year?.trim() && !form.month?.trim() && !form.day?.trim();
  const birthday = noBirthday
    ? null
    : birthdaySchema(new Date()).safeParse({ year: form.year ?? '', month: form.month ?? '', day: form.day ?? '' });
  const errors: FieldErrors = {};
  if (!name.success) errors.name = name.error.issues[0]?.message;
  if (birthday && !birthday.success) errors.birthday = birthday.error.issues[0]?.message;
  if (!name.success || (birthday && !birthday.success)) return invalid(errors);
  const result = await callAuth(shop, request, '/update-user', {
    name: name.data,
    birthday: birthday && birthday.success ? birthday.data : null,
  });
  if (!result.ok) return failed(authErrorMessage(result.code, result.status), result.status === 429 ? 429 : 400);
  // 当選履歴: named only when the member picks it; anything else (or nothing) keeps 匿名 (decision 036).
  await setWinnersFeedNamed(shop.services.db, shop.member.id, form.winnersFeed === 'named');
  return data<SettingsActionData>(
    { ok: 'プロフィールを保存しました。' },
    { headers: cookieHeaders(result.setCookies) },
  );
}

// ---------------------------------------------------------------------------------------------
// Email address

export async function emailLoader(shop: ShopRequest, request: Request) {
  if (!shop.member) throw visitorAnswer(request);
  const session = await sessionOf(shop, request);
  const url = new URL(request.url);
  return {
    email: session.user.email.endsWith('.invalid') ? null : session.user.email,
    verified: session.user.emailVerified,
    needsPassword: await hasPassword(shop.services.db, session.user.id),
    changed: url.searchParams.get('changed') === '1',
  };
}

export async function emailAction(shop: ShopRequest, request: Request) {
  if (!shop.member) throw redirect(signInPathFor(new URL(request.url).pathname));
  const closed = await maintenanceRefusal(shop);
  if (closed) return data<SettingsActionData>({ formError: closed.message }, refusalInit(closed));
  const form = await readFormFields(request);
  if (!form) return failed(UNREADABLE_FORM_MESSAGE);
  const session = await sessionOf(shop, request);
  const newEmail = emailSchema.safeParse(form.newEmail);
  if (!newEmail.success) return invalid({ newEmail: newEmail.error.issues[0]?.message });
  if (newEmail.data.toLowerCase() === session.user.email.toLowerCase())
    return invalid({ newEmail: '現在と同じメールアドレスです。' });
  const refused = await reauthenticate(shop, request, session, form.currentPassword);
  if (refused) return data<SettingsActionData>(refused, { status: refused.formError?.includes('多すぎ') ? 429 : 400 });
  const result = await callAuth(shop, request, '/change-email', {
    newEmail: newEmail.data,
    callbackURL: '/mypage/settings/email',
  });
  if (!result.ok) return failed(authErrorMessage(result.code, result.status), result.status === 429 ? 429 : 400);
  // The same answer whether or not the new address belongs to someone (better-auth sends nothing then).
  return data<SettingsActionData>({
    ok: `現在のアドレス（${session.user.email}）に承認のお願いをお送りしました。承認すると ${newEmail.data} に確認メールが届き、そのボタンで変更が完了します。`,
  });
}

// ---------------------------------------------------------------------------------------------
// Password

export async function passwordLoader(shop: ShopRequest, request: Request) {
  if (!shop.member) throw visitorAnswer(request);
  const session = await sessionOf(shop, request);
  return {
    policy: passwordPolicyFor(shop.services) satisfies PasswordPolicy,
    hasPassword: await hasPassword(shop.services.db, session.user.id),
  };
}

export async function passwordAction(shop: ShopRequest, request: Request) {
  if (!shop.member) throw redirect(signInPathFor(new URL(request.url).pathname));
  const form = await readFormFields(request);
  if (!form) return failed(UNREADABLE_FORM_MESSAGE);
  const session = await sessionOf(shop, request);
  const policy = passwordPolicyFor(shop.services);
  if (!(await hasPassword(shop.services.db, session.user.id))) {
    // A member who signed up with a provider sets a first password, after a recent sign-in.
    const parsed = newPasswordSchema(policy).safeParse(form.password);
    if (!parsed.success) return invalid({ password: parsed.error.issues[0]?.message });
    if (form.password !== form.confirm) return invalid({ confirm: '確認用のパスワードが一致しません。' });
    const refused = await reauthenticate(shop, request, session, undefined);
    if (refused) return data<SettingsActionData>(refused, { status: 400 });
    try {
      await shop.services.auth.api.setPassword({ body: { newPassword: parsed.data }, headers: request.headers });
    } catch (error) {
      const code = (error as { body?: { code?: string } }).body?.code ?? null;
      return failed(authErrorMessage(code));
    }
    return data<SettingsActionData>({
      ok: 'パスワードを設定しました。メールアドレスとパスワードでもログインできます。',
    });
  }
  const parsed = changePasswordSchema(policy).safeParse(form);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const result = await callAuth(shop, request, '/change-password', {
    currentPassword: parsed.data.currentPassword,
    newPassword: parsed.data.password,
    revokeOtherSessions: true,
  });
  if (!result.ok) {
    if (result.code === 'INVALID_PASSWORD') return invalid({ currentPassword: 'パスワードが正しくありません。' });
    if (result.code === 'PASSWORD_DOES_NOT_MEET_REQUIREMENTS' || result.code?.startsWith('PASSWORD_TOO'))
      return invalid({ password: authErrorMessage(result.code) });
    return failed(authErrorMessage(result.code, result.status), result.status === 429 ? 429 : 400);
  }
  // better-auth gives this device a new session (the others were signed out).
  return data<SettingsActionData>(
    { ok: 'パスワードを変更しました。ほかの端末からはログアウトしました。' },
    { headers: cookieHeaders(result.setCookies) },
  );
}
