// /auth/passwd: ask for a password reset mail. The answer is the same for every address (no account
// enumeration); only an address with an account gets the mail, whose link opens /auth/action.
import { Form, data, useNavigation } from 'react-router';
import type { Route } from './+types/passwd';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { FormAlert, TextField } from '~/components/FormField';
import { AppLink } from '~/components/AppLink';
import { callAuth } from '~/controllers/auth-call.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { authErrorMessage, emailOnlySchema, fieldErrorsOf, type FieldErrors } from '#modules/identity';

export const handle = { title: 'パスワード再設定' };

type ActionData = { sent?: string; fieldErrors?: FieldErrors; formError?: string; email?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const shop = context.get(shopRequestContext);
  const form = await readFormFields(request);
  if (!form) return data<ActionData>({ formError: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  const parsed = emailOnlySchema().safeParse(form);
  if (!parsed.success)
    return data<ActionData>(
      { fieldErrors: fieldErrorsOf(parsed.error), email: String(form.email ?? '').slice(0, 254) },
      { status: 400 },
    );
  const result = await callAuth(shop, request, '/request-password-reset', { email: parsed.data.email });
  if (!result.ok && result.status === 429)
    return data<ActionData>(
      { formError: authErrorMessage(result.code, 429), email: parsed.data.email },
      { status: 429 },
    );
  if (!result.ok)
    shop.services.logger.warn({ code: result.code, status: result.status }, 'password reset request failed');
  // Whatever happened behind it, the member reads the same answer.
  return data<ActionData>({ sent: parsed.data.email });
}

export default function Passwd({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === 'submitting';
  const result = actionData as ActionData | undefined;
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-black">パスワード再設定</h1>
        <p className="mt-1 text-sm text-muted">
          登録したメールアドレスに、パスワードを再設定するリンクをお送りします。
        </p>
      </div>
      {result?.sent ? (
        <section role="status" className="flex flex-col gap-3 rounded-2xl bg-white p-5 shadow-sm">
          <p className="text-sm leading-relaxed">
            <strong className="break-all">{result.sent}</strong>{' '}
            が登録済みのアドレスであれば、再設定用のメールをお送りしました。メールのリンクは1時間有効です。
          </p>
          <p className="text-xs leading-relaxed text-muted">
            届かない場合は、迷惑メールフォルダと、登録したアドレスが正しいかをご確認ください。
          </p>
          <AppLink
            to="/auth/sign_in"
            className="text-center text-sm font-bold text-primary-ink underline underline-offset-2"
          >
            ログイン画面へ戻る
          </AppLink>
        </section>
      ) : (
        <Form method="post" className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm" noValidate>
          <FormAlert message={result?.formError} />
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
          <Button type="submit" size="lg" fullWidth loading={submitting}>
            再設定メールを送る
          </Button>
          <AppLink to="/auth/sign_in" className="text-center text-sm text-muted underline underline-offset-2">
            ログイン画面へ戻る
          </AppLink>
        </Form>
      )}
    </div>
  );
}
