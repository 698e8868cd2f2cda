// LINE Login (v2.1) through better-auth's genericOAuth plugin: the provider entry, starting a link
// for a signed-in member, and reading the link.
//
// LINE is both a way to sign in (a first LINE login creates a member) and a method a member links
// from /mypage/settings/unlink. LINE gives no email without a separately approved permission, so the
// profile handed to better-auth carries a stand-in address made of the LINE user ID
// (`<sub>@line.placeholder.invalid`, never deliverable, never matching another member). See line.md
// and docs/decisions/015-social-sign-in.md; the linking rules are in social.server.ts.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { GenericOAuthConfig, GenericOAuthUserInfo } from 'better-auth/plugins';
import type { Database } from '#db/client';
import type { ShopAuth } from './auth.server';
import { accounts } from './schema';
import { refuse, RefusalError } from '#modules/kernel';
import { nicknameFromProvider, PLACEHOLDER_EMAIL_SUFFIX } from './social';

/** better-auth's providerId, the `accounts.provider_id` of a linked LINE account. */
export const LINE_PROVIDER_ID = 'line';

/** LINE Login v2.1 endpoints (developers.line.biz/en/reference/line-login/). */
export const LINE_ENDPOINTS = {
  authorize: 'https://access.line.me/oauth2/v2.1/authorize',
  token: 'https://api.line.me/oauth2/v2.1/token',
  userinfo: 'https://api.line.me/oauth2/v2.1/userinfo',
} as const;

/** `iss` of the ID tokens LINE issues. */
export const LINE_ID_TOKEN_ISSUER = 'https://access.line.me';

/** Where LINE sends the member back to: register `${PUBLIC_ORIGIN}${LINE_CALLBACK_PATH}` in the console. */
export const LINE_CALLBACK_PATH = '/api/auth/callback/line';

export interface LineOAuthOptions {
  /** The LINE Login channel's Channel ID (LINE_CHANNEL_ID). */
  channelId: string;
  /** The channel secret (LINE_CHANNEL_SECRET): authenticates the token request and signs web-login ID tokens. */
  channelSecret: string;
  /** Other endpoints (the local stand-in, tests, the demo); never set in production. */
  baseUrls?: { authorize: string; token: string; userinfo: string };
}

/**
 * The genericOAuth entry for LINE: code flow with PKCE (S256), scopes `openid profile`, client secret
 * in the form body (as LINE's token endpoint wants). The account is keyed by the LINE user ID (`sub`),
 * taken from the ID token after checking its HS256 signature, issuer, audience and expiry, or from
 * the userinfo endpoint when no ID token came back.
 * @example genericOAuth({ config: [lineOAuthConfig({ channelId, channelSecret })] })
 */
export function lineOAuthConfig(options: LineOAuthOptions): GenericOAuthConfig<'line'> {
  const urls = options.baseUrls ?? LINE_ENDPOINTS;
  return {
    providerId: LINE_PROVIDER_ID,
    name: 'LINE',
    authorizationUrl: urls.authorize,
    tokenUrl: urls.token,
    userInfoUrl: urls.userinfo,
    clientId: options.channelId,
    clientSecret: options.channelSecret,
    authentication: 'post',
    scopes: ['openid', 'profile'],
    pkce: true,
    // Without discovery genericOAuth would key the account by `id`; LINE's user ID is `sub`.
    accountSubject: ({ profile }) => (typeof profile.sub === 'string' ? profile.sub : ''),
    getUserInfo: async (tokens) => lineProfile(tokens, options, urls.userinfo),
  };
}

async function lineProfile(
  tokens: { idToken?: string; accessToken?: string },
  options: LineOAuthOptions,
  userinfoUrl: string,
): Promise<GenericOAuthUserInfo | null> {
  if (tokens.idToken) {
    const claims = verifyLineIdToken(tokens.idToken, options);
    if (!claims) return null;
    return profileFrom(claims);
  }
  if (!tokens.accessToken) return null;
  try {
    const response = await fetch(userinfoUrl, {
      headers: { Authorization: `Bearer ${tokens.accessToken}`, Accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) return null;
    return profileFrom((await response.json()) as Record<string, unknown>);
  } catch {
    return null;
  }
}

/**
 * The stand-in email of a LINE member (LINE's own email needs a permission the shop does not ask for).
 * @example lineStandInEmail('U4af4980629') === 'u4af4980629@line.placeholder.invalid'
 */
export function lineStandInEmail(lineUserId: string): string {
  return `${lineUserId.toLowerCase()}@line${PLACEHOLDER_EMAIL_SUFFIX}`;
}

/** The LINE user ID keys the account; the email is the stand-in, the nickname LINE's display name, cleaned. */
function profileFrom(claims: Record<string, unknown>): GenericOAuthUserInfo | null {
  if (typeof claims.sub !== 'string' || !/^U[0-9a-f]{32}$/i.test(claims.sub)) return null;
  return {
    sub: claims.sub,
    email: lineStandInEmail(claims.sub),
    name: nicknameFromProvider(claims.name),
    image: typeof claims.picture === 'string' ? claims.picture : undefined,
    emailVerified: false,
  };
}

/**
 * Checks a web-login ID token (HS256 with the channel secret, `iss` https://access.line.me, `aud` the
 * channel ID, not expired) and answers its claims, or null.
 */
export function verifyLineIdToken(
  idToken: string,
  options: Pick<LineOAuthOptions, 'channelId' | 'channelSecret'>,
  now = Date.now(),
): Record<string, unknown> | null {
  const parts = idToken.split('.');
  if (parts.length !== 3) return null;
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(payloadPart, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (header.alg !== 'HS256') return null;
  const expected = createHmac('sha256', options.channelSecret).update(`${headerPart}.${payloadPart}`).digest();
  const given = Buffer.from(signaturePart, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (claims.iss !== LINE_ID_TOKEN_ISSUER) return null;
  const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audience.includes(options.channelId)) return null;
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now - 30_000) return null;
  return claims;
}

/** Every refusal of starting a LINE link; refusal-words.ts words each one. */
export const LINE_LINK_REFUSAL_CODES = [
  'UNAUTHENTICATED',
  'ALREADY_LINKED',
  'INVALID_RETURN_URL',
  'NOT_CONFIGURED',
  'LINK_FAILED',
] as const;
export type LineLinkRefusalCode = (typeof LINE_LINK_REFUSAL_CODES)[number];

/**
 * Thrown by startLineLink: UNAUTHENTICATED (no session), ALREADY_LINKED, INVALID_RETURN_URL (details:
 * url), NOT_CONFIGURED or LINK_FAILED (details: better-auth's status, when it answered one).
 */
export class LineLinkError extends RefusalError<LineLinkRefusalCode> {
  constructor(code: LineLinkRefusalCode, details: Record<string, unknown> = {}) {
    super(refuse(code, details));
    this.name = 'LineLinkError';
  }
}

/**
 * Begins linking LINE to the signed-in member whose request headers (cookies or bearer) are given.
 * Answers the LINE authorization URL to send the member's browser to, and the Set-Cookie lines that
 * response must carry (better-auth's signed state cookie: the callback refuses the flow without it).
 * After LINE, the member lands on `/api/auth/callback/line`, which links and redirects to
 * `callbackURL`, or to `errorCallbackURL?error=<code>` (see lineLinkErrorMessage).
 * Both URLs must be same-origin paths ('/app/…') or absolute URLs on the shop's origin.
 * @example const { url, setCookies } = await startLineLink(auth, { headers: request.headers, callbackURL: '/app/checkout/linelink?done=1', errorCallbackURL: '/app/checkout/linelink' })
 */
export async function startLineLink(
  auth: Pick<ShopAuth, 'api' | 'options'>,
  options: { headers: Headers | HeadersInit; callbackURL: string; errorCallbackURL: string },
): Promise<{ url: string; setCookies: string[] }> {
  const headers = new Headers(options.headers);
  const origin = typeof auth.options.baseURL === 'string' ? new URL(auth.options.baseURL).origin : undefined;
  for (const url of [options.callbackURL, options.errorCallbackURL]) {
    if (!isShopUrl(url, origin)) throw new LineLinkError('INVALID_RETURN_URL', { url });
  }
  let linked: Array<{ providerId: string; accountId: string }>;
  try {
    linked = await auth.api.listUserAccounts({ headers });
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 401) throw new LineLinkError('UNAUTHENTICATED');
    throw error;
  }
  if (linked.some((account) => account.providerId === LINE_PROVIDER_ID)) {
    throw new LineLinkError('ALREADY_LINKED');
  }
  const response = await auth.api.linkSocialAccount({
    body: {
      provider: LINE_PROVIDER_ID,
      callbackURL: options.callbackURL,
      errorCallbackURL: options.errorCallbackURL,
      disableRedirect: true,
    },
    headers,
    asResponse: true,
  });
  if (response.status === 401) throw new LineLinkError('UNAUTHENTICATED');
  if (response.status === 404) throw new LineLinkError('NOT_CONFIGURED');
  if (!response.ok) throw new LineLinkError('LINK_FAILED', { status: response.status });
  const body = (await response.json()) as { url?: string };
  if (!body.url) throw new LineLinkError('LINK_FAILED');
  return { url: body.url, setCookies: response.headers.getSetCookie() };
}

function isShopUrl(url: string, origin: string | undefined): boolean {
  if (url.startsWith('/')) return !url.startsWith('//') && !url.startsWith('/\\');
  try {
    return origin !== undefined && new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/**
 * The member's LINE link (the oldest, should there be several), read from the accounts table.
 * @example const link = await linkedLineAccount(db, memberId) // { lineUserId: 'U4af…' } | null
 */
export async function linkedLineAccount(db: Database, memberId: string): Promise<{ lineUserId: string } | null> {
  const [row] = await db
    .select({ accountId: accounts.accountId })
    .from(accounts)
    .where(and(eq(accounts.userId, memberId), eq(accounts.providerId, LINE_PROVIDER_ID)))
    .orderBy(asc(accounts.createdAt))
    .limit(1);
  return row ? { lineUserId: row.accountId } : null;
}

/**
 * Japanese text for the `error` better-auth puts on errorCallbackURL after a failed link.
 * @example lineLinkErrorMessage(new URL(request.url).searchParams.get('error'))
 */
export function lineLinkErrorMessage(code: string | null | undefined): string {
  switch (code) {
    case 'access_denied':
      return 'LINE連携がキャンセルされました。';
    case 'account_already_linked_to_different_user':
      return 'このLINEアカウントは、すでに別の会員と連携されています。';
    case 'state_mismatch':
    case 'state_not_found':
    case 'state_invalid':
    case 'unable_to_link_account':
      return 'LINE連携の有効期限が切れたか、ログイン状態が変わりました。もう一度お試しください。';
    default:
      return 'LINE連携に失敗しました。時間をおいてもう一度お試しください。';
  }
}
