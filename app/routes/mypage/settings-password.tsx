// /mypage/settings/password: change the password (the current one first; other devices are signed
// out), or set a first one for a member who signed up with a provider. The policy shows live.
import { Form, useNavigation } from 'react-router';
import type { Route } from './+types/settings-password';
import { shopRequestContext } from '~/context';
import { PageHeading } from '~/components/PageFrame';
import { Button } from '~/components/Button';
import { FormAlert, TextField } from '~/components/FormField';
import { AppLink } from '~/components/AppLink';
import { NewPasswordField } from '~/components/auth/PasswordField';
import { passwordAction, passwordLoader, type SettingsActionData } from '~/lib/account-settings.server';

export const handle = { title: 'パスワードの変更' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return passwordLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return passwordAction(context.get(shopRequestContext), request);
}

export default function SettingsPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const result = actionData as SettingsActionData | undefined;
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4 px-3 py-4">
      <PageHeading title={loaderData.hasPassword ? 'パスワードの変更' : 'パスワードの設定'} />
      {result?.ok ? (
        <p role="status" className="rounded-xl bg-emerald-50 px-4 py-3 text-sm font-bold text-emerald-800">
          {result.ok}
        </p>
      ) : null}
      <Form method="post" className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm" noValidate>
        <FormAlert message={result?.formError} />
        {loaderData.hasPassword ? (
          <TextField
            name="currentPassword"
            type="password"
            label="現在のパスワード"
            autoComplete="current-password"
            required
            error={result?.fieldErrors?.currentPassword}
          />
        ) : (
          <p className="text-sm text-muted">
            パスワードを設定すると、メールアドレスとパスワードでもログインできます（ログインから10分以内にお手続きください）。
          </p>
        )}
        <NewPasswordField policy={loaderData.policy} label="新しいパスワード" error={result?.fieldErrors?.password} />
        <TextField
          name="confirm"
          type="password"
          label="新しいパスワード（確認）"
          autoComplete="new-password"
          required
          error={result?.fieldErrors?.confirm}
        />
        <Button type="submit" size="lg" fullWidth loading={navigation.state === 'submitting'}>
          {loaderData.hasPassword ? '変更する' : '設定する'}
        </Button>
      </Form>
      <AppLink to="/mypage" className="text-center text-sm text-muted underline underline-offset-2">
        マイページへ戻る
      </AppLink>
    </div>
  );
}
