// Social sign-in buttons (Google, LINE, X, Facebook, GitHub: those the shop has keys for). Each is a
// form posted to /auth/sign_in, which redirects to the provider, so it works before hydration; with
// JavaScript the form goes into a 500×600 popup instead (app/lib/auth-popup.ts), and a blocked popup
// falls back to the same full-page redirect.
import { useRef, useState, type FormEvent } from 'react';
import { authErrorMessage, socialSignInLabel, type SocialProviderId } from '#modules/identity/browser';
import { createPopupSignIn, PopupError } from '~/lib/auth-popup';
import { safeRedirectPath } from '#modules/kernel/navigation';
import { FormAlert } from './FormField';

export function SignInMethods({
  mode,
  providers = [],
  redirectTo = '',
}: {
  mode: 'sign-in' | 'sign-up';
  /** The configured providers, in the order shown (the page's loader: socialProvidersOn). */
  providers?: readonly SocialProviderId[];
  /** Where the member goes afterwards (a local path). */
  redirectTo?: string;
}) {
  const popups = useRef<ReturnType<typeof createPopupSignIn> | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (providers.length === 0) return null;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    const popupField = form.elements.namedItem('popup') as HTMLInputElement | null;
    if (!popupField || typeof window === 'undefined') return;
    event.preventDefault();
    setError(null);
    popups.current ??= createPopupSignIn(window, window);
    popupField.value = '1';
    popups.current
      .open((target) => {
        form.target = target;
        form.submit();
      })
      .then((result) => {
        if (result.ok) window.location.assign(safeRedirectPath(result.redirect));
        else setError(authErrorMessage(result.error));
      })
      .catch((caught: unknown) => {
        if (!(caught instanceof PopupError)) return setError(authErrorMessage(null));
        if (caught.code === 'auth/cancelled-popup-request') return;
        if (caught.code === 'auth/popup-blocked') {
          // No popup: the same form, as a full-page redirect.
          popupField.value = '';
          form.target = '';
          form.submit();
          return;
        }
        setError(authErrorMessage(caught.code));
      })
      .finally(() => {
        form.target = '';
        popupField.value = '';
      });
  }

  return (
    <section
      aria-label={mode === 'sign-in' ? 'ほかの方法でログイン' : 'ほかの方法で登録'}
      className="flex flex-col gap-2"
    >
      <p className="text-center text-xs text-muted">または</p>
      <FormAlert message={error} />
      {providers.map((provider) => (
        <form key={provider} method="post" action="/auth/sign_in" onSubmit={onSubmit}>
          <input type="hidden" name="intent" value="social" />
          <input type="hidden" name="provider" value={provider} />
          <input type="hidden" name="redirect" value={redirectTo} />
          <input type="hidden" name="popup" value="" />
          <button
            type="submit"
            data-provider={provider}
            className="flex min-h-12 w-full items-center justify-center rounded-full border border-line bg-white font-bold"
          >
            {socialSignInLabel(provider, mode)}
          </button>
        </form>
      ))}
    </section>
  );
}
