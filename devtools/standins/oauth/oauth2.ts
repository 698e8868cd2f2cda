// A small OAuth 2.0 authorization server shaped like GitHub's, Facebook's and X's, for tests and the
// local demo: the consent page, the code, the token endpoint and each provider's user endpoints, at
// the same paths the real hosts use (better-auth 1.7.25, @better-auth/core/dist/social-providers/).
// Not a general OAuth server: one client, codes in memory, no refresh.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { escapeHtml, listenStandin } from '#devtools/standins/shared';
import { OAUTH_PROVIDER_HOSTS, toLocal, type OAuthStandin, type OAuthStandinUser } from './types';

const CODE_TTL_MS = 10 * 60 * 1000;
const TOKEN_TTL_S = 2 * 60 * 60;

export interface OAuth2StandinOptions {
  clientId: string;
  clientSecret: string;
  /** Registered callback URLs (exact, query ignored); any http(s) URL when unset. */
  callbackUrls?: string[];
  host?: string;
  port?: number;
}

interface Issued {
  user: OAuthStandinUser;
  scopes: string[];
}

export interface OAuth2State {
  options: OAuth2StandinOptions;
  current: OAuthStandinUser;
  pending: Map<
    string,
    { redirectUri: string; state: string; scopes: string[]; codeChallenge?: string; user: OAuthStandinUser }
  >;
  codes: Map<
    string,
    { redirectUri: string; scopes: string[]; codeChallenge?: string; user: OAuthStandinUser; expiresAt: number }
  >;
  tokens: Map<string, Issued & { expiresAt: number }>;
}

/** What differs between the providers: paths, client authentication, token answer and user endpoints. */
export interface OAuth2Shape {
  provider: 'github' | 'facebook' | 'twitter';
  title: string;
  authorizePath: string;
  tokenPath: string;
  /** 'basic': client_secret_basic only (X); 'post': client_id and client_secret in the form. */
  clientAuth: 'basic' | 'post';
  /** PKCE required (X, GitHub when asked); otherwise checked when sent. */
  pkceRequired: boolean;
  scopeSeparator: ' ' | ',';
  newUser(): OAuthStandinUser;
  /** The provider's user endpoints. */
  routes(app: Hono, state: OAuth2State, bearer: (c: Context) => Issued | null): void;
}

const token = (bytes: number) => randomBytes(bytes).toString('base64url');

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function redirectUriAllowed(options: OAuth2StandinOptions, redirectUri: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(redirectUri);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (!options.callbackUrls) return true;
  return options.callbackUrls.some((url) => url === redirectUri || url === `${parsed.origin}${parsed.pathname}`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}.note{font-size:.85rem;background:#f3f3f3;padding:.5rem}form{display:flex;gap:.75rem;margin-top:1.5rem}button{flex:1;padding:.75rem;font-size:1rem}</style>
</head><body>${body}</body></html>`;
}

function errorPage(shape: OAuth2Shape, c: Context, message: string) {
  return c.html(page(`エラー | ${shape.title}`, `<h1>エラー</h1><p>${escapeHtml(message)}</p>`), 400);
}

/** GET the authorize page: the request checked as the provider does, then the consent page. */
function showAuthorization(shape: OAuth2Shape, state: OAuth2State, c: Context): Response {
  const q = c.req.query();
  if (q.client_id !== state.options.clientId) return errorPage(shape, c, 'client_id が正しくありません。');
  if (!q.redirect_uri || !redirectUriAllowed(state.options, q.redirect_uri))
    return errorPage(shape, c, 'redirect_uri が登録されたコールバックURLと一致しません。');
  const back = (error: string) => {
    const target = new URL(q.redirect_uri!);
    target.searchParams.set('error', error);
    if (q.state) target.searchParams.set('state', q.state);
    return c.redirect(target.toString(), 302);
  };
  if (q.response_type !== 'code') return back('unsupported_response_type');
  if (!q.state) return back('invalid_request');
  if (q.code_challenge || shape.pkceRequired) {
    if (q.code_challenge_method !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(q.code_challenge ?? ''))
      return back('invalid_request');
  }
  const id = token(18);
  state.pending.set(id, {
    redirectUri: q.redirect_uri,
    state: q.state,
    scopes: (q.scope ?? '').split(shape.scopeSeparator).filter(Boolean),
    codeChallenge: q.code_challenge || undefined,
    user: { ...state.current },
  });
  return c.html(
    page(
      `${shape.title}（テスト環境）`,
      `<h1>${escapeHtml(shape.title)}（テスト環境）</h1>
<p class="note">テスト用の代役です。本物のサービスには接続していません。</p>
<p><strong>${escapeHtml(state.current.name)}</strong> としてログインします。</p>
<form method="post" action="${escapeHtml(shape.authorizePath)}">
<input type="hidden" name="request_id" value="${escapeHtml(id)}">
<button type="submit" name="decision" value="allow">許可する</button>
<button type="submit" name="decision" value="deny">キャンセル</button>
</form>`,
    ),
  );
}

/** POST the authorize page: the member allows or denies; back to the client with a code or an error. */
async function decideAuthorization(shape: OAuth2Shape, state: OAuth2State, c: Context): Promise<Response> {
  const form = await c.req.parseBody();
  const id = String(form.request_id ?? '');
  const request = state.pending.get(id);
  if (!request) return errorPage(shape, c, 'ログインの有効期限が切れました。');
  state.pending.delete(id);
  const target = new URL(request.redirectUri);
  if (form.decision === 'allow') {
    const code = token(20);
    state.codes.set(code, { ...request, expiresAt: Date.now() + CODE_TTL_MS });
    target.searchParams.set('code', code);
  } else {
    target.searchParams.set('error', 'access_denied');
  }
  target.searchParams.set('state', request.state);
  return c.redirect(target.toString(), 302);
}

/** POST the token endpoint: the client's credentials (form or Basic), then the code (and PKCE verifier) for a token. */
async function exchangeCode(shape: OAuth2Shape, state: OAuth2State, c: Context): Promise<Response> {
  const form = new URLSearchParams(await c.req.text());
  let clientId = form.get('client_id');
  let clientSecret = form.get('client_secret');
  const basic = /^Basic (\S+)$/.exec(c.req.header('authorization') ?? '');
  if (shape.clientAuth === 'basic') {
    if (!basic || clientSecret) return c.json({ error: 'invalid_client' }, 401);
    const [id, secret] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
    clientId = decodeURIComponent(id ?? '');
    clientSecret = decodeURIComponent(secret ?? '');
  }
  if (clientId !== state.options.clientId || !sameSecret(clientSecret ?? '', state.options.clientSecret))
    return c.json({ error: 'invalid_client', error_description: 'bad client credentials' }, 401);
  if (form.get('grant_type') !== 'authorization_code') return c.json({ error: 'unsupported_grant_type' }, 400);
  const code = form.get('code') ?? '';
  const issued = state.codes.get(code);
  state.codes.delete(code);
  if (!issued || issued.expiresAt < Date.now()) return c.json({ error: 'invalid_grant' }, 400);
  if (form.get('redirect_uri') !== issued.redirectUri) return c.json({ error: 'invalid_grant' }, 400);
  if (issued.codeChallenge) {
    const verifier = form.get('code_verifier') ?? '';
    if (createHash('sha256').update(verifier).digest('base64url') !== issued.codeChallenge)
      return c.json({ error: 'invalid_grant', error_description: 'code_verifier' }, 400);
  }
  const accessToken = token(32);
  state.tokens.set(accessToken, {
    user: issued.user,
    scopes: issued.scopes,
    expiresAt: Date.now() + TOKEN_TTL_S * 1000,
  });
  return c.json(
    {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: TOKEN_TTL_S,
      scope: issued.scopes.join(shape.scopeSeparator),
    },
    200,
    { 'Cache-Control': 'no-store' },
  );
}

/** Starts a stand-in of the given shape on a free loopback port. */
export async function startOAuth2Standin(shape: OAuth2Shape, options: OAuth2StandinOptions): Promise<OAuthStandin> {
  const state: OAuth2State = {
    options,
    current: shape.newUser(),
    pending: new Map(),
    codes: new Map(),
    tokens: new Map(),
  };
  const app = new Hono();
  app.get(shape.authorizePath, (c) => showAuthorization(shape, state, c));
  app.post(shape.authorizePath, (c) => decideAuthorization(shape, state, c));
  app.post(shape.tokenPath, (c) => exchangeCode(shape, state, c));

  const bearer = (c: Context): Issued | null => {
    const match = /^Bearer (\S+)$/i.exec(c.req.header('authorization') ?? '');
    const issued = match ? state.tokens.get(match[1]!) : undefined;
    return issued && issued.expiresAt > Date.now() ? issued : null;
  };
  shape.routes(app, state, bearer);

  const listening = await listenStandin(app.fetch, { host: options.host, port: options.port });
  const hosts = OAUTH_PROVIDER_HOSTS[shape.provider];
  return {
    provider: shape.provider,
    url: listening.url,
    hosts,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    users: {
      preset(user = {}) {
        state.current = { ...shape.newUser(), ...user };
        return state.current;
      },
      get current() {
        return state.current;
      },
    },
    async decide(authorizationUrl, decision) {
      const local = toLocal(authorizationUrl, hosts, listening.url);
      const shown = await fetch(local, { redirect: 'manual' });
      const html = await shown.text();
      const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
      if (shown.status !== 200 || !requestId)
        throw new Error(`${shape.provider} stand-in: authorize answered ${shown.status}: ${html.slice(0, 200)}`);
      const answer = await fetch(new URL(shape.authorizePath, listening.url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ request_id: requestId, decision: decision === 'approve' ? 'allow' : 'deny' }),
        redirect: 'manual',
      });
      const location = answer.headers.get('location');
      if (answer.status !== 302 || !location)
        throw new Error(`${shape.provider} stand-in: decision answered ${answer.status}`);
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

let sequence = 0;
/** A distinct id per new user. */
export function nextId(digits = 10): string {
  sequence += 1;
  return `${Date.now() % 10 ** (digits - 4)}${String(sequence).padStart(4, '0')}`;
}
