// /mypage/settings/password: change the password (the current one first; other devices are signed
// out), or set a first one for a member who signed up with a provider. The policy shows live.
import { useNavigation } from 'react-router';
import type { Route } from './+types/settings-password';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { TextField } from '~/components/FormField';
import { SettingsForm, SettingsNotice, SettingsPage } from '~/components/SettingsPage';
import { NewPasswordField } from '~/components/auth/PasswordField';
import { passwordAction, passwordLoader, type SettingsActionData } from '~/controllers/account-settings.server';

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
    <SettingsPage title={loaderData.hasPassword ? 'パスワードの変更' : 'パスワードの設定'}>
      <SettingsNotice message={result?.ok} />
      <SettingsForm error={result?.formError}>
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
      </SettingsForm>
    </SettingsPage>
  );
}
