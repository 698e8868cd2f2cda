// The captcha (Cloudflare Turnstile, explicit render, in Japanese) of every form that posts a guarded
// check (a password, a code, a new password by a reset link), shown after repeated failures: its token
// goes into the hidden field `captchaToken` (CAPTCHA_FORM_FIELD), which the page's action forwards to
// better-auth as the `x-captcha-response` header (captchaHeaders). The script comes from Cloudflare, or
// from the local stand-in in the sandbox; the CSP allows that origin only when Turnstile is configured
// (server/security.ts).
import { useEffect, useRef, useState } from 'react';

/** The hidden field's name; the same as CAPTCHA_FORM_FIELD in #modules/identity (a test checks). */
export const CAPTCHA_FIELD_NAME = 'captchaToken';

interface TurnstileApi {
  render(container: HTMLElement, params: Record<string, unknown>): string | undefined;
  reset(widgetId: string): void;
  remove(widgetId: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

const loaded = new Map<string, Promise<TurnstileApi>>();

/** Loads the widget script once per page (explicit render: nothing appears until render is called). */
function loadTurnstile(scriptUrl: string): Promise<TurnstileApi> {
  let promise = loaded.get(scriptUrl);
  if (!promise) {
    promise = new Promise<TurnstileApi>((resolve, reject) => {
      if (window.turnstile) return resolve(window.turnstile);
      const script = document.createElement('script');
      const url = new URL(scriptUrl);
      url.searchParams.set('render', 'explicit');
      script.src = url.toString();
      script.async = true;
      script.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error('turnstile missing')));
      script.onerror = () => reject(new Error('turnstile script failed to load'));
      document.head.appendChild(script);
    });
    promise.catch(() => loaded.delete(scriptUrl));
    loaded.set(scriptUrl, promise);
  }
  return promise;
}

/** The widget's settings as a page's action or loader answers them (captchaForNextTry); null: no captcha needed. */
export interface CaptchaWidget {
  siteKey: string;
  scriptUrl: string;
}

export interface CaptchaProps extends CaptchaWidget {
  /** A new value (e.g. each action's answer) asks for a fresh token: a token is good for one try. */
  resetOn?: unknown;
}

/** @example {result?.captcha && captcha ? <Captcha {...captcha} resetOn={result} /> : null} */
export function Captcha({ siteKey, scriptUrl, resetOn }: CaptchaProps) {
  const container = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: TurnstileApi; id: string } | null>(null);
  const [token, setToken] = useState('');
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    loadTurnstile(scriptUrl)
      .then((api) => {
        if (cancelled || !container.current) return;
        const id = api.render(container.current, {
          sitekey: siteKey,
          language: 'ja',
          'response-field': false,
          callback: (value: string) => setToken(value),
          'expired-callback': () => setToken(''),
          'error-callback': () => setToken(''),
        });
        if (id) widget.current = { api, id };
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      if (widget.current) widget.current.api.remove(widget.current.id);
      widget.current = null;
    };
  }, [siteKey, scriptUrl]);

  useEffect(() => {
    if (!widget.current) return;
    widget.current.api.reset(widget.current.id);
    setToken('');
  }, [resetOn]);

  return (
    <div className="flex flex-col gap-2" data-captcha>
      <p className="text-sm text-muted">確認のため、下のチェックを完了してください。</p>
      <div ref={container} className="min-h-[65px]" />
      <input type="hidden" name={CAPTCHA_FIELD_NAME} value={token} />
      {failed ? (
        <p role="alert" className="text-sm text-red-700">
          確認用の画面を読み込めませんでした。ページを再読み込みしてください。
        </p>
      ) : null}
      <noscript>
        <p className="text-sm">確認のため、JavaScriptを有効にしてください。</p>
      </noscript>
    </div>
  );
}
