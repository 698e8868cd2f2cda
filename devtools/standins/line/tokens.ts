// The LINE stand-in's token, userinfo and verify endpoints, with HS256 ID tokens signed by the channel secret.
import { createHash, createHmac } from 'node:crypto';
import type { Context } from 'hono';
import type { LineStandinUser } from './index';
import { ACCESS_TOKEN_TTL_S, ID_TOKEN_TTL_S, ISSUER, type LineState, sameSecret, sweep, token } from './state';

/** POST /oauth2/v2.1/token: authorization_code (with PKCE) or refresh_token. */
export async function exchangeToken(state: LineState, c: Context): Promise<Response> {
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
export function userInfo(state: LineState, c: Context): Response {
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
export function verifyAccessToken(state: LineState, c: Context): Response {
  const issued = state.accessTokens.get(c.req.query('access_token') ?? '');
  if (!issued || issued.expiresAt < Date.now()) return oauthError(c, 'invalid_request', 'access token expired');
  return c.json({
    scope: issued.scopes.join(' '),
    client_id: state.options.channelId,
    expires_in: Math.floor((issued.expiresAt - Date.now()) / 1000),
  });
}

/** POST /oauth2/v2.1/verify: verifies an ID token (audience, nonce, subject). */
export async function verifyIdToken(state: LineState, c: Context): Promise<Response> {
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
