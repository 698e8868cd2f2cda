// Social sign-in end to end with better-auth's own providers against local stand-ins over real HTTP:
// Google (an OpenID Connect provider, oidc-provider), GitHub, Facebook and X (OAuth 2.0 stand-ins) and
// LINE (its stand-in). The providers' fixed https hosts are routed to the stand-ins by an undici
// dispatcher for this file only. Covers: a new member per provider (nickname from the provider's
// name, cleaned), the same member on a second sign-in, linking by verified email only, explicit
// linking, unlinking with a recent session, the last method, and one member never touching another's.
import { identityTestServices, signUpConfirmed, TEST_ORIGIN as ORIGIN } from '#tests/identity';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { routeHostsTo, routesOf, type OAuthNetwork } from '#tests/oauth-network';
import {
  startFacebookStandin,
  startGitHubStandin,
  startGoogleStandin,
  startXStandin,
  type OAuthStandin,
} from '#devtools/standins/oauth';
import { startLineStandin, type LineStandin } from '#devtools/standins/line';
import type { ShopAuth } from './auth.server';
import { accounts } from './schema';
import { listSignInMethods, startSocialLink, startSocialSignIn, unlinkSignInMethod } from './sign-in-methods.server';
import { configuredSocialProviders } from './social.server';
import type { SocialProviderId } from './social';

const callback = (id: string) => `${ORIGIN}/api/auth/callback/${id}`;
const DONE = '/mypage';
const FAILED = '/auth/sign_in';
const LINKED = '/mypage/settings/unlink?linked=1';
const LINK_FAILED = '/mypage/settings/unlink';
const LINE_CHANNEL = { channelId: '1650000002', channelSecret: 'b1b2c3d4e5f60718293a4b5c6d7e8f90' };

const handle = useTestDatabase('social', { poolSize: 4 });
let google: OAuthStandin;
let github: OAuthStandin;
let facebook: OAuthStandin;
let x: OAuthStandin;
let line: LineStandin;
let network: OAuthNetwork;
let auth: ShopAuth;
let configured: SocialProviderId[];
const created: { memberId: string; code: string | null }[] = [];

beforeAll(async () => {
  [google, github, facebook, x, line] = await Promise.all([
    startGoogleStandin({
      clientId: 'shop-test.apps.googleusercontent.com',
      clientSecret: 'google-secret',
      callbackUrls: [callback('google')],
    }),
    startGitHubStandin({ clientId: 'Iv1.shoptest', clientSecret: 'github-secret', callbackUrls: [callback('github')] }),
    startFacebookStandin({
      clientId: '1234567890',
      clientSecret: 'facebook-secret',
      callbackUrls: [callback('facebook')],
    }),
    startXStandin({ clientId: 'x-shop-client', clientSecret: 'x-secret', callbackUrls: [callback('twitter')] }),
    startLineStandin({ ...LINE_CHANNEL, callbackUrls: [callback('line')] }),
  ]);
  network = routeHostsTo(routesOf([google, github, facebook, x]));
  const services = identityTestServices(
    handle,
    {
      AUTH_SECRET,
      GOOGLE_CLIENT_ID: google.clientId,
      GOOGLE_CLIENT_SECRET: google.clientSecret,
      GITHUB_CLIENT_ID: github.clientId,
      GITHUB_CLIENT_SECRET: github.clientSecret,
      FACEBOOK_CLIENT_ID: facebook.clientId,
      FACEBOOK_CLIENT_SECRET: facebook.clientSecret,
      TWITTER_CLIENT_ID: x.clientId,
      TWITTER_CLIENT_SECRET: x.clientSecret,
      ...{ LINE_CHANNEL_ID: LINE_CHANNEL.channelId, LINE_CHANNEL_SECRET: LINE_CHANNEL.channelSecret },
    },
    {
      line: { ...LINE_CHANNEL, baseUrls: line.baseUrls },
      // The sign-up hook (an invitation attaches here, decision 038): what it saw, and a cookie it answers.
      onMemberCreated: async ({ memberId, getCookie, setCookie }) => {
        created.push({ memberId, code: getCookie('oripa_invite') });
        setCookie('oripa_hook', memberId, { path: '/', maxAge: 60, httpOnly: true, secure: true, sameSite: 'lax' });
      },
    },
  );
  auth = services.auth;
  configured = configuredSocialProviders(services.config, { line: true });
});
afterAll(async () => {
  await network?.restore();
  await Promise.all([google, github, facebook, x, line].map((standin) => standin?.close()));
});

const pairs = (setCookies: string[]) => setCookies.map((cookie) => cookie.split(';')[0]!);
const sessionCookieOf = (setCookies: string[]) =>
  pairs(setCookies).find((pair) => pair.startsWith('__Secure-oripa.session_token=') && !pair.endsWith('='));
const headersOf = (cookie: string) => new Headers({ cookie, 'x-shop-client-ip': '127.0.0.1' });

type Standin = OAuthStandin | LineStandin;
const standinOf = (provider: SocialProviderId): Standin => ({ google, github, facebook, twitter: x, line })[provider];

/** Plays the browser: the shop's start, the provider's page, the shop's callback. */
async function throughProvider(
  provider: SocialProviderId,
  started: { url: string; setCookies: string[] },
  cookie = '',
  decision: 'approve' | 'cancel' = 'approve',
) {
  const back = await standinOf(provider).decide(started.url, decision);
  expect(`${back.origin}${back.pathname}`).toBe(callback(provider));
  const response = await auth.handler(
    new Request(back, { headers: { cookie: [cookie, ...pairs(started.setCookies)].filter(Boolean).join('; ') } }),
  );
  const setCookies = response.headers.getSetCookie();
  return { location: response.headers.get('location'), session: sessionCookieOf(setCookies) };
}

async function signInWith(provider: SocialProviderId) {
  const started = await startSocialSignIn(auth, {
    headers: headersOf(''),
    provider,
    callbackURL: DONE,
    errorCallbackURL: FAILED,
    configured,
  });
  if (!started.ok) throw new Error(`start refused: ${started.code}`);
  return throughProvider(provider, started);
}

async function linkWith(provider: SocialProviderId, cookie: string, decision: 'approve' | 'cancel' = 'approve') {
  const started = await startSocialLink(auth, {
    headers: headersOf(cookie),
    provider,
    callbackURL: LINKED,
    errorCallbackURL: LINK_FAILED,
    configured,
  });
  if (!started.ok) return { refused: started.code, location: null };
  return { refused: null, ...(await throughProvider(provider, started, cookie, decision)) };
}

async function memberOfSession(cookie: string) {
  const session = await auth.api.getSession({ headers: headersOf(cookie) });
  return session?.user ?? null;
}

const AUTH_SECRET = 'social-test-secret-social-test-secret-0123';
let sequence = 0;
/**
 * A member with a password. A confirmed one (verified) has a session; an unconfirmed one has none,
 * since sign-up starts no session until the address is confirmed.
 */
async function signUpWithPassword(options: { email?: string; verified?: boolean } = {}) {
  const email = options.email ?? `social-${Date.now().toString(36)}-${++sequence}@example.jp`;
  const body = { email, password: 'password-1234', name: `会員${++sequence}` };
  if (options.verified !== false) {
    const member = await signUpConfirmed(auth, AUTH_SECRET, body, headersOf(''));
    return { id: member.id, email, cookie: member.cookie };
  }
  const response = await auth.api.signUpEmail({ body, headers: headersOf(''), asResponse: true });
  expect(response.status).toBe(200);
  const { user } = (await response.json()) as { user: { id: string } };
  return { id: user.id, email, cookie: '' };
}

const providerRows = async (memberId: string) =>
  (await handle.db.select().from(accounts).where(eq(accounts.userId, memberId))).map((row) => row.providerId).sort();

describe('a new member by a provider', () => {
  it('passes through onMemberCreated once, with the request’s cookies and a cookie on the answer', async () => {
    github.users.preset({ name: '招待されたギット' });
    const started = await startSocialSignIn(auth, {
      headers: headersOf(''),
      provider: 'github',
      callbackURL: DONE,
      errorCallbackURL: FAILED,
      configured,
    });
    if (!started.ok) throw new Error(`start refused: ${started.code}`);
    const back = await github.decide(started.url, 'approve');
    created.length = 0;
    const response = await auth.handler(
      new Request(back, { headers: { cookie: ['oripa_invite=ABCD2345', ...pairs(started.setCookies)].join('; ') } }),
    );
    const session = sessionCookieOf(response.headers.getSetCookie());
    const member = await memberOfSession(session!);
    expect(created).toEqual([{ memberId: member!.id, code: 'ABCD2345' }]);
    expect(response.headers.getSetCookie().some((line) => line.startsWith(`oripa_hook=${member!.id}`))).toBe(true);
    // signing in again creates no member: the hook is not called
    const again = await signInWith('github');
    expect((await memberOfSession(again.session!))!.id).toBe(member!.id);
    expect(created).toHaveLength(1);
  });
});

describe('routing the providers’ hosts to the stand-ins', () => {
  it('answers https://accounts.google.com and https://api.github.com from the local stand-ins', async () => {
    const discovery = (await (await fetch('https://accounts.google.com/.well-known/openid-configuration')).json()) as {
      issuer: string;
      jwks_uri: string;
    };
    expect(discovery.issuer).toBe('https://accounts.google.com');
    expect(discovery.jwks_uri).toBe('https://accounts.google.com/oauth2/v3/certs');
    const keys = (await (await fetch('https://www.googleapis.com/oauth2/v3/certs')).json()) as { keys: unknown[] };
    expect(keys.keys.length).toBe(1);
    expect((await fetch('https://api.github.com/user')).status).toBe(401);
  });
});

describe.each(['google', 'github', 'facebook', 'twitter', 'line'] as const)('signing in with %s', (provider) => {
  it('creates a member with a session, named after the provider’s name (cleaned), then finds the same member again', async () => {
    const standin = standinOf(provider);
    const name = '<b>ステラ</b>\u0007 太郎 のとても長い表示名ですよ本当に';
    if ('decide' in standin && 'hosts' in standin) standin.users.preset({ name });
    else (standin as LineStandin).users.preset({ name });
    const first = await signInWith(provider);
    expect(first.location).toBe(DONE);
    expect(first.session).toBeTruthy();
    const member = await memberOfSession(first.session!);
    expect(member).not.toBeNull();
    expect(member!.name).toBe('bステラ/b 太郎 のとても長い表示名で');
    expect(member!.name.length).toBeLessThanOrEqual(20);
    expect(await providerRows(member!.id)).toEqual([provider]);

    const second = await signInWith(provider);
    expect(second.location).toBe(DONE);
    const again = await memberOfSession(second.session!);
    expect(again!.id).toBe(member!.id);
    expect(await providerRows(member!.id)).toEqual([provider]);
  });

  it('a cancelled sign-in returns to the error page with access_denied and no session', async () => {
    const started = await startSocialSignIn(auth, {
      headers: headersOf(''),
      provider,
      callbackURL: DONE,
      errorCallbackURL: FAILED,
      configured,
    });
    if (!started.ok) throw new Error(started.code);
    const back = await throughProvider(provider, started, '', 'cancel');
    expect(back.location).toMatch(/^\/auth\/sign_in\?error=access_denied/);
    expect(back.session).toBeUndefined();
  });
});

describe('an email that already belongs to a member (sign-in, not a link)', () => {
  it('Google with a verified email joins the member whose own email is verified', async () => {
    const member = await signUpWithPassword({ verified: true });
    google.users.preset({ email: member.email, emailVerified: true });
    const back = await signInWith('google');
    expect(back.location).toBe(DONE);
    expect((await memberOfSession(back.session!))!.id).toBe(member.id);
    expect(await providerRows(member.id)).toEqual(['credential', 'google']);
  });

  it('never takes over a member whose own email is unverified', async () => {
    const member = await signUpWithPassword({ verified: false });
    google.users.preset({ email: member.email, emailVerified: true });
    const back = await signInWith('google');
    expect(back.location).toBe('/auth/sign_in?error=account_not_linked');
    expect(back.session).toBeUndefined();
    expect(await providerRows(member.id)).toEqual(['credential']);
  });

  it.each(['facebook', 'github', 'twitter'] as const)(
    '%s without a verified email is refused (account-exists-with-different-credential)',
    async (provider) => {
      const member = await signUpWithPassword({ verified: true });
      (standinOf(provider) as OAuthStandin).users.preset({ email: member.email, emailVerified: false });
      const back = await signInWith(provider);
      if (provider === 'twitter') {
        // X answers no unconfirmed address: the member gets a stand-in email, so a new member is made.
        expect(back.location).toBe(DONE);
        expect((await memberOfSession(back.session!))!.id).not.toBe(member.id);
      } else {
        expect(back.location).toBe('/auth/sign_in?error=account_not_linked');
        expect(back.session).toBeUndefined();
      }
      expect(await providerRows(member.id)).toEqual(['credential']);
    },
  );

  it('GitHub with a verified email joins the member', async () => {
    const member = await signUpWithPassword({ verified: true });
    github.users.preset({ email: member.email, emailVerified: true });
    const back = await signInWith('github');
    expect((await memberOfSession(back.session!))!.id).toBe(member.id);
    expect(await providerRows(member.id)).toEqual(['credential', 'github']);
  });
});

describe('linking from /mypage/settings/unlink', () => {
  it.each(['facebook', 'github', 'twitter', 'google', 'line'] as const)(
    'a signed-in member links %s whatever its email says, and can sign in with it afterwards',
    async (provider) => {
      const member = await signUpWithPassword();
      const standin = standinOf(provider);
      if ('hosts' in standin)
        standin.users.preset({ email: `other-${provider}-${sequence}@example.org`, emailVerified: false });
      else standin.users.preset();
      const linked = await linkWith(provider, member.cookie);
      expect(linked.location).toBe(LINKED);
      expect(await providerRows(member.id)).toEqual(['credential', provider].sort());
      const back = await signInWith(provider);
      expect((await memberOfSession(back.session!))!.id).toBe(member.id);
    },
  );

  it('provider-already-linked: a second link of the same provider is refused before leaving the shop', async () => {
    const member = await signUpWithPassword();
    github.users.preset();
    expect((await linkWith('github', member.cookie)).location).toBe(LINKED);
    expect((await linkWith('github', member.cookie)).refused).toBe('auth/provider-already-linked');
  });

  it('user-mismatch: a provider account that is another member’s is not moved', async () => {
    const owner = await signUpWithPassword();
    const other = await signUpWithPassword();
    const githubUser = github.users.preset();
    expect((await linkWith('github', owner.cookie)).location).toBe(LINKED);
    github.users.preset(githubUser);
    const second = await linkWith('github', other.cookie);
    expect(second.location).toBe('/mypage/settings/unlink?error=account_already_linked_to_different_user');
    expect(await providerRows(other.id)).toEqual(['credential']);
    expect(await providerRows(owner.id)).toEqual(['credential', 'github']);
  });

  it('a provider the shop does not offer, or no session, is refused', async () => {
    const member = await signUpWithPassword();
    const narrow = await startSocialLink(auth, {
      headers: headersOf(member.cookie),
      provider: 'github',
      callbackURL: LINKED,
      errorCallbackURL: LINK_FAILED,
      configured: ['google'],
    });
    expect(narrow).toMatchObject({ ok: false, code: 'PROVIDER_NOT_FOUND' });
    const anonymous = await startSocialLink(auth, {
      headers: headersOf(''),
      provider: 'github',
      callbackURL: LINKED,
      errorCallbackURL: LINK_FAILED,
      configured,
    });
    expect(anonymous).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
  });
});

describe('listing and unlinking', () => {
  it('lists the password and each provider, and unlinks one with a recent session', async () => {
    const member = await signUpWithPassword();
    google.users.preset();
    await linkWith('google', member.cookie);
    facebook.users.preset();
    await linkWith('facebook', member.cookie);
    const mine = await listSignInMethods(auth, headersOf(member.cookie), { emailLink: false });
    expect(mine!.memberId).toBe(member.id);
    expect(mine!.methods.map((m) => (m.kind === 'provider' ? m.providerId : m.kind))).toEqual([
      'password',
      'google',
      'facebook',
    ]);
    const unlinked = await unlinkSignInMethod(auth, {
      headers: headersOf(member.cookie),
      provider: 'google',
      reauthMaxAgeMinutes: 10,
    });
    expect(unlinked).toEqual({ ok: true });
    expect(await providerRows(member.id)).toEqual(['credential', 'facebook']);
    // no-such-provider: it is gone now.
    expect(
      await unlinkSignInMethod(auth, {
        headers: headersOf(member.cookie),
        provider: 'google',
        reauthMaxAgeMinutes: 10,
      }),
    ).toMatchObject({ ok: false, code: 'auth/no-such-provider' });
  });

  it('requires-recent-login: a session older than the setting cannot unlink', async () => {
    const member = await signUpWithPassword();
    github.users.preset();
    await linkWith('github', member.cookie);
    const later = new Date(Date.now() + 11 * 60_000);
    expect(
      await unlinkSignInMethod(auth, {
        headers: headersOf(member.cookie),
        provider: 'github',
        reauthMaxAgeMinutes: 10,
        now: later,
      }),
    ).toMatchObject({ ok: false, code: 'auth/requires-recent-login' });
    expect(await providerRows(member.id)).toEqual(['credential', 'github']);
  });

  it('the last way to sign in cannot be removed', async () => {
    x.users.preset();
    const back = await signInWith('twitter');
    const member = await memberOfSession(back.session!);
    const refused = await unlinkSignInMethod(auth, {
      headers: headersOf(back.session!),
      provider: 'twitter',
      reauthMaxAgeMinutes: 10,
    });
    expect(refused).toMatchObject({ ok: false, code: 'FAILED_TO_UNLINK_LAST_ACCOUNT' });
    expect(await providerRows(member!.id)).toEqual(['twitter']);
  });

  it('member A never sees nor unlinks member B’s accounts', async () => {
    const a = await signUpWithPassword();
    const b = await signUpWithPassword();
    google.users.preset();
    await linkWith('google', b.cookie);
    const seenByA = await listSignInMethods(auth, headersOf(a.cookie), { emailLink: false });
    expect(seenByA!.methods).toEqual([{ kind: 'password' }]);
    expect(
      await unlinkSignInMethod(auth, { headers: headersOf(a.cookie), provider: 'google', reauthMaxAgeMinutes: 10 }),
    ).toMatchObject({ ok: false, code: 'auth/no-such-provider' });
    // Even better-auth's own endpoint with B's account row id answers "not found" for A.
    const googleRow = (await handle.db.select().from(accounts).where(eq(accounts.userId, b.id))).find(
      (r) => r.providerId === 'google',
    );
    expect(googleRow).toBeTruthy();
    const direct = await auth.api.unlinkAccount({
      body: { accountId: googleRow!.id },
      headers: headersOf(a.cookie),
      asResponse: true,
    });
    expect(direct.status).toBe(400);
    expect(await providerRows(b.id)).toEqual(['credential', 'google']);
    expect(await listSignInMethods(auth, headersOf(''), { emailLink: false })).toBeNull();
  });
});
