// /auth/action?mode=…&oobCode=…: where the links in our mails land — confirm an address, approve or
// confirm an email change, undo one, set a new password, or sign in by email link. Opening the
// page uses nothing; the button does. A dead link says why and offers a way to ask again.
import { Form, useNavigation } from 'react-router';
import type { Route } from './+types/action';
import { shopRequestContext } from '#server/context';
import {
  actionPageAction,
  actionPageLoader,
  type ActionResultData,
  type DeadLinkReason,
} from '~/controllers/auth-action.server';
import { Button, ButtonLink } from '~/components/Button';
import { FormAlert, TextField } from '~/components/FormField';
import { NewPasswordField } from '~/components/auth/PasswordField';
import { Captcha } from '~/components/Captcha';
import type { ActionMode } from '#modules/identity';

export const handle = { title: 'アカウントの手続き' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return actionPageLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return actionPageAction(context.get(shopRequestContext), request);
}

const TITLES: Record<ActionMode, string> = {
  verifyEmail: 'メールアドレスの確認',
  verifyAndChangeEmail: '新しいメールアドレスの確認',
  approveEmailChange: 'メールアドレス変更の承認',
  recoverEmail: 'メールアドレスを元に戻す',
  resetPassword: 'パスワードの再設定',
  signIn: 'メールリンクでログイン',
  customToken: 'アプリからのログイン',
};

export default function AuthAction({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === 'submitting';
  const result = actionData as ActionResultData | undefined;
  if (result?.state === 'dead') return <DeadLink mode={result.mode} reason={result.reason} />;
  if (result?.state === 'done') return <Done mode={result.mode} email={result.email} />;
  if (loaderData.state === 'dead') return <DeadLink mode={loaderData.mode} reason={loaderData.reason} />;
  if (loaderData.state === 'done') return <Done mode={loaderData.mode} />;
  const page = loaderData;
  const formError = result?.state === 'invalid' ? result.formError : undefined;
  const fieldErrors = result?.state === 'invalid' ? result.fieldErrors : undefined;
  // After repeated failures the new password needs the captcha: the answer's, else the one the page opened with.
  const captcha =
    (result?.state === 'invalid' ? result.captcha : null) ?? (page.mode === 'resetPassword' ? page.captcha : null);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-black">{TITLES[page.mode]}</h1>
      <Form method="post" className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm" noValidate>
        <FormAlert message={formError} />
        {page.mode === 'verifyEmail' ? (
          <p className="text-sm leading-relaxed">
            {page.email ? <strong className="break-all">{page.email}</strong> : 'このメールアドレス'}
            を確認して、会員登録を完了します。
          </p>
        ) : null}
        {page.mode === 'signIn' ? (
          <p className="text-sm leading-relaxed">下のボタンを押すとログインします。リンクは1回だけ使えます。</p>
        ) : null}
        {page.mode === 'approveEmailChange' ? (
          <p className="text-sm leading-relaxed">
            メールアドレスを <strong className="break-all">{page.newEmail ?? '新しいアドレス'}</strong>{' '}
            に変更する手続きを承認します。承認すると、新しいアドレスに確認メールが届きます。お心当たりがない場合は、このページを閉じてパスワードを変更してください。
          </p>
        ) : null}
        {page.mode === 'verifyAndChangeEmail' ? (
          <p className="text-sm leading-relaxed">
            ログインに使うメールアドレスを <strong className="break-all">{page.newEmail ?? 'このアドレス'}</strong>{' '}
            に変更します。
          </p>
        ) : null}
        {page.mode === 'recoverEmail' ? (
          <p className="text-sm leading-relaxed">
            メールアドレスを <strong className="break-all">{page.newEmail}</strong> から{' '}
            <strong className="break-all">{page.email}</strong>{' '}
            に戻し、すべての端末からログアウトします。ご自身で変更していない場合は、戻したあとパスワードを再設定してください。
          </p>
        ) : null}
        {page.mode === 'resetPassword' ? (
          <>
            <p className="text-sm leading-relaxed">
              新しいパスワードを入力してください。変更すると、すべての端末からログアウトします。
            </p>
            <NewPasswordField policy={page.policy} label="新しいパスワード" error={fieldErrors?.password} />
            <TextField
              name="confirm"
              type="password"
              label="新しいパスワード（確認）"
              autoComplete="new-password"
              required
              error={fieldErrors?.confirm}
            />
            {captcha ? <Captcha {...captcha} resetOn={result} /> : null}
          </>
        ) : null}
        <Button type="submit" size="lg" fullWidth loading={submitting}>
          {BUTTONS[page.mode]}
        </Button>
      </Form>
    </div>
  );
}

const BUTTONS: Record<ActionMode, string> = {
  verifyEmail: 'メールアドレスを確認する',
  verifyAndChangeEmail: 'このアドレスに変更する',
  approveEmailChange: '変更を承認する',
  recoverEmail: 'メールアドレスを元に戻す',
  resetPassword: 'パスワードを変更する',
  signIn: 'ログインする',
  customToken: 'ログインする',
};

function Done({ mode, email }: { mode: ActionMode; email?: string }) {
  const body: Partial<Record<ActionMode, { title: string; text: string; to: string; label: string }>> = {
    approveEmailChange: {
      title: '変更を承認しました',
      text: '新しいメールアドレスに確認メールをお送りしました。メールのボタンを押すと変更が完了します。',
      to: '/mypage',
      label: 'マイページへ',
    },
    resetPassword: {
      title: 'パスワードを変更しました',
      text: '新しいパスワードでログインしてください。',
      to: '/auth/sign_in',
      label: 'ログイン画面へ',
    },
    recoverEmail: {
      title: 'メールアドレスを元に戻しました',
      text: `ログインに使うアドレスを${email ? ` ${email} ` : '元のアドレスに'}戻し、すべての端末からログアウトしました。念のため、パスワードを再設定してください。`,
      to: '/auth/passwd',
      label: 'パスワードを再設定する',
    },
  };
  const shown = body[mode] ?? { title: '手続きが完了しました', text: '', to: '/', label: 'トップページへ' };
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-black">{shown.title}</h1>
      <section role="status" className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm">
        <p className="text-sm leading-relaxed">{shown.text}</p>
        <ButtonLink to={shown.to} fullWidth>
          {shown.label}
        </ButtonLink>
      </section>
    </div>
  );
}

/** Why a link is dead, and the way to ask again for each kind of link. */
function DeadLink({ mode, reason }: { mode: ActionMode | null; reason: DeadLinkReason }) {
  const why: Record<DeadLinkReason, string> = {
    missing: '手続きのリンクが正しくありません。メールのリンクをもう一度開くか、最新のメールのリンクをお使いください。',
    expired: 'このリンクは有効期限が切れています。お手数ですが、もう一度お手続きください。',
    used: 'このリンクはすでに使われたか、有効期限が切れています。お手数ですが、もう一度お手続きください。',
    mismatch: '別のアカウントでログインしています。ログアウトしてから、もう一度リンクを開いてください。',
    'changed-again': 'その後メールアドレスが再度変更されているため、元に戻せません。お問い合わせください。',
    'address-taken': '元のメールアドレスは現在ほかのアカウントで使われているため、戻せません。お問い合わせください。',
    'not-app': 'このリンクはアプリの中でだけ使えます。アプリからもう一度開いてください。',
    limited: '試行回数が多すぎます。しばらく時間をおいてから、アプリからもう一度開いてください。',
  };
  const again: Partial<Record<ActionMode, { to: string; label: string }>> = {
    resetPassword: { to: '/auth/passwd', label: '再設定メールをもう一度送る' },
    signIn: { to: '/auth/sign_in#email-link', label: 'ログインリンクをもう一度送る' },
    verifyEmail: { to: '/auth/sign_in', label: 'ログインして確認メールを再送する' },
    verifyAndChangeEmail: { to: '/mypage/settings/email', label: 'メールアドレスの変更をやり直す' },
    approveEmailChange: { to: '/mypage/settings/email', label: 'メールアドレスの変更をやり直す' },
  };
  const next = (mode && again[mode]) ?? { to: '/', label: 'トップページへ' };
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-black">{mode ? TITLES[mode] : 'アカウントの手続き'}</h1>
      <section role="alert" className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm">
        <p className="text-sm font-bold leading-relaxed">このリンクはご利用いただけません</p>
        <p className="text-sm leading-relaxed text-muted">{why[reason]}</p>
        <ButtonLink to={next.to} fullWidth>
          {next.label}
        </ButtonLink>
      </section>
    </div>
  );
}
