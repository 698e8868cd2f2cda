// Local stand-in for LINE Login v2.1 (web login): the authorization page, the token, userinfo and
// verify endpoints, for tests and the local demo. It speaks the documented shapes
// (developers.line.biz/en/reference/line-login/): authorization code flow with optional PKCE (S256),
// client_id/client_secret in the form body, HS256 ID tokens signed with the channel secret, errors as
// `{ error, error_description }` with 400. What it simplifies is listed in ../line.md.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { listenStandin } from '#devtools/standins/shared';

export interface LineStandinOptions {
  port?: number;
  host?: string;
  /** The LINE Login channel this stand-in plays: the shop's LINE_CHANNEL_ID / LINE_CHANNEL_SECRET. */
  channelId: string;
  channelSecret: string;
  /** Registered callback URLs (exact match, query ignored); any http(s) URL is accepted when unset. */
  callbackUrls?: string[];
  /** Base URL the stand-in is reached at from the browser, when it differs from http://host:port. */
  publicUrl?: string;
}

/** The LINE user who "logs in" on the authorization page. */
export interface LineStandinUser {
  /** LINE user ID: 'U' and 32 hex digits. */
  sub: string;
  name: string;
  picture?: string;
  /** Only returned (in the ID token) when the `email` scope was asked for. */
  email?: string;
}

export interface LineStandin {
  url: string;
  /** Endpoints to hand to lineOAuthConfig({ baseUrls }). */
  baseUrls: { authorize: string; token: string; userinfo: string; verify: string };
  users: {
    /** Presets the LINE user for the next authorization requests (also answered, with a fresh sub when none is given). */
    preset(user?: Partial<LineStandinUser>): LineStandinUser;
    /** The user the next authorization request will log in as. */
    readonly current: LineStandinUser;
    /** A fresh LINE user ID. */
    newId(): string;
  };
  /**
   * Plays the member on the authorization page over HTTP: opens `authorizationUrl`, presses 許可する
   * ('approve') or キャンセル ('cancel'), and answers where LINE sends the browser (the Location).
   */
  decide(authorizationUrl: string, decision: 'approve' | 'cancel'): Promise<URL>;
  close(): Promise<void>;
}

const CODE_TTL_MS = 10 * 60 * 1000;
const ACCESS_TOKEN_TTL_S = 30 * 24 * 60 * 60;
const ID_TOKEN_TTL_S = 60 * 60;
const ISSUER = 'https://access.line.me';
const KNOWN_SCOPES = new Set(['openid', 'profile', 'email']);

interface AuthorizationRequest {
  id: string;
  redirectUri: string;
  state: string;
  scopes: string[];
  nonce?: string;
  codeChallenge?: string;
  user: LineStandinUser;
  expiresAt: number;
}

interface IssuedCode {
  redirectUri: string;
  scopes: string[];
  nonce?: string;
  codeChallenge?: string;
  user: LineStandinUser;
  expiresAt: number;
}

interface IssuedToken {
  user: LineStandinUser;
  scopes: string[];
  expiresAt: number;
  refreshToken: string;
}

/** Everything the stand-in holds, passed explicitly to each handler. */
interface LineState {
  options: LineStandinOptions;
  /** Authorization requests shown on the consent page, by request id. */
  pending: Map<string, AuthorizationRequest>;
  codes: Map<string, IssuedCode>;
  accessTokens: Map<string, IssuedToken>;
  /** Refresh token → its access token. */
  refreshTokens: Map<string, string>;
  /** The LINE user who approves next. */
  current: LineStandinUser;
}

type Route = {
  method: 'get' | 'post';
  path: string;
  handle: (state: LineState, c: Context) => Response | Promise<Response>;
};

/** LINE Login v2.1's endpoints, one handler each. */
const ROUTES: readonly Route[] = [
  { method: 'get', path: '/oauth2/v2.1/authorize', handle: showAuthorization },
  { method: 'post', path: '/oauth2/v2.1/authorize', handle: decideAuthorization },
  { method: 'post', path: '/oauth2/v2.1/token', handle: exchangeToken },
  { method: 'get', path: '/oauth2/v2.1/userinfo', handle: userInfo },
  { method: 'post', path: '/oauth2/v2.1/userinfo', handle: userInfo },
  { method: 'get', path: '/oauth2/v2.1/verify', handle: verifyAccessToken },
  { method: 'post', path: '/oauth2/v2.1/verify', handle: verifyIdToken },
];

/** @example const line = await startLineStandin({ channelId: '1650000000', channelSecret: 'secret' }) */
export async function startLineStandin(options: LineStandinOptions): Promise<LineStandin> {
  const state: LineState = {
    options,
    pending: new Map(),
    codes: new Map(),
    accessTokens: new Map(),
    refreshTokens: new Map(),
    current: { sub: newLineUserId(), name: 'LINE太郎', picture: 'https://profile.line-scdn.net/standin/taro' },
  };
  const app = new Hono();
  for (const route of ROUTES) app.on(route.method.toUpperCase(), route.path, (c) => route.handle(state, c));
  const listening = await listenStandin(app.fetch, { host: options.host, port: options.port });
  const url = (options.publicUrl ?? listening.url).replace(/\/+$/, '');
  return {
    url,
    baseUrls: {
      authorize: `${url}/oauth2/v2.1/authorize`,
      token: `${url}/oauth2/v2.1/token`,
      userinfo: `${url}/oauth2/v2.1/userinfo`,
      verify: `${url}/oauth2/v2.1/verify`,
    },
    users: {
      preset(user = {}) {
        state.current = {
          sub: user.sub ?? newLineUserId(),
          name: user.name ?? 'LINE太郎',
          picture: user.picture,
          email: user.email,
        };
        return { ...state.current };
      },
      get current() {
        return { ...state.current };
      },
      newId: newLineUserId,
    },
    async decide(authorizationUrl, decision) {
      const pageResponse = await fetch(authorizationUrl, { redirect: 'manual' });
      if (pageResponse.status !== 200) {
        const location = pageResponse.headers.get('location');
        if (location) return new URL(location);
        throw new Error(
          `line stand-in: authorization page answered ${pageResponse.status}: ${await pageResponse.text()}`,
        );
      }
      const html = await pageResponse.text();
      const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
      if (!requestId) throw new Error('line stand-in: no request_id on the authorization page');
      const answer = await fetch(`${url}/oauth2/v2.1/authorize`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ request_id: requestId, decision: decision === 'approve' ? 'allow' : 'deny' }),
        redirect: 'manual',
      });
      const location = answer.headers.get('location');
      if (answer.status !== 302 || !location) throw new Error(`line stand-in: decision answered ${answer.status}`);
      return new URL(location);
    },
    async close() {
      await new Promise<void>((resolve) => {
        listening.server.close(() => resolve());
        (listening.server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}

/** GET /oauth2/v2.1/authorize: checks the request as LINE does, then the consent page (bad client or callback: an error page, no redirect). */
function showAuthorization(state: LineState, c: Context): Response {
  sweep(state);
  const q = c.req.query();
  // Bad client or callback URL: LINE shows an error page and does not redirect.
  if (q.client_id !== state.options.channelId) return errorPage(c, 'client_id が正しくありません。');
  if (!q.redirect_uri || !redirectUriAllowed(state, q.redirect_uri))
    return errorPage(c, 'redirect_uri がチャネルに登録されたコールバックURLと一致しません。');
  const back = (error: string, description: string) => {
    const target = new URL(q.redirect_uri!);
    target.searchParams.set('error', error);
    target.searchParams.set('error_description', description);
    if (q.state) target.searchParams.set('state', q.state);
    return c.redirect(target.toString(), 302);
  };
  if (q.response_type !== 'code') return back('unsupported_response_type', 'response_type must be code');
  if (!q.state) return back('invalid_request', 'state is required');
  const scopes = (q.scope ?? '').split(' ').filter(Boolean);
  if (scopes.length === 0 || scopes.some((scope) => !KNOWN_SCOPES.has(scope)))
    return back('invalid_scope', 'scope must be profile, openid and/or email');
  if (scopes.includes('email') && !scopes.includes('openid')) return back('invalid_scope', 'email requires openid');
  if (q.code_challenge !== undefined || q.code_challenge_method !== undefined) {
    if (q.code_challenge_method !== 'S256') return back('invalid_request', 'code_challenge_method must be S256');
    if (!q.code_challenge || !/^[A-Za-z0-9_-]{43}$/.test(q.code_challenge))
      return back('invalid_request', 'invalid code_challenge');
  }
  const request: AuthorizationRequest = {
    id: token(24),
    redirectUri: q.redirect_uri,
    state: q.state,
    scopes,
    nonce: q.nonce || undefined,
    codeChallenge: q.code_challenge || undefined,
    user: { ...state.current },
    expiresAt: Date.now() + CODE_TTL_MS,
  };
  state.pending.set(request.id, request);
  const asked = [
    scopes.includes('profile') ? 'プロフィール情報（表示名・プロフィール画像）' : null,
    scopes.includes('openid') ? 'ユーザー識別子（OpenID Connect）' : null,
    scopes.includes('email') ? 'メールアドレス' : null,
  ]
    .filter(Boolean)
    .map((line) => `<li>${escapeHtml(line!)}</li>`)
    .join('');
  return c.html(
    page(
      'LINEでログイン（テスト環境）',
      `<h1>LINEでログイン（テスト環境）</h1>
<p class="note">これはLINEログインのテスト用の代役です。本物のLINEには接続していません。</p>
<p><strong>${escapeHtml(request.user.name)}</strong> としてログインします。</p>
<p>このサービスが次の情報へのアクセスを求めています:</p>
<ul>${asked}</ul>
<form method="post" action="/oauth2/v2.1/authorize">
<input type="hidden" name="request_id" value="${escapeHtml(request.id)}">
<button type="submit" name="decision" value="allow">許可する</button>
<button type="submit" name="decision" value="deny">キャンセル</button>
<p class="note">別の人として試すとき: <button type="submit" name="decision" value="allow-new">新しいLINEユーザーとして許可する</button></p>
</form>`,
    ),
  );
}

/** POST /oauth2/v2.1/authorize: the member allows or denies; back to the callback with a code or an error. */
async function decideAuthorization(state: LineState, c: Context): Promise<Response> {
  sweep(state);
  const form = await c.req.parseBody();
  const request = state.pending.get(String(form.request_id ?? ''));
  if (!request || request.expiresAt < Date.now())
    return errorPage(c, 'ログインの有効期限が切れました。最初からやり直してください。');
  state.pending.delete(request.id);
  const target = new URL(request.redirectUri);
  if (form.decision === 'allow' || form.decision === 'allow-new') {
    // allow-new: another LINE user than the preset one (several members can link LINE in one sandbox).
    const user =
      form.decision === 'allow-new' ? { ...request.user, sub: newLineUserId(), name: 'LINE花子' } : request.user;
    const code = token(20);
    state.codes.set(code, {
      redirectUri: request.redirectUri,
      scopes: request.scopes,
      nonce: request.nonce,
      codeChallenge: request.codeChallenge,
      user,
      expiresAt: Date.now() + CODE_TTL_MS,
    });
    target.searchParams.set('code', code);
    target.searchParams.set('state', request.state);
  } else {
    target.searchParams.set('error', 'access_denied');
    target.searchParams.set('error_description', 'The resource owner denied the request.');
    target.searchParams.set('state', request.state);
  }
  return c.redirect(target.toString(), 302);
}

/** POST /oauth2/v2.1/token: authorization_code (with PKCE) or refresh_token. */
async function exchangeToken(state: LineState, c: Context): Promise<Response> {
  sweep(state);
  if (!(c.req.header('content-type') ?? '').startsWith('application/x-www-form-urlencoded')) {
    return oauthError(c, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded');
  }
  const form = new URLSearchParams(await c.req.text());
  if (form.get('client_id') !== state.options.channelId) return oauthError(c, 'invalid_client', 'invalid client_id');
  if (!sameSecret(form.get('client_secret') ?? '', state.options.channelSecret))
    return oauthError(c, 'invalid_client', 'invalid client_secret');
  const grantType = form.get('grant_type');
  if (grantType === 'authorization_code') {
    const code = form.get('code') ?? '';
    const issued = state.codes.get(code);
    // Single use: the code is spent by the first exchange that names this client, whatever its outcome.
    state.codes.delete(code);
    if (!issued || issued.expiresAt < Date.now()) return oauthError(c, 'invalid_grant', 'invalid authorization code');
    if (form.get('redirect_uri') !== issued.redirectUri)
      return oauthError(c, 'invalid_grant', 'redirect_uri does not match');
    const verifier = form.get('code_verifier');
    if (issued.codeChallenge) {
      if (!verifier || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier))
        return oauthError(c, 'invalid_grant', 'code_verifier is required');
      if (createHash('sha256').update(verifier).digest('base64url') !== issued.codeChallenge)
        return oauthError(c, 'invalid_grant', 'invalid code_verifier');
    } else if (verifier) {
      return oauthError(c, 'invalid_grant', 'code_verifier given for a request without code_challenge');
    }
    return c.json(issueTokens(state, issued.user, issued.scopes, issued.nonce), 200, {
      'Cache-Control': 'no-store',
      Pragma: 'no-cache',
    });
  }
  if (grantType === 'refresh_token') {
    const refreshToken = form.get('refresh_token') ?? '';
    const accessToken = state.refreshTokens.get(refreshToken);
    const previous = accessToken ? state.accessTokens.get(accessToken) : undefined;
    if (!accessToken || !previous) return oauthError(c, 'invalid_grant', 'invalid refresh token');
    state.refreshTokens.delete(refreshToken);
    state.accessTokens.delete(accessToken);
    const { id_token: _idToken, ...refreshed } = issueTokens(state, previous.user, previous.scopes);
    return c.json(refreshed, 200, { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  }
  return oauthError(c, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
}

/** GET or POST /oauth2/v2.1/userinfo: the user of a Bearer access token. */
function userInfo(state: LineState, c: Context): Response {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer (\S+)$/.exec(header);
  const issued = match ? state.accessTokens.get(match[1]!) : undefined;
  if (!issued || issued.expiresAt < Date.now()) {
    return c.json({ error: 'invalid_token', error_description: 'The access token expired' }, 401, {
      'WWW-Authenticate': 'Bearer error="invalid_token"',
    });
  }
  if (!issued.scopes.includes('openid'))
    return c.json({ error: 'insufficient_scope', error_description: 'openid scope is required' }, 403);
  return c.json({
    sub: issued.user.sub,
    ...(issued.scopes.includes('profile')
      ? { name: issued.user.name, ...(issued.user.picture ? { picture: issued.user.picture } : {}) }
      : {}),
  });
}

/** GET /oauth2/v2.1/verify: verifies an access token. */
function verifyAccessToken(state: LineState, c: Context): Response {
  const issued = state.accessTokens.get(c.req.query('access_token') ?? '');
  if (!issued || issued.expiresAt < Date.now()) return oauthError(c, 'invalid_request', 'access token expired');
  return c.json({
    scope: issued.scopes.join(' '),
    client_id: state.options.channelId,
    expires_in: Math.floor((issued.expiresAt - Date.now()) / 1000),
  });
}

/** POST /oauth2/v2.1/verify: verifies an ID token (audience, nonce, subject). */
async function verifyIdToken(state: LineState, c: Context): Promise<Response> {
  const form = new URLSearchParams(await c.req.text());
  const idToken = form.get('id_token');
  const clientId = form.get('client_id');
  if (!idToken) return oauthError(c, 'invalid_request', 'id_token is required');
  if (!clientId) return oauthError(c, 'invalid_request', 'client_id is required');
  const claims = readSigned(idToken, state.options.channelSecret);
  if (!claims) return oauthError(c, 'invalid_request', 'Invalid IdToken.');
  if (claims.exp * 1000 < Date.now()) return oauthError(c, 'invalid_request', 'IdToken expired.');
  if (claims.aud !== clientId) return oauthError(c, 'invalid_request', 'Invalid IdToken Audience.');
  const nonce = form.get('nonce');
  if (nonce !== null && claims.nonce !== nonce) return oauthError(c, 'invalid_request', 'Invalid IdToken Nonce.');
  const userId = form.get('user_id');
  if (userId !== null && claims.sub !== userId)
    return oauthError(c, 'invalid_request', 'Invalid IdToken Subject Identifier.');
  return c.json(claims);
}

function issueTokens(state: LineState, user: LineStandinUser, scopes: string[], nonce?: string) {
  const accessToken = token(32);
  const refreshToken = token(24);
  state.accessTokens.set(accessToken, {
    user,
    scopes,
    expiresAt: Date.now() + ACCESS_TOKEN_TTL_S * 1000,
    refreshToken,
  });
  state.refreshTokens.set(refreshToken, accessToken);
  const now = Math.floor(Date.now() / 1000);
  const idToken = scopes.includes('openid')
    ? signHs256(
        {
          iss: ISSUER,
          sub: user.sub,
          aud: state.options.channelId,
          exp: now + ID_TOKEN_TTL_S,
          iat: now,
          ...(nonce ? { nonce } : {}),
          amr: ['linesso'],
          ...(scopes.includes('profile')
            ? { name: user.name, ...(user.picture ? { picture: user.picture } : {}) }
            : {}),
          ...(scopes.includes('email') && user.email ? { email: user.email } : {}),
        },
        state.options.channelSecret,
      )
    : undefined;
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_S,
    refresh_token: refreshToken,
    scope: scopes.join(' '),
    ...(idToken ? { id_token: idToken } : {}),
  };
}

function redirectUriAllowed(state: LineState, redirectUri: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(redirectUri);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (!state.options.callbackUrls) return true;
  const withoutQuery = `${parsed.origin}${parsed.pathname}`;
  return state.options.callbackUrls.some((registered) => registered === redirectUri || registered === withoutQuery);
}

function sweep(state: LineState): void {
  const now = Date.now();
  for (const [id, request] of state.pending) if (request.expiresAt < now) state.pending.delete(id);
  for (const [code, issued] of state.codes) if (issued.expiresAt < now) state.codes.delete(code);
}

/** A LINE user ID: 'U' followed by 32 hex digits. */
function newLineUserId(): string {
  return `U${randomBytes(16).toString('hex')}`;
}

function token(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

// Signed and checked here on their own (not with line.server.ts's verifier) so a mistake on either side shows in tests.
function signHs256(payload: Record<string, unknown>, secret: string): string {
  const header = Buffer.from(JSON.stringify({ typ: 'JWT', alg: 'HS256' })).toString('base64url');
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const signature = createHmac('sha256', secret).update(`${header}.${body}`).digest('base64url');
  return `${header}.${body}.${signature}`;
}

function readSigned(
  jwt: string,
  secret: string,
): (Record<string, unknown> & { exp: number; aud: unknown; sub: unknown; nonce?: unknown }) | null {
  const [header, body, signature, ...rest] = jwt.split('.');
  if (!header || !body || !signature || rest.length > 0) return null;
  const expected = createHmac('sha256', secret).update(`${header}.${body}`).digest('base64url');
  if (!sameSecret(signature, expected)) return null;
  try {
    const decodedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    if (decodedHeader.alg !== 'HS256') return null;
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    return typeof claims.exp === 'number' ? claims : null;
  } catch {
    return null;
  }
}

function oauthError(c: Context, error: string, description: string) {
  return c.json({ error, error_description: description }, 400, { 'Cache-Control': 'no-store' });
}

function errorPage(c: Context, message: string) {
  return c.html(page('エラー | LINEでログイン（テスト環境）', `<h1>エラー</h1><p>${escapeHtml(message)}</p>`), 400);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 2rem auto; padding: 0 1rem; color: #111; }
  h1 { font-size: 1.25rem; color: #06c755; }
  .note { font-size: .85rem; color: #555; background: #f3f3f3; padding: .5rem; border-radius: .25rem; }
  form { display: flex; gap: .75rem; margin-top: 1.5rem; }
  button { flex: 1; padding: .75rem; font-size: 1rem; border-radius: .5rem; border: 1px solid #ccc; background: #fff; }
  button[value="allow"] { background: #06c755; color: #fff; border-color: #06c755; }
</style>
</head>
<body>
${body}
</body>
</html>`;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );
}
