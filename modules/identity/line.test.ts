// The local LINE Login v2.1 stand-in's protocol on its own (codes, PKCE, ID tokens, userinfo, verify) and
// the shop's ID token check against it; linking a member's account is in line.db.test.ts.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { verifyLineIdToken } from './line.server';
import { startLineStandin, type LineStandin } from '#devtools/standins/line';

const TEST_ORIGIN = 'http://shop.test';
const CALLBACK = `${TEST_ORIGIN}/api/auth/callback/line`;
const CHANNEL_ID = '1650000001';
const CHANNEL_SECRET = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

let line: LineStandin;

beforeAll(async () => {
  line = await startLineStandin({ channelId: CHANNEL_ID, channelSecret: CHANNEL_SECRET, callbackUrls: [CALLBACK] });
});
afterAll(async () => {
  await line?.close();
});

describe('verifyLineIdToken', () => {
  it('accepts the stand-in’s ID token and rejects another secret, audience or an expired one', async () => {
    const { tokens } = await authorizeAndExchange({ scope: 'openid profile', nonce: 'n-123' });
    const claims = verifyLineIdToken(tokens.id_token, { channelId: CHANNEL_ID, channelSecret: CHANNEL_SECRET });
    expect(claims).toMatchObject({ iss: 'https://access.line.me', aud: CHANNEL_ID, nonce: 'n-123' });
    expect(verifyLineIdToken(tokens.id_token, { channelId: CHANNEL_ID, channelSecret: 'other' })).toBeNull();
    expect(verifyLineIdToken(tokens.id_token, { channelId: '1650000002', channelSecret: CHANNEL_SECRET })).toBeNull();
    expect(
      verifyLineIdToken(
        tokens.id_token,
        { channelId: CHANNEL_ID, channelSecret: CHANNEL_SECRET },
        Date.now() + 2 * 60 * 60 * 1000,
      ),
    ).toBeNull();
    const [h, p, s] = tokens.id_token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'Uforged' })).toString('base64url');
    expect(
      verifyLineIdToken(`${h}.${forged}.${s}`, { channelId: CHANNEL_ID, channelSecret: CHANNEL_SECRET }),
    ).toBeNull();
    expect(verifyLineIdToken(`${h}.${p}`, { channelId: CHANNEL_ID, channelSecret: CHANNEL_SECRET })).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------------
// The stand-in's protocol on its own.

function pkce() {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeUrl(params: Record<string, string>) {
  const url = new URL(line.baseUrls.authorize);
  for (const [key, value] of Object.entries({
    response_type: 'code',
    client_id: CHANNEL_ID,
    redirect_uri: CALLBACK,
    state: 'st-1',
    scope: 'openid profile',
    ...params,
  })) {
    if (value !== '') url.searchParams.set(key, value);
  }
  return url.toString();
}

async function tokenRequest(params: Record<string, string>) {
  const response = await fetch(line.baseUrls.token, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      redirect_uri: CALLBACK,
      client_id: CHANNEL_ID,
      client_secret: CHANNEL_SECRET,
      ...params,
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function authorizeAndExchange(params: Record<string, string> = {}) {
  const { verifier, challenge } = pkce();
  const back = await line.decide(
    authorizeUrl({ code_challenge: challenge, code_challenge_method: 'S256', ...params }),
    'approve',
  );
  const code = back.searchParams.get('code')!;
  const exchanged = await tokenRequest({ code, code_verifier: verifier });
  expect(exchanged.status).toBe(200);
  return { code, verifier, tokens: exchanged.body as Record<string, string> };
}

describe('LINE Login stand-in', () => {
  it('authorize validates client_id, redirect_uri, response_type, state and scope', async () => {
    const page = async (params: Record<string, string>) => fetch(authorizeUrl(params), { redirect: 'manual' });
    expect((await page({ client_id: '999' })).status).toBe(400);
    expect((await page({ redirect_uri: 'https://evil.example/cb' })).status).toBe(400);
    const badType = await page({ response_type: 'token' });
    expect(badType.status).toBe(302);
    expect(new URL(badType.headers.get('location')!).searchParams.get('error')).toBe('unsupported_response_type');
    expect(new URL((await page({ state: '' })).headers.get('location')!).searchParams.get('error')).toBe(
      'invalid_request',
    );
    expect(new URL((await page({ scope: 'friends' })).headers.get('location')!).searchParams.get('error')).toBe(
      'invalid_scope',
    );
    expect(
      new URL(
        (await page({ code_challenge: pkce().challenge, code_challenge_method: 'plain' })).headers.get('location')!,
      ).searchParams.get('error'),
    ).toBe('invalid_request');
    expect((await page({})).status).toBe(200);
  });

  it('cancel redirects with error=access_denied and the state', async () => {
    const back = await line.decide(authorizeUrl({ state: 'cancel-me' }), 'cancel');
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'access_denied', state: 'cancel-me' });
    expect(back.searchParams.has('code')).toBe(false);
  });

  it('issues tokens once per code, checks PKCE, redirect_uri and the client', async () => {
    const user = line.users.preset({ name: 'トークン確認' });
    const { code, verifier, tokens } = await authorizeAndExchange({ nonce: 'abc' });
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 2592000, scope: 'openid profile' });
    expect(tokens.access_token).toBeTruthy();
    expect(tokens.refresh_token).toBeTruthy();
    const idClaims = JSON.parse(Buffer.from(tokens.id_token!.split('.')[1]!, 'base64url').toString());
    expect(idClaims).toMatchObject({
      iss: 'https://access.line.me',
      aud: CHANNEL_ID,
      sub: user.sub,
      name: 'トークン確認',
      nonce: 'abc',
    });
    expect(JSON.parse(Buffer.from(tokens.id_token!.split('.')[0]!, 'base64url').toString())).toEqual({
      typ: 'JWT',
      alg: 'HS256',
    });
    // Used once.
    expect(await tokenRequest({ code, code_verifier: verifier })).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'invalid authorization code' },
    });

    const wrongVerifier = await (async () => {
      const { challenge } = pkce();
      const back = await line.decide(
        authorizeUrl({ code_challenge: challenge, code_challenge_method: 'S256' }),
        'approve',
      );
      return tokenRequest({ code: back.searchParams.get('code')!, code_verifier: pkce().verifier });
    })();
    expect(wrongVerifier).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const noVerifier = await (async () => {
      const back = await line.decide(
        authorizeUrl({ code_challenge: pkce().challenge, code_challenge_method: 'S256' }),
        'approve',
      );
      return tokenRequest({ code: back.searchParams.get('code')! });
    })();
    expect(noVerifier).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const otherRedirect = await (async () => {
      const back = await line.decide(authorizeUrl({}), 'approve');
      return tokenRequest({ code: back.searchParams.get('code')!, redirect_uri: `${TEST_ORIGIN}/elsewhere` });
    })();
    expect(otherRedirect).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const wrongSecret = await (async () => {
      const back = await line.decide(authorizeUrl({}), 'approve');
      return tokenRequest({ code: back.searchParams.get('code')!, client_secret: 'nope' });
    })();
    expect(wrongSecret).toEqual({
      status: 400,
      body: { error: 'invalid_client', error_description: 'invalid client_secret' },
    });
  });

  it('userinfo answers the user for the Bearer token; verify checks ID tokens', async () => {
    const user = line.users.preset({ name: 'ユーザー情報', picture: 'https://profile.line-scdn.net/standin/u' });
    const { tokens } = await authorizeAndExchange({ nonce: 'nonce-1' });
    const info = await fetch(line.baseUrls.userinfo, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(await info.json()).toEqual({
      sub: user.sub,
      name: 'ユーザー情報',
      picture: 'https://profile.line-scdn.net/standin/u',
    });
    expect((await fetch(line.baseUrls.userinfo, { headers: { Authorization: 'Bearer nope' } })).status).toBe(401);

    const verify = async (params: Record<string, string>) => {
      const response = await fetch(line.baseUrls.verify, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const ok = await verify({ id_token: tokens.id_token!, client_id: CHANNEL_ID, nonce: 'nonce-1', user_id: user.sub });
    expect(ok).toMatchObject({ status: 200, body: { sub: user.sub, aud: CHANNEL_ID, iss: 'https://access.line.me' } });
    expect(await verify({ id_token: tokens.id_token!, client_id: '1650000002' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
    expect(await verify({ id_token: tokens.id_token!, client_id: CHANNEL_ID, nonce: 'other' })).toMatchObject({
      status: 400,
    });
    expect(await verify({ id_token: `${tokens.id_token!}x`, client_id: CHANNEL_ID })).toMatchObject({ status: 400 });
  });
});
