// /mypage/settings/email: change the sign-in address. The current password (or a recent sign-in) first;
// then the current address approves, the new one confirms, and the old one can undo it for 3 days.
import { useNavigation } from 'react-router';
import type { Route } from './+types/settings-email';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { TextField } from '~/components/FormField';
import { SettingsForm, SettingsNotice, SettingsPage } from '~/components/SettingsPage';
import { emailAction, emailLoader, type SettingsActionData } from '~/controllers/account-settings.server';

export const handle = { title: 'メールアドレスの変更' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return emailLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return emailAction(context.get(shopRequestContext), request);
}

export default function SettingsEmail({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const result = actionData as SettingsActionData | undefined;
  return (
    <SettingsPage title="メールアドレスの変更">
      <SettingsNotice
        message={loaderData.changed ? 'メールアドレスを変更しました。以後のお知らせは新しいアドレスに届きます。' : null}
      />
      <section className="rounded-2xl bg-white p-5 text-sm shadow-sm">
        <p className="text-muted">現在のメールアドレス</p>
        <p className="mt-1 break-all text-base font-bold">{loaderData.email ?? '（未登録）'}</p>
      </section>
      {result?.ok ? (
        <section role="status" className="rounded-2xl bg-white p-5 text-sm leading-relaxed shadow-sm">
          <p className="font-bold">承認のお願いをお送りしました</p>
          <p className="mt-2">{result.ok}</p>
        </section>
      ) : (
        <SettingsForm error={result?.formError}>
          <TextField
            name="newEmail"
            type="email"
            label="新しいメールアドレス"
            autoComplete="email"
            inputMode="email"
            required
            error={result?.fieldErrors?.newEmail}
          />
          {loaderData.needsPassword ? (
            <TextField
              name="currentPassword"
              type="password"
              label="現在のパスワード"
              autoComplete="current-password"
              required
              error={result?.fieldErrors?.currentPassword}
              hint="ご本人の確認のため入力してください。"
            />
          ) : (
            <p className="text-xs text-muted">ご本人の確認のため、ログインから10分以内にお手続きください。</p>
          )}
          <Button type="submit" size="lg" fullWidth loading={navigation.state === 'submitting'}>
            確認メールを送る
          </Button>
        </SettingsForm>
      )}
    </SettingsPage>
  );
}
