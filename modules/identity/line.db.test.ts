// LINE account linking against the local LINE Login v2.1 stand-in: a signed-in member links, cancels,
// meets a refused token request, or tries a LINE user another member already linked; a linked LINE
// user then signs in as that member (LINE sign-up: social.db.test.ts). The stand-in's protocol on its own (codes, PKCE, ID tokens, userinfo, verify) is in line.test.ts.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import type { ShopAuth } from './auth.server';
import { identityTestServices, signUpConfirmed, TEST_ORIGIN } from '#tests/identity';
import { accounts, users } from './schema';
import { LineLinkError, linkedLineAccount, lineLinkErrorMessage, startLineLink } from './line.server';
import { startLineStandin, type LineStandin } from '#devtools/standins/line';

const CALLBACK = `${TEST_ORIGIN}/api/auth/callback/line`;
const CHANNEL_ID = '1650000001';
const CHANNEL_SECRET = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const DONE = '/app/checkout/linelink?linked=1';
const SECRET = 'line-test-secret-line-test-secret-0123456';
const FAILED = '/app/checkout/linelink';

const handle = useTestDatabase('line', { poolSize: 4 });
let line: LineStandin;
let auth: ShopAuth;
/** Same shop, configured with a channel secret LINE does not know. */
let authWithWrongSecret: ShopAuth;

beforeAll(async () => {
  line = await startLineStandin({ channelId: CHANNEL_ID, channelSecret: CHANNEL_SECRET, callbackUrls: [CALLBACK] });
  const baseUrls = { authorize: line.baseUrls.authorize, token: line.baseUrls.token, userinfo: line.baseUrls.userinfo };
  auth = identityTestServices(
    handle,
    { AUTH_SECRET: SECRET },
    { line: { channelId: CHANNEL_ID, channelSecret: CHANNEL_SECRET, baseUrls } },
  ).auth;
  authWithWrongSecret = identityTestServices(
    handle,
    { AUTH_SECRET: SECRET },
    { line: { channelId: CHANNEL_ID, channelSecret: 'not-the-channel-secret', baseUrls } },
  ).auth;
});
afterAll(async () => {
  await line?.close();
});

let sequence = 0;
async function signUp() {
  const email = `line-${Date.now().toString(36)}-${++sequence}@example.jp`;
  const member = await signUpConfirmed(auth, SECRET, {
    email,
    password: 'password-1234',
    name: `ライン会員${sequence}`,
  });
  return { id: member.id, email: member.email, name: `ライン会員${sequence}`, cookie: member.cookie };
}

const pairs = (setCookies: string[]) => setCookies.map((line) => line.split(';')[0]!);

/** Starts a link, plays the member on LINE's page, and follows LINE's redirect into the shop's callback. */
async function linkThroughLine(member: { cookie: string }, decision: 'approve' | 'cancel', shopAuth: ShopAuth = auth) {
  const started = await startLineLink(shopAuth, {
    headers: { cookie: member.cookie },
    callbackURL: DONE,
    errorCallbackURL: FAILED,
  });
  const back = await line.decide(started.url, decision);
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  const cookie = [member.cookie, ...pairs(started.setCookies)].join('; ');
  const response = await shopAuth.handler(new Request(back, { headers: { cookie } }));
  return { started, back, response, location: response.headers.get('location') };
}

async function lineRows(memberId: string) {
  return handle.db
    .select()
    .from(accounts)
    .where(and(eq(accounts.userId, memberId), eq(accounts.providerId, 'line')));
}

describe('linking LINE to a signed-in member', () => {
  it('asks LINE for openid profile with PKCE and a state, on the registered callback URL', async () => {
    const member = await signUp();
    const { url, setCookies } = await startLineLink(auth, {
      headers: { cookie: member.cookie },
      callbackURL: DONE,
      errorCallbackURL: FAILED,
    });
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
    expect(
      setCookies.some(
        (line) => line.startsWith('__Secure-oripa.state=') && /HttpOnly/i.test(line) && /SameSite=Lax/i.test(line),
      ),
    ).toBe(true);
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
    const again = await startLineLink(auth, {
      headers: { cookie: member.cookie },
      callbackURL: DONE,
      errorCallbackURL: FAILED,
    }).catch((error) => error);
    expect(again).toBeInstanceOf(LineLinkError);
    expect(again.code).toBe('ALREADY_LINKED');
  });

  it('cancel: returns to errorCallbackURL with error=access_denied and links nothing', async () => {
    const member = await signUp();
    line.users.preset();
    const { back, location } = await linkThroughLine(member, 'cancel');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(location).toMatch(/^\/app\/checkout\/linelink\?error=access_denied(&|$)/);
    expect(lineLinkErrorMessage(new URL(location!, TEST_ORIGIN).searchParams.get('error'))).toBe(
      'LINE連携がキャンセルされました。',
    );
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
    const owners = await handle.db
      .select({ userId: accounts.userId })
      .from(accounts)
      .where(and(eq(accounts.providerId, 'line'), eq(accounts.accountId, lineUser.sub)));
    expect(owners).toEqual([{ userId: first.id }]);
  });

  it('refuses a callback without the state cookie the start step set, and a replayed callback', async () => {
    const member = await signUp();
    line.users.preset();
    const started = await startLineLink(auth, {
      headers: { cookie: member.cookie },
      callbackURL: DONE,
      errorCallbackURL: FAILED,
    });
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
    const noSession = await startLineLink(auth, { headers: {}, callbackURL: DONE, errorCallbackURL: FAILED }).catch(
      (error) => error,
    );
    expect(noSession).toBeInstanceOf(LineLinkError);
    expect(noSession.code).toBe('UNAUTHENTICATED');
    const member = await signUp();
    for (const [callbackURL, errorCallbackURL] of [
      ['https://evil.example/phish', FAILED],
      [DONE, '//evil.example/x'],
      ['javascript:alert(1)', FAILED],
    ] as const) {
      const refused = await startLineLink(auth, {
        headers: { cookie: member.cookie },
        callbackURL,
        errorCallbackURL,
      }).catch((error) => error);
      expect(refused).toBeInstanceOf(LineLinkError);
      expect(refused.code).toBe('INVALID_RETURN_URL');
    }
    // The shop's own absolute URLs are fine.
    const ok = await startLineLink(auth, {
      headers: { cookie: member.cookie },
      callbackURL: `${TEST_ORIGIN}${DONE}`,
      errorCallbackURL: `${TEST_ORIGIN}${FAILED}`,
    });
    expect(ok.url).toContain(line.baseUrls.authorize);
  });

  it('a linked LINE user signs in as the member it is linked to (LINE is a sign-in method too)', async () => {
    const member = await signUp();
    const lineUser = line.users.preset();
    expect((await linkThroughLine(member, 'approve')).location).toBe(DONE);
    line.users.preset(lineUser);
    const started = await auth.api.signInSocial({
      body: { provider: 'line', callbackURL: '/', errorCallbackURL: '/auth/sign_in', disableRedirect: true },
      asResponse: true,
    });
    expect(started.status).toBe(200);
    const { url } = (await started.json()) as { url: string };
    const back = await line.decide(url, 'approve');
    const response = await auth.handler(
      new Request(back, { headers: { cookie: pairs(started.headers.getSetCookie()).join('; ') } }),
    );
    expect(response.headers.get('location')).toBe('/');
    const session = pairs(response.headers.getSetCookie()).find((pair) =>
      pair.startsWith('__Secure-oripa.session_token='),
    );
    expect(session).toBeTruthy();
    const signedIn = await auth.api.getSession({ headers: new Headers({ cookie: session! }) });
    expect(signedIn?.user.id).toBe(member.id);
    // The member's own email and nickname stay as they were.
    expect(signedIn?.user.email).toBe(member.email);
  });

  it('a shop without LINE configured has no line provider', async () => {
    const plain = identityTestServices(handle, { AUTH_SECRET: SECRET }).auth;
    const member = await signUp();
    const refused = await startLineLink(plain, {
      headers: { cookie: member.cookie },
      callbackURL: DONE,
      errorCallbackURL: FAILED,
    }).catch((error) => error);
    expect(refused).toBeInstanceOf(LineLinkError);
    expect(refused.code).toBe('NOT_CONFIGURED');
  });
});
