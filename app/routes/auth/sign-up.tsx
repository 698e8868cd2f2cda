// /auth/sign_up: ニックネーム, メール, パスワード (policy shown live), and agreement to the terms.
import { useState } from 'react';
import { Form, data, redirect, useNavigation, useSearchParams } from 'react-router';
import type { Route } from './+types/sign-up';
import { shopRequestContext } from '~/context';
import { Button } from '~/components/Button';
import { TextField, FormAlert } from '~/components/FormField';
import { AppLink } from '~/components/AppLink';
import { safeRedirectPath } from '~/guards/rules';
import { callAuth, cookieHeaders } from '~/lib/auth-call.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/lib/forms.server';
import { signUpSchema, fieldErrorsOf, type FieldErrors, type PasswordPolicy } from '#modules/identity';
import { authErrorMessage } from '#modules/identity';
import { SignInMethods } from '~/components/SignInMethods';
import { socialProvidersOn } from '~/lib/social-sign-in.server';

export const handle = { title: '新規会員登録' };

type ActionData = { fieldErrors?: FieldErrors; formError?: string; values?: { name?: string; email?: string } };

export function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(shopRequestContext);
  return {
    policy: { minLength: services.config.PASSWORD_MIN_LENGTH, maxLength: 128 } satisfies PasswordPolicy,
    providers: socialProvidersOn(services),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const shop = context.get(shopRequestContext);
  const policy = { minLength: shop.services.config.PASSWORD_MIN_LENGTH, maxLength: 128 };
  const form = await readFormFields(request);
  if (!form) return data<ActionData>({ formError: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  const values = { name: String(form.name ?? '').slice(0, 40), email: String(form.email ?? '').slice(0, 254) };
  const parsed = signUpSchema(policy).safeParse(form);
  if (!parsed.success) return data<ActionData>({ fieldErrors: fieldErrorsOf(parsed.error), values }, { status: 400 });
  const result = await callAuth(shop, request, '/sign-up/email', {
    name: parsed.data.name,
    email: parsed.data.email,
    password: parsed.data.password,
  });
  if (!result.ok) {
    const status = result.status === 429 ? 429 : result.code?.startsWith('USER_ALREADY_EXISTS') ? 409 : 400;
    const message = authErrorMessage(result.code, result.status);
    const onEmail = result.code?.startsWith('USER_ALREADY_EXISTS') || result.code === 'INVALID_EMAIL';
    return data<ActionData>(onEmail ? { fieldErrors: { email: message }, values } : { formError: message, values }, {
      status,
    });
  }
  return redirect(safeRedirectPath(parsed.data.redirect), { headers: cookieHeaders(result.setCookies) });
}

export default function SignUp({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const [password, setPassword] = useState('');
  const submitting = navigation.state !== 'idle' && navigation.formAction?.startsWith('/auth/sign_up') === true;
  const result = actionData as ActionData | undefined;
  const redirectTo = params.get('redirect') ?? '';
  const { policy } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-black">新規会員登録</h1>
        <p className="mt-1 text-sm text-muted">登録は無料です。メールアドレスとパスワードで始められます。</p>
      </div>
      <Form method="post" className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm" noValidate>
        <FormAlert message={result?.formError} />
        <input type="hidden" name="redirect" value={redirectTo} />
        <TextField
          name="name"
          label="ニックネーム"
          autoComplete="nickname"
          maxLength={20}
          required
          defaultValue={result?.values?.name}
          error={result?.fieldErrors?.name}
          hint="ランキングなどに表示されます（20文字以内）"
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
        <TextField
          name="password"
          type="password"
          label="パスワード"
          autoComplete="new-password"
          required
          minLength={policy.minLength}
          maxLength={policy.maxLength}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={result?.fieldErrors?.password}
          hint={<PasswordPolicyHint policy={policy} password={password} />}
        />
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

/** The password rules, ticked off while the member types. */
function PasswordPolicyHint({ policy, password }: { policy: PasswordPolicy; password: string }) {
  const longEnough = password.length >= policy.minLength;
  return (
    <span className={longEnough ? 'text-emerald-700' : undefined}>
      {longEnough ? '✓ ' : ''}
      {policy.minLength}文字以上（{policy.maxLength}文字まで）
    </span>
  );
}
