// /auth/sign_up: ニックネーム, メール, パスワード (policy shown live), and agreement to the terms.
import { Form, data, useNavigation, useSearchParams } from 'react-router';
import type { Route } from './+types/sign-up';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { TextField, FormAlert } from '~/components/FormField';
import { AppLink } from '~/components/AppLink';
import { safeRedirectPath } from '#modules/kernel/navigation';
import { callAuth, cookieHeaders } from '~/controllers/auth-call.server';
import { invitationCookiesOf, invitationNoticeOf } from '~/controllers/invitation.server';
import { InvitationNotice } from '~/components/InvitationNotice';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { nicknameRulesFor, passwordPolicyFor } from '~/controllers/identity.server';
import { signUpSchema, emailOnlySchema, fieldErrorsOf, authErrorMessage, type FieldErrors } from '#modules/identity';
import { SignInMethods } from '~/components/SignInMethods';
import { NewPasswordField } from '~/components/auth/PasswordField';
import { VerificationSent } from '~/components/auth/VerificationSent';
import { socialProvidersOn } from '~/controllers/social-sign-in.server';

export const handle = { title: '新規会員登録' };

type ActionData = {
  fieldErrors?: FieldErrors;
  formError?: string;
  values?: { name?: string; email?: string };
  /** The confirmation mail is on its way (the same answer for a new and a known address). */
  sent?: { email: string; resent?: boolean };
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const { services } = shop;
  return {
    policy: passwordPolicyFor(services),
    nicknameMaxLength: services.config.NICKNAME_MAX_LENGTH,
    providers: socialProvidersOn(services),
    // A friend's invitation link was opened (/r?code=…): the sign-up attaches it (decision 038).
    invitation: await invitationNoticeOf(shop, request),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const shop = context.get(shopRequestContext);
  const form = await readFormFields(request);
  if (!form) return data<ActionData>({ formError: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  if (form.intent === 'resend') return resendConfirmation(shop, request, form);
  const policy = passwordPolicyFor(shop.services);
  const values = { name: String(form.name ?? '').slice(0, 40), email: String(form.email ?? '').slice(0, 254) };
  const parsed = signUpSchema(policy, nicknameRulesFor(shop.services)).safeParse(form);
  if (!parsed.success) return data<ActionData>({ fieldErrors: fieldErrorsOf(parsed.error), values }, { status: 400 });
  const result = await callAuth(shop, request, '/sign-up/email', {
    name: parsed.data.name,
    email: parsed.data.email,
    password: parsed.data.password,
    callbackURL: safeRedirectPath(parsed.data.redirect),
  });
  if (!result.ok) {
    const message = authErrorMessage(result.code, result.status);
    const field =
      result.code === 'INVALID_EMAIL'
        ? 'email'
        : result.code === 'PASSWORD_DOES_NOT_MEET_REQUIREMENTS' || result.code?.startsWith('PASSWORD_TOO')
          ? 'password'
          : result.code === 'INVALID_NICKNAME'
            ? 'name'
            : null;
    // The loader runs again after this answer, so the form shows the policy as it is now (section 5).
    return data<ActionData>(field ? { fieldErrors: { [field]: message }, values } : { formError: message, values }, {
      status: result.status === 429 ? 429 : 400,
    });
  }
  // The invitation's cookies (the code cleared, the analytics event) reach the browser with this answer.
  return data<ActionData>(
    { sent: { email: parsed.data.email } },
    { headers: cookieHeaders(invitationCookiesOf(result.setCookies)) },
  );
}

/** 「確認メールを再送する」: the same answer whether or not the address has an account. */
async function resendConfirmation(
  shop: Parameters<typeof callAuth>[0],
  request: Request,
  form: Record<string, string>,
) {
  const parsed = emailOnlySchema().safeParse(form);
  if (!parsed.success) return data<ActionData>({ formError: fieldErrorsOf(parsed.error).email }, { status: 400 });
  const result = await callAuth(shop, request, '/send-verification-email', {
    email: parsed.data.email,
    callbackURL: safeRedirectPath(parsed.data.redirect),
  });
  if (!result.ok && result.status === 429)
    return data<ActionData>(
      { sent: { email: parsed.data.email }, formError: authErrorMessage(result.code, 429) },
      { status: 429 },
    );
  return data<ActionData>({ sent: { email: parsed.data.email, resent: true } });
}

export default function SignUp({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const submitting = navigation.state !== 'idle' && navigation.formAction?.startsWith('/auth/sign_up') === true;
  const result = actionData as ActionData | undefined;
  const redirectTo = params.get('redirect') ?? '';
  const { policy, nicknameMaxLength } = loaderData;
  if (result?.sent)
    return (
      <VerificationSent
        email={result.sent.email}
        resent={result.sent.resent}
        error={result.formError}
        redirectTo={redirectTo}
        submitting={submitting}
      />
    );
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-black">新規会員登録</h1>
        <p className="mt-1 text-sm text-muted">
          登録は無料です。メールアドレスとパスワードで始められます。登録後に届くメールのリンクで登録が完了します。
        </p>
      </div>
      {loaderData.invitation ? <InvitationNotice notice={loaderData.invitation} /> : null}
      <Form method="post" className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm" noValidate>
        <FormAlert message={result?.formError} />
        <input type="hidden" name="redirect" value={redirectTo} />
        <TextField
          name="name"
          label="ニックネーム"
          autoComplete="nickname"
          maxLength={nicknameMaxLength}
          required
          defaultValue={result?.values?.name}
          error={result?.fieldErrors?.name}
          hint={`ランキングなどに表示されます（${nicknameMaxLength}文字以内）`}
        />
        <TextField
          name="email"
          type="email"
          label="メールアドレス"
          autoComplete="email"
          inputMode="email"
          required
          defaultValue={result?.values?.email}
          error={result?.fieldErrors?.email}
        />
        <NewPasswordField policy={policy} error={result?.fieldErrors?.password} />
        <div className="flex flex-col gap-1">
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              name="agreeToTerms"
              className="mt-0.5 size-5 accent-primary"
              aria-invalid={result?.fieldErrors?.agreeToTerms ? true : undefined}
              aria-describedby={result?.fieldErrors?.agreeToTerms ? 'agree-error' : undefined}
            />
            <span>
              <AppLink to="/terms" className="text-primary-ink underline">
                利用規約
              </AppLink>
              と
              <AppLink to="/privacy" className="text-primary-ink underline">
                プライバシーポリシー
              </AppLink>
              に同意します
            </span>
          </label>
          {result?.fieldErrors?.agreeToTerms ? (
            <p id="agree-error" className="text-sm font-bold text-red-600">
              {result.fieldErrors.agreeToTerms}
            </p>
          ) : null}
        </div>
        <Button type="submit" size="lg" fullWidth loading={submitting}>
          登録する
        </Button>
      </Form>
      <SignInMethods mode="sign-up" providers={loaderData.providers} redirectTo={redirectTo} />
      <p className="text-center text-sm">
        すでに会員の方は{' '}
        <AppLink
          to={redirectTo ? `/auth/sign_in?redirect=${encodeURIComponent(redirectTo)}` : '/auth/sign_in'}
          className="font-bold text-primary-ink underline underline-offset-2"
        >
          ログイン
        </AppLink>
      </p>
    </div>
  );
}
