// 「電話番号でログイン」 on /auth/sign_in: a verified number → a 6-digit SMS code → signed in, on to
// `redirect`. A disclosure (no JavaScript needed), open while its steps are under way. The sign-in
// page's action hands intent=phone-* to phoneSignInAction (app/lib/sign-in/phone.server.ts).
import { PhoneCodeSteps, type PhoneFormState } from './PhoneCodeSteps';

export function PhoneSignIn({ result, redirectTo }: { result: unknown; redirectTo: string }) {
  const state = (result as { phone?: PhoneFormState } | undefined)?.phone;
  const restart = redirectTo ? `/auth/sign_in?redirect=${encodeURIComponent(redirectTo)}` : '/auth/sign_in';
  return (
    <details open={Boolean(state)} className="group rounded-2xl bg-white p-5 shadow-sm">
      <summary className="cursor-pointer list-none text-center font-bold">電話番号でログイン</summary>
      <div className="mt-4">
        <p className="mb-4 text-xs text-muted">
          マイページで認証済みの携帯電話番号でログインできます。電話番号での新規登録はできません。
        </p>
        <PhoneCodeSteps
          state={state}
          submitLabel="ログイン"
          hiddenFields={{ redirect: redirectTo }}
          restartHref={restart}
        />
      </div>
    </details>
  );
}
