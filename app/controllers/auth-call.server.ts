// Calls better-auth's own HTTP handler from a route action, so its rate limits, origin checks and
// cookies apply exactly as for the JSON API; the member's cookies and address are passed along.
import type { ShopRequest } from '#server/context';
import type { CaptchaWidget } from '~/components/Captcha';
import { CAPTCHA_FORM_FIELD, CAPTCHA_HEADER, CLIENT_IP_HEADER, captchaRequired } from '#modules/identity/server';

export interface AuthCallResult {
  ok: boolean;
  status: number;
  code: string | null;
  setCookies: string[];
  /** better-auth's JSON answer (an error's extra facts too, such as a wrong code's `attemptsLeft`). */
  body: Record<string, unknown> | null;
  /** Where a redirect answer points (better-auth's links answer 302 with ?error= on failure). */
  location: string | null;
}

/** @example const result = await callAuth(shop, request, '/sign-in/email', { email, password }) */
export async function callAuth(
  shop: ShopRequest,
  request: Request,
  path: string,
  body: Record<string, unknown>,
  options: {
    method?: 'GET' | 'POST';
    query?: Record<string, string>;
    /** More headers for better-auth, e.g. the captcha token: `{ [CAPTCHA_HEADER]: token }` (captchaHeaders). */
    headers?: Record<string, string>;
  } = {},
): Promise<AuthCallResult> {
  const { config, auth } = shop.services;
  const method = options.method ?? 'POST';
  const headers = new Headers({ origin: config.PUBLIC_ORIGIN });
  if (method === 'POST') headers.set('content-type', 'application/json');
  for (const name of ['cookie', 'user-agent', CLIENT_IP_HEADER, 'accept-language']) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  const url = new URL(`${config.PUBLIC_ORIGIN}/api/auth${path}`);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
  const response = await auth.handler(
    new Request(url, { method, headers, body: method === 'POST' ? JSON.stringify(body) : undefined }),
  );
  const payload = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  const location = response.headers.get('location');
  // A link endpoint reports its failure as a redirect carrying ?error=CODE.
  const redirectError = location ? new URL(location, config.PUBLIC_ORIGIN).searchParams.get('error') : null;
  const redirected = response.status >= 300 && response.status < 400;
  const ok = (response.ok || redirected) && !redirectError;
  const code = ok ? null : ((payload?.code as string | undefined) ?? redirectError);
  return {
    ok,
    status: response.status,
    code,
    setCookies: response.headers.getSetCookie(),
    body: payload,
    location,
  };
}

/** Response headers carrying the session cookies better-auth set. */
export function cookieHeaders(setCookies: string[]): Headers {
  const headers = new Headers();
  for (const cookie of setCookies) headers.append('Set-Cookie', cookie);
  return headers;
}

/**
 * The captcha token a form carried (Captcha.tsx's hidden field), as the header better-auth's guard reads.
 * @example await callAuth(shop, request, '/sign-in/email', body, { headers: captchaHeaders(form) })
 */
export function captchaHeaders(form: Record<string, string>): Record<string, string> {
  const token = form[CAPTCHA_FORM_FIELD]?.trim();
  return token ? { [CAPTCHA_HEADER]: token } : {};
}

/** The widget's settings for a page (the site key is public), or null when Turnstile is off. */
export function captchaWidget(shop: ShopRequest): CaptchaWidget | null {
  const turnstile = shop.services.config.turnstile;
  return turnstile ? { siteKey: turnstile.siteKey, scriptUrl: turnstile.scriptUrl } : null;
}

/** The guard's answers that ask for the widget (worded by authErrorMessage: 「…チェックを完了してください」). */
export function isCaptchaRefusal(result: AuthCallResult): boolean {
  return result.code === 'CAPTCHA_REQUIRED' || result.code === 'CAPTCHA_INVALID';
}

/**
 * Whether this result, or the failures counted so far for this account and address, mean the page
 * must show the captcha for the next try (result null: a form about to be shown, nothing posted yet).
 * An endpoint that names no account by email or phone (a reset code, the two-factor cookie) is judged
 * by the address: `{}`.
 * @example const captcha = await captchaNeeded(shop, request, result, { email })
 */
export async function captchaNeeded(
  shop: ShopRequest,
  request: Request,
  result: AuthCallResult | null,
  account: { email?: string; phoneNumber?: string },
): Promise<boolean> {
  const { config, limiter } = shop.services;
  if (!config.turnstile) return false;
  if (result && isCaptchaRefusal(result)) return true;
  if (!limiter) return false;
  return captchaRequired({ limiter, config }, { ...account, address: request.headers.get(CLIENT_IP_HEADER) });
}

/**
 * What a form that posts a guarded check carries for its next try: the widget's settings when a
 * captcha is needed (captchaNeeded), else null. Pages show it as `<Captcha {...captcha} />` inside
 * the form, and their action forwards its token with captchaHeaders(form).
 * @example return data({ formError, captcha: await captchaForNextTry(shop, request, result, { phoneNumber }) })
 */
export async function captchaForNextTry(
  shop: ShopRequest,
  request: Request,
  result: AuthCallResult | null,
  account: { email?: string; phoneNumber?: string },
): Promise<CaptchaWidget | null> {
  return (await captchaNeeded(shop, request, result, account)) ? captchaWidget(shop) : null;
}
