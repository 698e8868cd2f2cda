// /auth/sign_in: email and password; the member returns to `redirect` (only a path on this site).
import { Form, data, redirect, useNavigation, useSearchParams } from 'react-router';
import type { Route } from './+types/sign-in';
import { shopRequestContext } from '~/context';
import { Button } from '~/components/Button';
import { TextField, FormAlert } from '~/components/FormField';
import { AppLink } from '~/components/AppLink';
import { safeRedirectPath } from '~/guards/rules';
import { callAuth, cookieHeaders } from '~/lib/auth-call.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/lib/forms.server';
import { signInSchema, fieldErrorsOf, type FieldErrors } from '#modules/identity';
import { authErrorMessage } from '#modules/identity';
import { SignInMethods } from '~/components/SignInMethods';
import { socialProvidersOn, socialSignInAction } from '~/lib/social-sign-in.server';

export const handle = { title: 'ログイン' };

type ActionData = { fieldErrors?: FieldErrors; formError?: string; email?: string };

/** The social buttons on offer, and a social sign-in's error (better-auth's `?error=` on return). */
export function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context.get(shopRequestContext);
  const error = new URL(request.url).searchParams.get('error');
  return { providers: socialProvidersOn(services), socialError: error ? authErrorMessage(error.slice(0, 100)) : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const shop = context.get(shopRequestContext);
  const form = await readFormFields(request);
  if (!form) return data<ActionData>({ formError: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  if (form.intent === 'social') return socialSignInAction(shop, request, form);
  const parsed = signInSchema().safeParse(form);
  if (!parsed.success) {
    return data<ActionData>(
      { fieldErrors: fieldErrorsOf(parsed.error), email: String(form.email ?? '') },
      { status: 400 },
    );
  }
  const result = await callAuth(shop, request, '/sign-in/email', {
    email: parsed.data.email,
    password: parsed.data.password,
    rememberMe: true,
  });
  if (!result.ok) {
    return data<ActionData>(
      { formError: authErrorMessage(result.code, result.status), email: parsed.data.email },
      { status: result.status === 429 ? 429 : 401 },
    );
  }
  return redirect(safeRedirectPath(parsed.data.redirect), { headers: cookieHeaders(result.setCookies) });
}

export default function SignIn({ actionData, loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const submitting = navigation.state !== 'idle' && navigation.formAction?.startsWith('/auth/sign_in') === true;
  const redirectTo = params.get('redirect') ?? '';
  const result = actionData as ActionData | undefined;
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-black">ログイン</h1>
        {redirectTo ? <p className="mt-1 text-sm text-muted">続けるにはログインしてください。</p> : null}
      </div>
      <Form method="post" className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm" noValidate>
        <FormAlert message={result?.formError ?? loaderData?.socialError} />
        <input type="hidden" name="redirect" value={redirectTo} />
        <TextField
          name="email"
          type="email"
          label="メールアドレス"
          autoComplete="email"
          inputMode="email"
          required
          defaultValue={result?.email}
          error={result?.fieldErrors?.email}
        />
        <TextField
          name="password"
          type="password"
          label="パスワード"
          autoComplete="current-password"
          required
          error={result?.fieldErrors?.password}
        />
        <Button type="submit" size="lg" fullWidth loading={submitting}>
          ログイン
        </Button>
        <AppLink to="/auth/passwd" className="text-center text-sm text-muted underline underline-offset-2">
          パスワードをお忘れの方
        </AppLink>
      </Form>
      <SignInMethods mode="sign-in" providers={loaderData?.providers} redirectTo={redirectTo} />
      <p className="text-center text-sm">
        はじめての方は{' '}
        <AppLink
          to={redirectTo ? `/auth/sign_up?redirect=${encodeURIComponent(redirectTo)}` : '/auth/sign_up'}
          className="font-bold text-primary-ink underline underline-offset-2"
        >
          新規会員登録
        </AppLink>
      </p>
    </div>
  );
}
