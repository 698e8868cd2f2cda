// Calls better-auth's own HTTP handler from a route action, so its rate limits, origin checks and
// cookies apply exactly as for the JSON API; the member's cookies and address are passed along.
import type { ShopRequest } from '~/context';
import { CLIENT_IP_HEADER } from '#modules/identity/server';

export interface AuthCallResult {
  ok: boolean;
  status: number;
  code: string | null;
  setCookies: string[];
  /** better-auth's JSON answer (an error's extra facts, such as a wrong code's `attemptsLeft`). */
  body: Record<string, unknown> | null;
}

/** @example const result = await callAuth(shop, request, '/sign-in/email', { email, password }) */
export async function callAuth(
  shop: ShopRequest,
  request: Request,
  path: string,
  body: Record<string, unknown>,
): Promise<AuthCallResult> {
  const { config, auth } = shop.services;
  const headers = new Headers({ 'content-type': 'application/json', origin: config.PUBLIC_ORIGIN });
  for (const name of ['cookie', 'user-agent', CLIENT_IP_HEADER, 'accept-language']) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  const response = await auth.handler(
    new Request(`${config.PUBLIC_ORIGIN}/api/auth${path}`, { method: 'POST', headers, body: JSON.stringify(body) }),
  );
  const payload = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  const code = !response.ok && typeof payload?.code === 'string' ? payload.code : null;
  return { ok: response.ok, status: response.status, code, setCookies: response.headers.getSetCookie(), body: payload };
}

/** Response headers carrying the session cookies better-auth set. */
export function cookieHeaders(setCookies: string[]): Headers {
  const headers = new Headers();
  for (const cookie of setCookies) headers.append('Set-Cookie', cookie);
  return headers;
}
