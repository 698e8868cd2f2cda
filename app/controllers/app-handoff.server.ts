// The native app opens /app/checkout/* and /app/return in a web view, signed in by a one-time token
// (`?ott=…`, made by POST /api/v1/me/app-handoffs with the app's session). The token is spent here:
// the session cookie is set and the same address is opened again without the token, so it never
// stays in the history, a Referer or a log line.
import { redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { CLIENT_IP_HEADER } from '#modules/identity/server';
import { detectBrowserKind } from '#modules/kernel/navigation';

export const ONE_TIME_TOKEN_PARAM = 'ott';

export type HandoffResult =
  { kind: 'none' } | { kind: 'invalid' } | { kind: 'limited' } | { kind: 'not-app' } | { kind: 'other-member' };

/**
 * Throws the redirect that signs the web view in when the address carries a valid token; answers
 * `invalid` for a spent, expired or unknown token (the page then asks to reopen it from the app).
 * @example const handoff = await consumeAppHandoff(shop, request)
 */
export async function consumeAppHandoff(shop: ShopRequest, request: Request): Promise<HandoffResult> {
  const url = new URL(request.url);
  const token = url.searchParams.get(ONE_TIME_TOKEN_PARAM);
  if (token === null) return { kind: 'none' };
  url.searchParams.delete(ONE_TIME_TOKEN_PARAM);
  return signInWithAppToken(shop, request, token, `${url.pathname}${url.search}`);
}

/**
 * The custom-token sign-in (specification section 6): the app's one-time token signs its member in
 * and the web view continues to `next` (a local path). Throws that redirect with the session cookie;
 * answers why not otherwise. The rules are the hand-off's: the app's web view only, a token once,
 * never over another member's session, rate-limited by better-auth per address.
 * @example await signInWithAppToken(shop, request, token, '/mypage')
 */
export async function signInWithAppToken(
  shop: ShopRequest,
  request: Request,
  token: string,
  next: string,
): Promise<HandoffResult> {
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(token)) return { kind: 'invalid' };
  // Login CSRF: a link with someone else's token must not sign an ordinary browser in as them (the
  // victim would then pay into the sender's account). Tokens work only in the app's own web view,
  // and never replace a session that is already there for another member.
  if (detectBrowserKind(request.headers.get('user-agent')) !== 'native-app') return { kind: 'not-app' };
  // Through better-auth's own endpoint (not its server API), so its rate limit per client address
  // applies to token guesses like to passwords.
  const { config } = shop.services;
  const response = await shop.services.auth.handler(
    new Request(`${config.PUBLIC_ORIGIN}/api/auth/one-time-token/verify`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: config.PUBLIC_ORIGIN,
        [CLIENT_IP_HEADER]: request.headers.get(CLIENT_IP_HEADER) ?? '',
        'user-agent': request.headers.get('user-agent') ?? '',
      },
      body: JSON.stringify({ token }),
    }),
  );
  if (response.status === 429) return { kind: 'limited' };
  if (!response.ok) return { kind: 'invalid' };
  const session = (await response.json().catch(() => null)) as { user?: { id?: string } } | null;
  if (shop.member && session?.user?.id !== shop.member.id) return { kind: 'other-member' };
  const headers = new Headers({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
  for (const cookie of response.headers.getSetCookie()) headers.append('Set-Cookie', cookie);
  throw redirect(next, { headers });
}

/** The app's own address to go back to, with what happened. @example appReturnUrl(config, { order: id, status: 'paid' }) */
export function appReturnUrl(appUrl: string, params: Record<string, string>): string {
  const url = new URL(appUrl);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}
