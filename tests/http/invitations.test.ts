// Invitations over HTTP against the built shop (decision 038): /r?code=… leaves the code in a short-lived
// HttpOnly, Secure, SameSite=Lax cookie and redirects to / (the specification's rule), where the visitor
// is led to the sign-up; the sign-up attaches the invitation and leaves the analytics event; the
// inviter's page and API list the invitee; one member never sees another's invitees; /r/ow opens the
// member's own page; bad codes get Japanese answers. Works on either database engine.
import { describe, it, expect, beforeAll } from 'vitest';
import { get, postForm, cookieFrom, uniqueEmail, shopUrl, signUpByForm, mailLinkTo } from '#tests/http';

interface Member {
  cookie: string;
  bearer: string;
}

const memberOf = (cookie: string): Member => {
  const bearer = /session_token=([^;]+)/.exec(cookie)?.[1];
  if (!bearer) throw new Error('no session cookie');
  return { cookie, bearer };
};

async function signUp(label: string): Promise<Member> {
  const page = await signUpByForm({
    name: label,
    email: uniqueEmail(label),
    password: 'invitation-1',
    agreeToTerms: 'on',
  });
  return memberOf(cookieFrom(page.headers));
}

async function api(path: string, options: { member?: Member; method?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (options.member) headers.authorization = `Bearer ${options.member.bearer}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${shopUrl()}/api/v1${path}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: 'manual',
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

let alice: Member;
let bob: Member;
let aliceCode: string;
beforeAll(async () => {
  alice = await signUp('invite-alice');
  bob = await signUp('invite-bob');
  const view = await api('/me/invitation', { member: alice });
  aliceCode = view.body.code;
});

describe('the invitation link', () => {
  it('/r?code=… redirects to / and keeps the code in a short-lived HttpOnly, Secure, SameSite=Lax cookie', async () => {
    const page = await get(`/r?code=${aliceCode}`);
    expect(page.status).toBe(302);
    expect(page.location).toBe('/');
    const cookie = page.headers.getSetCookie().find((line) => line.startsWith('oripa_invite='));
    expect(cookie).toBeDefined();
    expect(cookie).toContain(`oripa_invite=${aliceCode}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Secure/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Max-Age=604800/);
  });

  it('leads the visitor from the home page to the sign-up, which says the invitation applies', async () => {
    const home = await get('/', { cookie: `oripa_invite=${aliceCode}` });
    expect(home.status).toBe(200);
    expect(home.body).toContain('お友達からの招待です');
    expect(home.body).toContain('href="/auth/sign_up"');
    const signUpPage = await get('/auth/sign_up', { cookie: `oripa_invite=${aliceCode}` });
    expect(signUpPage.body).toContain(`招待コード ${aliceCode}`);
  });

  it('says plainly in Japanese when the code is unknown', async () => {
    const page = await get('/r?code=ZZZZ9999');
    const cookie = cookieFrom(page.headers);
    const home = await get('/', { cookie });
    expect(home.body).toContain('招待コード「ZZZZ9999」は見つかりませんでした');
  });

  it('/r without a code sets nothing; /r/ow sends a visitor to sign in and a member to their own page', async () => {
    const bare = await get('/r');
    expect(bare.location).toBe('/');
    expect(bare.headers.getSetCookie().some((line) => line.startsWith('oripa_invite='))).toBe(false);
    const visitor = await get('/r/ow');
    expect(visitor.location).toBe('/auth/sign_in?redirect=%2Fr%2Fow');
    const member = await get('/r/ow', { cookie: alice.cookie });
    expect(member.location).toBe('/mypage/invitation');
  });
});

describe('signing up by the link', () => {
  it('attaches the invitation: the inviter sees the invitee on the page and in the API', async () => {
    const email = uniqueEmail('invitee');
    const sent = await postForm(
      '/auth/sign_up',
      { name: 'しょうたい花子', email, password: 'invitation-1', agreeToTerms: 'on' },
      { cookie: `oripa_invite=${aliceCode}` },
    );
    expect(sent.status).toBe(200);
    const cookies = sent.headers.getSetCookie();
    // the code is used up, and the analytics event waits for the next page
    expect(cookies.find((line) => line.startsWith('oripa_invite=;'))).toMatch(/Max-Age=0/i);
    expect(cookies.find((line) => line.startsWith('oripa_invite_event='))).toMatch(/^oripa_invite_event=[^;]+\.[^;]+/);
    const link = new URL(await mailLinkTo(email, 'verifyEmail'));
    const confirmed = await postForm(link.pathname + link.search, {});
    const invitee = memberOf(cookieFrom(confirmed.headers));

    const page = await get('/mypage/invitation', { cookie: alice.cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain(aliceCode);
    expect(page.body).toContain('しょうたい花子');
    expect(page.body).toContain('登録済み');
    expect(page.body).toContain(`/r?code=${aliceCode}`);
    expect(page.body).toContain('https://line.me/R/share?text=');
    expect(page.body).toContain('https://x.com/intent/post?');

    const view = await api('/me/invitation', { member: alice });
    expect(view.status).toBe(200);
    expect(view.body.invitees).toEqual([
      expect.objectContaining({ name: 'しょうたい花子', state: 'registered', stateLabel: '登録済み' }),
    ]);
    expect(view.body.month).toMatchObject({ rewarded: 0, cap: expect.any(Number) });

    const own = await api('/me/invitation', { member: invitee });
    expect(own.body.invitedBy).toMatchObject({ name: 'invite-alice', state: 'registered' });
    // a second code is refused
    const again = await api('/me/invitation/inviter', { member: invitee, method: 'POST', body: { code: aliceCode } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain('すでに登録済み');
  });
});

describe('each member sees only their own invitations', () => {
  it('bob sees his own code and none of alice’s invitees, on the page and in the API', async () => {
    const view = await api('/me/invitation', { member: bob });
    expect(view.status).toBe(200);
    expect(view.body.code).not.toBe(aliceCode);
    expect(view.body.invitees).toEqual([]);
    const page = await get('/mypage/invitation', { cookie: bob.cookie });
    expect(page.body).not.toContain(aliceCode);
    expect(page.body).not.toContain('しょうたい花子');
  });

  it('refuses visitors: 401 from the API; the page (mypage is not members-only) shows the rules and a sign-in', async () => {
    expect(await api('/me/invitation')).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHENTICATED' } } });
    const page = await get('/mypage/invitation');
    expect(page.status).toBe(200);
    expect(page.body).toContain('ログインすると招待コードが表示されます');
    expect(page.body).toContain('特典のルール');
    expect(page.body).not.toContain('data-testid="invitation-code"');
    const post = await postForm('/mypage/invitation', { intent: 'enter-code', code: aliceCode });
    expect(post.status).toBe(302);
    expect(post.location).toBe('/auth/sign_in?redirect=%2Fmypage%2Finvitation');
  });
});

describe('typing a code', () => {
  it('answers bad input in Japanese 4xx', async () => {
    const limit = await api('/me/invitation?limit=0', { member: bob });
    expect(limit.status).toBe(400);
    expect(limit.body.error.message).toMatch(/[ぁ-んァ-ン一-龥]/);
    const invalid = await api('/me/invitation/inviter', { member: bob, method: 'POST', body: { code: '!!' } });
    expect(invalid).toMatchObject({ status: 400, body: { error: { code: 'INVITATION_CODE_INVALID' } } });
    expect(invalid.body.error.message).toContain('招待コードは8文字');
    const unknown = await api('/me/invitation/inviter', { member: bob, method: 'POST', body: { code: 'zzzz-9999' } });
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'INVITATION_CODE_NOT_FOUND' } } });
    const own = await api('/me/invitation', { member: bob });
    const self = await api('/me/invitation/inviter', { member: bob, method: 'POST', body: { code: own.body.code } });
    expect(self).toMatchObject({ status: 422, body: { error: { message: 'ご自身の招待コードは使えません。' } } });
    const missing = await api('/me/invitation/inviter', { member: bob, method: 'POST', body: {} });
    expect(missing.status).toBe(400);
  });

  it('lets a new member enter a friend’s code by hand on the page (full-width accepted)', async () => {
    const carol = await signUp('invite-carol');
    const page = await get(`/mypage/invitation`, { cookie: carol.cookie });
    expect(page.body).toContain('招待コードをお持ちの方');
    const wide = aliceCode.replace(/[0-9A-Z]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0));
    const posted = await postForm('/mypage/invitation', { intent: 'enter-code', code: wide }, { cookie: carol.cookie });
    expect(posted.status).toBe(200);
    expect(posted.body).toContain('招待コードを登録しました');
    const bad = await postForm(
      '/mypage/invitation',
      { intent: 'enter-code', code: 'ZZZZ9999' },
      { cookie: bob.cookie },
    );
    expect(bad.status).toBe(404);
    expect(bad.body).toContain('この招待コードは見つかりません');
  });
});
