// The signed-in member of an API request: better-auth's session from the cookie, or the same
// session carried as `Authorization: Bearer <session cookie value>` by the native app.
import type { SessionMember } from '#modules/identity/server';
import type { ShopServices } from '#server/services';
import { memberOfSessionToken, toSessionMember, verifySignedToken } from '#modules/identity/server';
import { isStaffRole } from '#modules/identity';

export type { SessionMember };

/** The value of better-auth's signed session cookie: `<token>.<signature>`, URL-encoded or not. */
const SIGNED_SESSION_TOKEN = /^[A-Za-z0-9_~%+/=-]+\.[A-Za-z0-9_~%+/=-]+$/;

/**
 * The token of an `Authorization: Bearer …` header, or null.
 * @example bearerToken(new Headers({ authorization: 'Bearer abc.def' })) // 'abc.def'
 */
export function bearerToken(headers: Headers): string | null {
  return bearerOf(headers.get('authorization'));
}

/**
 * The token of an Authorization header's value, or null.
 * @example bearerOf('Bearer abc.def') // 'abc.def'
 */
export function bearerOf(header: string | null | undefined): string | null {
  if (!header || header.slice(0, 7).toLowerCase() !== 'bearer ') return null;
  const token = header.slice(7).trim();
  return token && token.length <= 512 ? token : null;
}

/**
 * The member signed in on this request, or null.
 *
 * A bearer token shaped like the signed session cookie value (`<token>.<signature>`, what the
 * bearer plugin's `set-auth-token` header and the Set-Cookie header carry) is handed to
 * better-auth as the session cookie, so better-auth checks its signature, expiry and ban exactly
 * as for the cookie; the bearer wins when a request carries both. Any other bearer token is left
 * in the Authorization header for better-auth's bearer plugin (a raw session token is accepted
 * there unless the plugin requires signatures).
 */
export async function resolveMember(services: ShopServices, requestHeaders: Headers): Promise<SessionMember | null> {
  const fast = await fastMember(services, requestHeaders);
  if (fast !== 'slow') return fast;
  const bearer = bearerToken(requestHeaders);
  let headers = requestHeaders;
  if (bearer && SIGNED_SESSION_TOKEN.test(bearer)) {
    const context = await services.auth.$context;
    headers = new Headers(requestHeaders);
    headers.set('cookie', `${context.authCookies.sessionToken.name}=${bearer}`);
  } else if (!bearer && !requestHeaders.get('cookie')?.includes('session_token')) {
    return null;
  }
  const session = await services.auth.api.getSession({ headers });
  return session ? toSessionMember(session.user as typeof session.user & { role?: string | null }) : null;
}

/** Staff (operators) are members whose role is 'admin' or 'staff'. */
export const isStaff = (member: SessionMember | null | undefined) => isStaffRole(member?.role);

let sessionCookieName: string | undefined;

/** The session cookie's value from a Cookie header, or null. */
export function cookieValue(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/**
 * The member in one indexed query (modules/identity/session.server.ts), or 'slow' when better-auth
 * must decide: no recognisable credential shape, or a session due for its refresh.
 */
export async function fastMember(services: ShopServices, headers: Headers): Promise<SessionMember | null | 'slow'> {
  const token = await credentialOf(services, headers);
  if (token === 'slow' || token === null) return token;
  const member = await memberOfSessionToken(services.db, token);
  return member === 'refresh' ? 'slow' : member;
}

/**
 * The request's session token with its signature checked, without a database lookup (for
 * `auth: 'session'` operations, which resolve it in their own query), or null.
 */
export async function sessionTokenOf(services: ShopServices, headers: Headers): Promise<string | null> {
  const token = await credentialOf(services, headers);
  return token === 'slow' ? null : token;
}

/**
 * The session token a bearer token carries (a signed one checked, a raw one as it is), as sessionTokenOf
 * reads it for a request without a session cookie.
 */
export const bearerSessionToken = (services: Pick<ShopServices, 'config'>, bearer: string): string | null =>
  SIGNED_SESSION_TOKEN.test(bearer) ? verifySignedToken(bearer, services.config.AUTH_SECRET) : bearer;

async function credentialOf(services: ShopServices, headers: Headers): Promise<string | null | 'slow'> {
  const bearer = bearerToken(headers);
  if (bearer) return bearerSessionToken(services, bearer);
  if (!headers.get('cookie')?.includes('session_token')) return null;
  sessionCookieName ??= (await services.auth.$context).authCookies.sessionToken.name;
  const value = cookieValue(headers.get('cookie'), sessionCookieName);
  if (!value) return 'slow';
  return verifySignedToken(value, services.config.AUTH_SECRET);
}
