// After sign-up: the confirmation mail is on its way. The page reads the same for a new and a known
// address (no account enumeration); the owner of a known address gets a different mail instead.
import { Form } from 'react-router';
import { Button } from '~/components/Button';
import { FormAlert } from '~/components/FormField';
import { AppLink } from '~/components/AppLink';

export function VerificationSent({
  email,
  resent,
  error,
  redirectTo,
  submitting,
}: {
  email: string;
  resent?: boolean;
  error?: string;
  redirectTo: string;
  submitting: boolean;
}) {
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-black">確認メールを送信しました</h1>
        <p className="mt-1 text-sm text-muted">あと少しで登録が完了します。</p>
      </div>
      <section className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm" aria-live="polite">
        <p className="text-sm leading-relaxed">
          <strong className="break-all">{email}</strong>{' '}
          宛に確認メールをお送りしました。メールの「メールアドレスを確認する」ボタンを押すと、登録が完了してログインします（24時間有効）。
        </p>
        <ul className="list-disc pl-5 text-xs leading-relaxed text-muted">
          <li>数分たっても届かない場合は、迷惑メールフォルダをご確認ください。</li>
          <li>すでに登録済みのアドレスの場合は、ログイン方法のご案内をお送りしています。</li>
        </ul>
        {resent ? (
          <p className="rounded-xl bg-emerald-50 px-4 py-3 text-sm font-bold text-emerald-800">
            確認メールを再送しました。
          </p>
        ) : null}
        <FormAlert message={error} />
        <Form method="post" className="flex flex-col gap-2">
          <input type="hidden" name="intent" value="resend" />
          <input type="hidden" name="email" value={email} />
          <input type="hidden" name="redirect" value={redirectTo} />
          <Button type="submit" variant="secondary" fullWidth loading={submitting}>
            確認メールを再送する
          </Button>
        </Form>
      </section>
      <p className="text-center text-sm">
        アドレスを間違えた場合は{' '}
        <AppLink to="/auth/sign_up" reloadDocument className="font-bold text-primary-ink underline underline-offset-2">
          最初から登録し直す
        </AppLink>
      </p>
    </div>
  );
}
