// A member's ways to sign in, as /mypage/settings/unlink shows and changes them, and starting a social
// sign-in. Everything goes through better-auth's own endpoints with the member's headers, so a
// member only ever sees and changes their own accounts (better-auth scopes each call to the session's
// user). Answers carry the specification's codes (auth/…) or better-auth's; messages.ts words them.
import type { ShopAuth } from './auth.server';
import { isPlaceholderEmail, isSocialProviderId, type SocialProviderId } from './social';

export type SignInMethod =
  | { kind: 'password' }
  | { kind: 'provider'; providerId: SocialProviderId; linkedAt: Date }
  | { kind: 'phone'; phoneNumber: string }
  | { kind: 'email-link'; email: string };

export interface MemberSignInMethods {
  memberId: string;
  /** When this session signed in: unlinking needs a recent one (REAUTH_MAX_AGE_MINUTES). */
  signedInAt: Date;
  methods: SignInMethod[];
  /** Providers linked to the member (whether or not still configured). */
  linked: SocialProviderId[];
}

/** Codes a sign-in-method change can end with (messages.ts has a Japanese sentence for each). */
export type SignInMethodError =
  | 'UNAUTHENTICATED'
  | 'auth/requires-recent-login'
  | 'auth/no-such-provider'
  | 'auth/provider-already-linked'
  | 'PROVIDER_NOT_FOUND'
  | 'FAILED_TO_UNLINK_LAST_ACCOUNT'
  | 'LINK_FAILED';

type Auth = Pick<ShopAuth, 'api' | 'options'>;
type Answer<T> = ({ ok: true } & T) | { ok: false; code: SignInMethodError | string; status: number };

/** @example sessionIsRecent(session.createdAt, 10) // true within 10 minutes of signing in */
export function sessionIsRecent(signedInAt: Date, maxAgeMinutes: number, now = new Date()): boolean {
  return now.getTime() - signedInAt.getTime() <= maxAgeMinutes * 60_000;
}

/**
 * The signed-in member's ways to sign in: the password, each linked provider, and — when the member
 * has them and the shop offers them — a verified phone number and email links. Null without a session.
 * @example const mine = await listSignInMethods(auth, request.headers, { emailLink: false })
 */
export async function listSignInMethods(
  auth: Auth,
  headers: Headers,
  options: { emailLink: boolean },
): Promise<MemberSignInMethods | null> {
  const session = await auth.api.getSession({ headers, query: { disableCookieCache: true } }).catch(() => null);
  if (!session) return null;
  const accounts = await auth.api.listUserAccounts({ headers });
  const user = session.user as typeof session.user & { phoneNumber?: string | null; phoneNumberVerified?: boolean };
  const methods: SignInMethod[] = [];
  if (accounts.some((account) => account.providerId === 'credential')) methods.push({ kind: 'password' });
  const linked: SocialProviderId[] = [];
  for (const account of [...accounts].sort((a, b) => +new Date(a.createdAt) - +new Date(b.createdAt))) {
    if (!isSocialProviderId(account.providerId) || linked.includes(account.providerId)) continue;
    linked.push(account.providerId);
    methods.push({ kind: 'provider', providerId: account.providerId, linkedAt: new Date(account.createdAt) });
  }
  if (user.phoneNumber && user.phoneNumberVerified) methods.push({ kind: 'phone', phoneNumber: user.phoneNumber });
  if (options.emailLink && user.emailVerified && !isPlaceholderEmail(user.email))
    methods.push({ kind: 'email-link', email: user.email });
  return { memberId: session.user.id, signedInAt: new Date(session.session.createdAt), methods, linked };
}

/**
 * Starts a social sign-in (or sign-up): better-auth's URL at the provider, and the Set-Cookie lines
 * (its signed state cookie) the redirect must carry. `callbackURL` and `errorCallbackURL` are paths on
 * the shop (the caller checks them: safeRedirectPath).
 * @example const started = await startSocialSignIn(auth, { headers, provider: 'google', callbackURL: '/mypage', errorCallbackURL: '/auth/sign_in' })
 */
export async function startSocialSignIn(
  auth: Auth,
  options: {
    headers: Headers;
    provider: SocialProviderId;
    callbackURL: string;
    errorCallbackURL: string;
    configured: readonly SocialProviderId[];
  },
): Promise<Answer<{ url: string; setCookies: string[] }>> {
  if (!options.configured.includes(options.provider)) return { ok: false, code: 'PROVIDER_NOT_FOUND', status: 404 };
  const response = await auth.api.signInSocial({
    body: {
      provider: options.provider,
      callbackURL: options.callbackURL,
      errorCallbackURL: options.errorCallbackURL,
      disableRedirect: true,
    },
    headers: options.headers,
    asResponse: true,
  });
  return urlAnswer(response);
}

/**
 * Starts linking a provider to the signed-in member (better-auth's linkSocial; LINE through
 * genericOAuth the same way). Refused before leaving the shop: provider-already-linked, a provider the
 * shop does not offer (PROVIDER_NOT_FOUND), no session (UNAUTHENTICATED).
 */
export async function startSocialLink(
  auth: Auth,
  options: {
    headers: Headers;
    provider: SocialProviderId;
    callbackURL: string;
    errorCallbackURL: string;
    configured: readonly SocialProviderId[];
  },
): Promise<Answer<{ url: string; setCookies: string[] }>> {
  if (!options.configured.includes(options.provider)) return { ok: false, code: 'PROVIDER_NOT_FOUND', status: 404 };
  const accounts = await auth.api.listUserAccounts({ headers: options.headers }).catch(() => null);
  if (!accounts) return { ok: false, code: 'UNAUTHENTICATED', status: 401 };
  if (accounts.some((account) => account.providerId === options.provider))
    return { ok: false, code: 'auth/provider-already-linked', status: 409 };
  const response = await auth.api.linkSocialAccount({
    body: {
      provider: options.provider,
      callbackURL: options.callbackURL,
      errorCallbackURL: options.errorCallbackURL,
      disableRedirect: true,
    },
    headers: options.headers,
    asResponse: true,
  });
  return urlAnswer(response);
}

/**
 * Unlinks a provider from the signed-in member. Refused: requires-recent-login (the session is older
 * than `reauthMaxAgeMinutes`), no-such-provider (not linked to this member), and better-auth's
 * FAILED_TO_UNLINK_LAST_ACCOUNT (it would leave no way to sign in; a password counts as one).
 */
export async function unlinkSignInMethod(
  auth: Auth,
  options: { headers: Headers; provider: string; reauthMaxAgeMinutes: number; now?: Date },
): Promise<Answer<object>> {
  const session = await auth.api
    .getSession({ headers: options.headers, query: { disableCookieCache: true } })
    .catch(() => null);
  if (!session) return { ok: false, code: 'UNAUTHENTICATED', status: 401 };
  if (!sessionIsRecent(new Date(session.session.createdAt), options.reauthMaxAgeMinutes, options.now))
    return { ok: false, code: 'auth/requires-recent-login', status: 403 };
  const accounts = await auth.api.listUserAccounts({ headers: options.headers });
  const account = accounts.find((row) => row.providerId === options.provider && options.provider !== 'credential');
  if (!account) return { ok: false, code: 'auth/no-such-provider', status: 404 };
  const response = await auth.api.unlinkAccount({
    body: { accountId: account.id },
    headers: options.headers,
    asResponse: true,
  });
  if (response.ok) return { ok: true };
  const body = (await response.json().catch(() => null)) as { code?: string } | null;
  if (body?.code === 'ACCOUNT_NOT_FOUND') return { ok: false, code: 'auth/no-such-provider', status: 404 };
  if (body?.code === 'SESSION_NOT_FRESH') return { ok: false, code: 'auth/requires-recent-login', status: 403 };
  return { ok: false, code: body?.code ?? 'LINK_FAILED', status: response.status };
}

async function urlAnswer(response: Response): Promise<Answer<{ url: string; setCookies: string[] }>> {
  if (response.status === 401) return { ok: false, code: 'UNAUTHENTICATED', status: 401 };
  const body = (await response.json().catch(() => null)) as { url?: string; code?: string } | null;
  if (!response.ok || !body?.url) return { ok: false, code: body?.code ?? 'LINK_FAILED', status: response.status };
  return { ok: true, url: body.url, setCookies: response.headers.getSetCookie() };
}
