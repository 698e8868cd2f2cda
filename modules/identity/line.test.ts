// LINE account linking against the local LINE Login v2.1 stand-in: a signed-in member links, cancels,
// meets a refused token request, or tries a LINE user another member already linked; LINE never signs
// anyone in; and the stand-in's protocol on its own (codes, PKCE, ID tokens, userinfo, verify).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '../../tests/support/database';
import { openDatabase, type DatabaseHandle } from '../../db/client';
import { loadConfig } from '../../server/config';
import { createLogger } from '../../server/logger';
import { createShopAuth, type ShopAuth } from './auth.server';
import { accounts, users } from './schema';
import { LineLinkError, linkedLineAccount, lineLinkErrorMessage, startLineLink, verifyLineIdToken } from './line.server';
import { startLineStandin, type LineStandin } from '#devtools/standins/line';

const TEST_ORIGIN = 'http://shop.test';
const CALLBACK = `${TEST_ORIGIN}/api/auth/callback/line`;
const CHANNEL_ID = '1650000001';
const CHANNEL_SECRET = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const DONE = '/app/checkout/linelink?linked=1';
const FAILED = '/app/checkout/linelink';

let testDb: TestDatabase;
let handle: DatabaseHandle;
let line: LineStandin;
let auth: ShopAuth;
/** Same shop, configured with a channel secret LINE does not know. */
let authWithWrongSecret: ShopAuth;

beforeAll(async () => {
  line = await startLineStandin({ channelId: CHANNEL_ID, channelSecret: CHANNEL_SECRET, callbackUrls: [CALLBACK] });
  testDb = await createTestDatabase('line');
  handle = await openDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir, poolSize: 4 });
  await handle.migrate();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: testDb.dataDir,
    PUBLIC_ORIGIN: TEST_ORIGIN,
    AUTH_SECRET: 'line-test-secret-line-test-secret-0123456',
    LOG_LEVEL: 'silent',
  });
  const logger = createLogger('silent');
  const baseUrls = { authorize: line.baseUrls.authorize, token: line.baseUrls.token, userinfo: line.baseUrls.userinfo };
  auth = createShopAuth({ db: handle.db, config, logger, line: { channelId: CHANNEL_ID, channelSecret: CHANNEL_SECRET, baseUrls } });
  authWithWrongSecret = createShopAuth({ db: handle.db, config, logger, line: { channelId: CHANNEL_ID, channelSecret: 'not-the-channel-secret', baseUrls } });
});
afterAll(async () => {
  await handle?.close();
  await testDb?.drop();
  await line?.close();
});

let sequence = 0;
async function signUp() {
  const response = await auth.api.signUpEmail({
    body: { email: `line-${Date.now().toString(36)}-${++sequence}@example.jp`, password: 'password-1234', name: `ライン会員${sequence}` },
    headers: new Headers({ 'x-shop-client-ip': '127.0.0.1' }),
    asResponse: true,
  });
  expect(response.status).toBe(200);
  const cookie = response.headers.getSetCookie().map((line) => line.split(';')[0]!).find((pair) => pair.includes('session_token='))!;
  const { user } = (await response.json()) as { user: { id: string; email: string; name: string } };
  return { ...user, cookie };
}

const pairs = (setCookies: string[]) => setCookies.map((line) => line.split(';')[0]!);

/** Starts a link, plays the member on LINE's page, and follows LINE's redirect into the shop's callback. */
async function linkThroughLine(member: { cookie: string }, decision: 'approve' | 'cancel', shopAuth: ShopAuth = auth) {
  const started = await startLineLink(shopAuth, { headers: { cookie: member.cookie }, callbackURL: DONE, errorCallbackURL: FAILED });
  const back = await line.decide(started.url, decision);
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  const cookie = [member.cookie, ...pairs(started.setCookies)].join('; ');
  const response = await shopAuth.handler(new Request(back, { headers: { cookie } }));
  return { started, back, response, location: response.headers.get('location') };
}

async function lineRows(memberId: string) {
  return handle.db.select().from(accounts).where(and(eq(accounts.userId, memberId), eq(accounts.providerId, 'line')));
}

describe('linking LINE to a signed-in member', () => {
  it('asks LINE for openid profile with PKCE and a state, on the registered callback URL', async () => {
    const member = await signUp();
    const { url, setCookies } = await startLineLink(auth, { headers: { cookie: member.cookie }, callbackURL: DONE, errorCallbackURL: FAILED });
    const authorize = new URL(url);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(line.baseUrls.authorize);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: CHANNEL_ID,
      redirect_uri: CALLBACK,
      scope: 'openid profile',
      code_challenge_method: 'S256',
    });
    expect(authorize.searchParams.get('state')).toMatch(/^\S{16,}$/);
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The signed state cookie the callback insists on.
    expect(setCookies.some((line) => line.startsWith('__Secure-oripa.state=') && /HttpOnly/i.test(line) && /SameSite=Lax/i.test(line))).toBe(true);
    // The page the member sees.
    const page = await (await fetch(url)).text();
    expect(page).toContain('LINEでログイン（テスト環境）');
    expect(page).toContain('許可する');
    expect(page).toContain('キャンセル');
  });

  it('approve: links the LINE user (sub) to the member and returns to callbackURL', async () => {
    const member = await signUp();
    const lineUser = line.users.preset({ name: 'ステラ花子', picture: 'https://profile.line-scdn.net/standin/hanako' });
    const { location } = await linkThroughLine(member, 'approve');
    expect(location).toBe(DONE);
    expect(await linkedLineAccount(handle.db, member.id)).toEqual({ lineUserId: lineUser.sub });
    const [row] = await lineRows(member.id);
    expect(row).toMatchObject({ providerId: 'line', accountId: lineUser.sub, userId: member.id, password: null });
    expect(row!.scope).toContain('profile');
    // LINE tokens are stored encrypted; the profile does not overwrite the member.
    expect(row!.accessToken).toBeTruthy();
    expect(row!.accessToken).toMatch(/^(\$ba\$|[0-9a-f]+$)/);
    const [user] = await handle.db.select().from(users).where(eq(users.id, member.id));
    expect(user).toMatchObject({ name: member.name, email: member.email, image: null });
    // Linking again is refused up front.
    const again = await startLineLink(auth, { headers: { cookie: member.cookie }, callbackURL: DONE, errorCallbackURL: FAILED }).catch((error) => error);
    expect(again).toBeInstanceOf(LineLinkError);
    expect(again.code).toBe('ALREADY_LINKED');
  });

  it('cancel: returns to errorCallbackURL with error=access_denied and links nothing', async () => {
    const member = await signUp();
    line.users.preset();
    const { back, location } = await linkThroughLine(member, 'cancel');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(location).toMatch(/^\/app\/checkout\/linelink\?error=access_denied(&|$)/);
    expect(lineLinkErrorMessage(new URL(location!, TEST_ORIGIN).searchParams.get('error'))).toBe('LINE連携がキャンセルされました。');
    expect(await linkedLineAccount(handle.db, member.id)).toBeNull();
    expect(await lineRows(member.id)).toEqual([]);
  });

  it('a token request LINE refuses (wrong channel secret) fails the link and links nothing', async () => {
    const member = await signUp();
    line.users.preset();
    const { location } = await linkThroughLine(member, 'approve', authWithWrongSecret);
    expect(location).toBe(`${FAILED}?error=invalid_code`);
    expect(await linkedLineAccount(handle.db, member.id)).toBeNull();
  });

  it('refuses a LINE user already linked to another member (account_already_linked_to_different_user)', async () => {
    const first = await signUp();
    const second = await signUp();
    const lineUser = line.users.preset({ name: '共有アカウント' });
    expect((await linkThroughLine(first, 'approve')).location).toBe(DONE);
    line.users.preset(lineUser);
    const { location } = await linkThroughLine(second, 'approve');
    expect(location).toBe(`${FAILED}?error=account_already_linked_to_different_user`);
    expect(lineLinkErrorMessage('account_already_linked_to_different_user')).toContain('別の会員');
    expect(await linkedLineAccount(handle.db, second.id)).toBeNull();
    expect(await linkedLineAccount(handle.db, first.id)).toEqual({ lineUserId: lineUser.sub });
    const owners = await handle.db.select({ userId: accounts.userId }).from(accounts).where(and(eq(accounts.providerId, 'line'), eq(accounts.accountId, lineUser.sub)));
    expect(owners).toEqual([{ userId: first.id }]);
  });

  it('refuses a callback without the state cookie the start step set, and a replayed callback', async () => {
    const member = await signUp();
    line.users.preset();
    const started = await startLineLink(auth, { headers: { cookie: member.cookie }, callbackURL: DONE, errorCallbackURL: FAILED });
    const back = await line.decide(started.url, 'approve');
    const withoutState = await auth.handler(new Request(back, { headers: { cookie: member.cookie } }));
    expect(withoutState.headers.get('location')).toBe(`${FAILED}?error=state_mismatch`);
    expect(await linkedLineAccount(handle.db, member.id)).toBeNull();

    // A complete flow, then the same callback URL once more.
    const done = await linkThroughLine(member, 'approve');
    expect(done.location).toBe(DONE);
    const cookie = [member.cookie, ...pairs(done.started.setCookies)].join('; ');
    const replay = await auth.handler(new Request(done.back, { headers: { cookie } }));
    // The state is gone from the database, so better-auth no longer knows errorCallbackURL.
    expect(replay.headers.get('location')).toBe(`${TEST_ORIGIN}/api/auth/error?error=state_mismatch`);
    expect(await lineRows(member.id)).toHaveLength(1);
  });

  it('startLineLink refuses without a session and with return URLs off the shop', async () => {
    const noSession = await startLineLink(auth, { headers: {}, callbackURL: DONE, errorCallbackURL: FAILED }).catch((error) => error);
    expect(noSession).toBeInstanceOf(LineLinkError);
    expect(noSession.code).toBe('UNAUTHENTICATED');
    const member = await signUp();
    for (const [callbackURL, errorCallbackURL] of [
      ['https://evil.example/phish', FAILED],
      [DONE, '//evil.example/x'],
      ['javascript:alert(1)', FAILED],
    ] as const) {
      const refused = await startLineLink(auth, { headers: { cookie: member.cookie }, callbackURL, errorCallbackURL }).catch((error) => error);
      expect(refused).toBeInstanceOf(LineLinkError);
      expect(refused.code).toBe('INVALID_RETURN_URL');
    }
    // The shop's own absolute URLs are fine.
    const ok = await startLineLink(auth, { headers: { cookie: member.cookie }, callbackURL: `${TEST_ORIGIN}${DONE}`, errorCallbackURL: `${TEST_ORIGIN}${FAILED}` });
    expect(ok.url).toContain(line.baseUrls.authorize);
  });

  it('LINE is not a way to sign in, not even for a linked LINE user', async () => {
    const member = await signUp();
    const lineUser = line.users.preset();
    expect((await linkThroughLine(member, 'approve')).location).toBe(DONE);
    line.users.preset(lineUser);
    const started = await auth.api.signInSocial({ body: { provider: 'line', callbackURL: '/', errorCallbackURL: '/auth/sign_in', disableRedirect: true }, asResponse: true });
    expect(started.status).toBe(200);
    const { url } = (await started.json()) as { url: string };
    const back = await line.decide(url, 'approve');
    const response = await auth.handler(new Request(back, { headers: { cookie: pairs(started.headers.getSetCookie()).join('; ') } }));
    expect(response.headers.get('location')).toBe('/auth/sign_in?error=email_not_found');
    expect(response.headers.getSetCookie().some((line) => line.startsWith('__Secure-oripa.session_token=') && !/Max-Age=0/i.test(line))).toBe(false);
  });

  it('a shop without LINE configured has no line provider', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: testDb.dataDir, PUBLIC_ORIGIN: TEST_ORIGIN, AUTH_SECRET: 'line-test-secret-line-test-secret-0123456', LOG_LEVEL: 'silent' });
    const plain = createShopAuth({ db: handle.db, config, logger: createLogger('silent') });
    const member = await signUp();
    const refused = await startLineLink(plain, { headers: { cookie: member.cookie }, callbackURL: DONE, errorCallbackURL: FAILED }).catch((error) => error);
    expect(refused).toBeInstanceOf(LineLinkError);
    expect(refused.code).toBe('NOT_CONFIGURED');
  });
});

describe('verifyLineIdToken', () => {
  it('accepts the stand-in’s ID token and rejects another secret, audience or an expired one', async () => {
    const { tokens } = await authorizeAndExchange({ scope: 'openid profile', nonce: 'n-123' });
    const claims = verifyLineIdToken(tokens.id_token, { channelId: CHANNEL_ID, channelSecret: CHANNEL_SECRET });
    expect(claims).toMatchObject({ iss: 'https://access.line.me', aud: CHANNEL_ID, nonce: 'n-123' });
    expect(verifyLineIdToken(tokens.id_token, { channelId: CHANNEL_ID, channelSecret: 'other' })).toBeNull();
    expect(verifyLineIdToken(tokens.id_token, { channelId: '1650000002', channelSecret: CHANNEL_SECRET })).toBeNull();
    expect(verifyLineIdToken(tokens.id_token, { channelId: CHANNEL_ID, channelSecret: CHANNEL_SECRET }, Date.now() + 2 * 60 * 60 * 1000)).toBeNull();
    const [h, p, s] = tokens.id_token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'Uforged' })).toString('base64url');
    expect(verifyLineIdToken(`${h}.${forged}.${s}`, { channelId: CHANNEL_ID, channelSecret: CHANNEL_SECRET })).toBeNull();
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
  for (const [key, value] of Object.entries({ response_type: 'code', client_id: CHANNEL_ID, redirect_uri: CALLBACK, state: 'st-1', scope: 'openid profile', ...params })) {
    if (value !== '') url.searchParams.set(key, value);
  }
  return url.toString();
}

async function tokenRequest(params: Record<string, string>) {
  const response = await fetch(line.baseUrls.token, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', redirect_uri: CALLBACK, client_id: CHANNEL_ID, client_secret: CHANNEL_SECRET, ...params }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function authorizeAndExchange(params: Record<string, string> = {}) {
  const { verifier, challenge } = pkce();
  const back = await line.decide(authorizeUrl({ code_challenge: challenge, code_challenge_method: 'S256', ...params }), 'approve');
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
    expect(new URL((await page({ state: '' })).headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    expect(new URL((await page({ scope: 'friends' })).headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
    expect(new URL((await page({ code_challenge: pkce().challenge, code_challenge_method: 'plain' })).headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
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
    expect(idClaims).toMatchObject({ iss: 'https://access.line.me', aud: CHANNEL_ID, sub: user.sub, name: 'トークン確認', nonce: 'abc' });
    expect(JSON.parse(Buffer.from(tokens.id_token!.split('.')[0]!, 'base64url').toString())).toEqual({ typ: 'JWT', alg: 'HS256' });
    // Used once.
    expect(await tokenRequest({ code, code_verifier: verifier })).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'invalid authorization code' } });

    const wrongVerifier = await (async () => {
      const { challenge } = pkce();
      const back = await line.decide(authorizeUrl({ code_challenge: challenge, code_challenge_method: 'S256' }), 'approve');
      return tokenRequest({ code: back.searchParams.get('code')!, code_verifier: pkce().verifier });
    })();
    expect(wrongVerifier).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const noVerifier = await (async () => {
      const back = await line.decide(authorizeUrl({ code_challenge: pkce().challenge, code_challenge_method: 'S256' }), 'approve');
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
    expect(wrongSecret).toEqual({ status: 400, body: { error: 'invalid_client', error_description: 'invalid client_secret' } });
  });

  it('userinfo answers the user for the Bearer token; verify checks ID tokens', async () => {
    const user = line.users.preset({ name: 'ユーザー情報', picture: 'https://profile.line-scdn.net/standin/u' });
    const { tokens } = await authorizeAndExchange({ nonce: 'nonce-1' });
    const info = await fetch(line.baseUrls.userinfo, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(await info.json()).toEqual({ sub: user.sub, name: 'ユーザー情報', picture: 'https://profile.line-scdn.net/standin/u' });
    expect((await fetch(line.baseUrls.userinfo, { headers: { Authorization: 'Bearer nope' } })).status).toBe(401);

    const verify = async (params: Record<string, string>) => {
      const response = await fetch(line.baseUrls.verify, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const ok = await verify({ id_token: tokens.id_token!, client_id: CHANNEL_ID, nonce: 'nonce-1', user_id: user.sub });
    expect(ok).toMatchObject({ status: 200, body: { sub: user.sub, aud: CHANNEL_ID, iss: 'https://access.line.me' } });
    expect(await verify({ id_token: tokens.id_token!, client_id: '1650000002' })).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(await verify({ id_token: tokens.id_token!, client_id: CHANNEL_ID, nonce: 'other' })).toMatchObject({ status: 400 });
    expect(await verify({ id_token: `${tokens.id_token!}x`, client_id: CHANNEL_ID })).toMatchObject({ status: 400 });
  });
});
