// Calls better-auth's own HTTP handler from a route action, so its rate limits, origin checks and
// cookies apply exactly as for the JSON API; the member's cookies and address are passed along.
import type { ShopRequest } from '~/context';
import { CAPTCHA_FORM_FIELD, CAPTCHA_HEADER, CLIENT_IP_HEADER, captchaRequired } from '#modules/identity/server';

export interface AuthCallResult {
  ok: boolean;
  status: number;
  code: string | null;
  setCookies: string[];
}

/** @example const result = await callAuth(shop, request, '/sign-in/email', { email, password }) */
export async function callAuth(
  shop: ShopRequest,
  request: Request,
  path: string,
  body: Record<string, unknown>,
  /** More headers for better-auth, e.g. the captcha token: `{ [CAPTCHA_HEADER]: token }` (captchaHeaders). */
  extraHeaders: Record<string, string> = {},
): Promise<AuthCallResult> {
  const { config, auth } = shop.services;
  const headers = new Headers({ 'content-type': 'application/json', origin: config.PUBLIC_ORIGIN });
  for (const name of ['cookie', 'user-agent', CLIENT_IP_HEADER, 'accept-language']) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value);
  const response = await auth.handler(
    new Request(`${config.PUBLIC_ORIGIN}/api/auth${path}`, { method: 'POST', headers, body: JSON.stringify(body) }),
  );
  let code: string | null = null;
  if (!response.ok) {
    const payload = (await response.json().catch(() => null)) as { code?: string } | null;
    code = payload?.code ?? null;
  }
  return { ok: response.ok, status: response.status, code, setCookies: response.headers.getSetCookie() };
}

/** Response headers carrying the session cookies better-auth set. */
export function cookieHeaders(setCookies: string[]): Headers {
  const headers = new Headers();
  for (const cookie of setCookies) headers.append('Set-Cookie', cookie);
  return headers;
}

/**
 * The captcha token a form carried (Captcha.tsx's hidden field), as the header better-auth's guard reads.
 * @example await callAuth(shop, request, '/sign-in/email', body, captchaHeaders(form))
 */
export function captchaHeaders(form: Record<string, string>): Record<string, string> {
  const token = form[CAPTCHA_FORM_FIELD]?.trim();
  return token ? { [CAPTCHA_HEADER]: token } : {};
}

/** The widget's settings for a page (the site key is public), or null when Turnstile is off. */
export function captchaWidget(shop: ShopRequest): { siteKey: string; scriptUrl: string } | null {
  const turnstile = shop.services.config.turnstile;
  return turnstile ? { siteKey: turnstile.siteKey, scriptUrl: turnstile.scriptUrl } : null;
}

/**
 * Whether this result, or the failures counted so far for this account and address, mean the page
 * must show the captcha for the next try.
 * @example const captcha = await captchaNeeded(shop, request, result, { email })
 */
export async function captchaNeeded(
  shop: ShopRequest,
  request: Request,
  result: AuthCallResult,
  account: { email?: string; phoneNumber?: string },
): Promise<boolean> {
  const { config, limiter } = shop.services;
  if (!config.turnstile) return false;
  if (result.code === 'CAPTCHA_REQUIRED' || result.code === 'CAPTCHA_INVALID') return true;
  if (!limiter) return false;
  return captchaRequired({ limiter, config }, { ...account, address: request.headers.get(CLIENT_IP_HEADER) });
}
