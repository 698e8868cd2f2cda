// /auth/popup: where a social sign-in popup lands (better-auth's callbackURL or errorCallbackURL).
// It posts the result to the window that opened it — same origin only — and closes. Opened without
// an opener (a blocked popup's full-page fallback never comes here, but a member might), it offers
// the way on instead.
import { useEffect } from 'react';
import type { Route } from './+types/popup';
import { safeRedirectPath } from '#modules/kernel/navigation';
import { authErrorMessage } from '#modules/identity/browser';
import { POPUP_MESSAGE_TYPE, type PopupResult } from '~/lib/auth-popup';
import { AppLink } from '~/components/AppLink';

export const handle = { title: 'ログイン' };

export function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const error = params.get('error');
  const result: PopupResult = error
    ? { ok: false, error: error.slice(0, 100) }
    : { ok: true, redirect: safeRedirectPath(params.get('redirect')) };
  return { result, message: error ? authErrorMessage(error.slice(0, 100)) : null };
}

export default function AuthPopup({ loaderData }: Route.ComponentProps) {
  const { result, message } = loaderData;
  useEffect(() => {
    const opener = window.opener as Window | null;
    if (!opener || opener === window) return;
    opener.postMessage({ type: POPUP_MESSAGE_TYPE, ...result }, window.location.origin);
    window.close();
  }, [result]);
  return (
    <div className="flex flex-col gap-4 text-center">
      <h1 className="text-xl font-black">{result.ok ? 'ログインしました' : 'ログインできませんでした'}</h1>
      {message ? <p role="alert">{message}</p> : <p>このウィンドウは自動で閉じます。</p>}
      <AppLink
        to={result.ok ? result.redirect : '/auth/sign_in'}
        className="font-bold text-primary-ink underline underline-offset-2"
      >
        {result.ok ? '続ける' : 'ログイン画面へ'}
      </AppLink>
    </div>
  );
}
