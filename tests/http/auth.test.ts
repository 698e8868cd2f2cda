// Sign-up, sign-in and sign-out through the forms, cookies, the redirect target, rate limits.
import { describe, it, expect } from 'vitest';
import {
  get,
  postForm,
  cookieFrom,
  uniqueEmail,
  postFromAddress,
  shopUrl,
  signUpByForm,
  mailLinkTo,
} from '#tests/http';

const password = 'correct-horse-9';

async function signUp(email: string, redirect = '') {
  return signUpByForm({ name: 'テスト会員', email, password, agreeToTerms: 'on', redirect });
}

describe('sign-up', () => {
  it('mails a confirmation link; its button creates the session and returns to the redirect target', async () => {
    const email = uniqueEmail('signup');
    const sent = await postForm('/auth/sign_up', {
      name: 'テスト会員',
      email,
      password,
      agreeToTerms: 'on',
      redirect: '/shop?tab=1',
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toContain('確認メールを送信しました');
    expect(sent.headers.getSetCookie().some((line) => /session_token=[^;]/.test(line))).toBe(false);

    // Opening the link spends nothing (a mail scanner may open it); the button does the work.
    const link = new URL(await mailLinkTo(email, 'verifyEmail'));
    const opened = await get(link.pathname + link.search);
    expect(opened.status).toBe(200);
    expect(opened.body).toContain('メールアドレスを確認する');
    const page = await postForm(link.pathname + link.search, {});
    expect(page.status).toBe(302);
    expect(page.location).toBe('/shop?tab=1');
    const session = page.headers.getSetCookie().find((line) => line.includes('session_token='));
    expect(session).toBeDefined();
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/Secure/i);
    expect(session).toMatch(/SameSite=Lax/i);
    const shop = await get('/shop?tab=1', { cookie: cookieFrom(page.headers) });
    expect(shop.status).toBe(200);
    expect(shop.body).toContain('コインショップ');

    // A used link is dead, with a way to ask again.
    const reused = await postForm(link.pathname + link.search, {});
    expect([410, 302]).toContain(reused.status);
  });

  it('shows field errors in Japanese with a 400 and keeps what was typed', async () => {
    const page = await postForm('/auth/sign_up', { name: '', email: 'not-an-email', password: 'short' });
    expect(page.status).toBe(400);
    expect(page.body).toContain('ニックネームを入力してください。');
    expect(page.body).toContain('メールアドレスの形式が正しくありません。');
    expect(page.body).toContain('パスワードの条件を満たしていません（8文字以上）。');
    expect(page.body).toContain('利用規約とプライバシーポリシーへの同意が必要です。');
    expect(page.body).toContain('value="not-an-email"');
  });

  it('answers an address already registered exactly like a new one, and mails its owner instead', async () => {
    const email = uniqueEmail('twice');
    expect((await signUp(email)).status).toBe(302);
    const again = await postForm('/auth/sign_up', { name: '別の人', email, password, agreeToTerms: 'on' });
    const fresh = await postForm('/auth/sign_up', {
      name: '別の人',
      email: uniqueEmail('fresh'),
      password,
      agreeToTerms: 'on',
    });
    expect(again.status).toBe(fresh.status);
    expect(again.body).toContain('確認メールを送信しました');
    expect(again.body).not.toContain('すでに登録されています');
    const outbox = (await (await fetch(`${shopUrl()}/dev/outbox.json?to=${encodeURIComponent(email)}`)).json()) as {
      messages: { template: string }[];
    };
    expect(outbox.messages.map((m) => m.template)).toContain('account-exists');
  });

  it('never redirects off the site', async () => {
    for (const target of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      '/..//evil.example/x',
      '/%2e%2e//evil.example',
    ]) {
      const page = await signUp(uniqueEmail('openredirect'), target);
      expect(page.status).toBe(302);
      expect(page.location).toBe('/');
    }
  });
});

describe('password reset and email link', () => {
  it('answers the same for any address, and the mailed link sets a new password', async () => {
    const email = uniqueEmail('reset');
    await signUp(email);
    const known = await postForm('/auth/passwd', { email });
    const unknown = await postForm('/auth/passwd', { email: uniqueEmail('nobody') });
    expect([known.status, unknown.status]).toEqual([200, 200]);
    // The same answer word for word, the address aside.
    const answer = (body: string) =>
      /role="status"[^>]*>([\s\S]*?)<\/section>/.exec(body)?.[1]?.replace(/[\w.+-]+@example\.jp/g, '@');
    expect(answer(known.body)).toBeDefined();
    expect(answer(known.body)).toBe(answer(unknown.body));
    const link = new URL(await mailLinkTo(email, 'resetPassword'));
    const form = await get(link.pathname + link.search);
    expect(form.status).toBe(200);
    expect(form.body).toContain('新しいパスワード');
    const mismatch = await postForm(link.pathname + link.search, { password: 'new-password-77', confirm: 'other' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toContain('確認用のパスワードが一致しません。');
    const done = await postForm(link.pathname + link.search, {
      password: 'new-password-77',
      confirm: 'new-password-77',
    });
    expect([done.status, done.location]).toEqual([302, '/auth/action?done=resetPassword']);
    expect((await get(done.location!)).body).toContain('パスワードを変更しました');
    expect((await postForm('/auth/sign_in', { email, password })).status).toBe(401);
    expect((await postForm('/auth/sign_in', { email, password: 'new-password-77' })).status).toBe(302);
    // The code is spent: the page says so and offers to ask again.
    const dead = await get(link.pathname + link.search);
    expect(dead.status).toBe(410);
    expect(dead.body).toContain('再設定メールをもう一度送る');
  });

  it('signs a member in by an email link from the sign-in page', async () => {
    const email = uniqueEmail('emaillink');
    await signUp(email);
    const asked = await postForm('/auth/sign_in', { intent: 'email-link', email, redirect: '/mylevel' });
    expect(asked.status).toBe(200);
    expect(asked.body).toContain('ログイン用のリンクをお送りしました');
    const link = new URL(await mailLinkTo(email, 'signIn'));
    const signedIn = await postForm(link.pathname + link.search, {});
    expect(signedIn.status).toBe(302);
    expect(signedIn.location).toBe('/mylevel');
    expect(cookieFrom(signedIn.headers)).toContain('session_token');
  });

  it('shows a dead or malformed action link as a Japanese page, never a 500', async () => {
    for (const query of [
      '',
      '?mode=resetPassword&oobCode=nope',
      '?mode=verifyEmail&oobCode=a.b.c',
      '?mode=unknown&oobCode=xxxxxxxxxx',
    ]) {
      const page = await get(`/auth/action${query}`);
      expect([query, page.status < 500]).toEqual([query, true]);
      expect(page.body).toContain('このリンクはご利用いただけません');
    }
  });
});

describe('the auth API outside the pages', () => {
  it('refuses sign-up through the raw API, where the terms agreement is not asked', async () => {
    const response = await fetch(shopUrl() + '/api/auth/sign-up/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: shopUrl() },
      body: JSON.stringify({ name: '<script>x</script>', email: uniqueEmail('raw-api'), password }),
    });
    expect(response.status).toBe(403);
    expect((await response.json()).error.code).toBe('USE_SHOP_PAGES');
  });
});

describe('sign-in and sign-out', () => {
  it.each(['/auth/sign_in', '/auth/sign_up'])(
    'shows an unreadable form on %s as a visible Japanese error with a 400',
    async (path) => {
      const response = await fetch(shopUrl() + path, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: shopUrl(), 'content-type': 'multipart/form-data; boundary=x' },
        body: 'garbage',
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(/role="alert"[^>]*>送信内容を読み取れませんでした。/);
    },
  );

  it('ignores an over-long redirect target instead of failing the sign-in', async () => {
    const email = uniqueEmail('longredirect');
    await signUp(email);
    const page = await postForm('/auth/sign_in', { email, password, redirect: '/' + 'x'.repeat(2100) });
    expect(page.status).toBe(302);
    expect(page.location).toBe('/');
  });

  it('lets an expired session sign out and clears its cookie', async () => {
    const page = await postForm('/auth/sign_out', {}, { cookie: '__Secure-oripa.session_token=expired.value' });
    expect(page.status).toBe(302);
    expect(page.location).toBe('/');
  });

  it('signs in, sends a signed-in member away from sign_in, and signs out', async () => {
    const email = uniqueEmail('signin');
    await signUp(email);
    const wrong = await postForm('/auth/sign_in', { email, password: 'wrong-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toContain('メールアドレスまたはパスワードが正しくありません。');

    const signedIn = await postForm('/auth/sign_in', { email, password, redirect: '/mylevel' });
    expect(signedIn.status).toBe(302);
    expect(signedIn.location).toBe('/mylevel');
    const cookie = cookieFrom(signedIn.headers);

    for (const path of ['/auth/sign_in', '/auth/sign_up', '/auth/passwd']) {
      const page = await get(path, { cookie });
      expect(page.status).toBe(302);
      expect(page.location).toBe(`/`);
    }
    const mypage = await get('/mypage', { cookie });
    expect(mypage.body).toContain('テスト会員');

    const signedOut = await postForm('/auth/sign_out', {}, { cookie });
    expect(signedOut.status).toBe(302);
    expect(signedOut.location).toBe('/');
    // the session is gone on the server, not only in the browser
    const after = await get('/shop', { cookie });
    expect(after.status).toBe(302);
    expect(after.location).toBe(`/auth/sign_in?redirect=%2Fshop`);
  });

  it('validates the sign-in form with a 400', async () => {
    const page = await postForm('/auth/sign_in', { email: '', password: '' });
    expect(page.status).toBe(400);
    expect(page.body).toContain('メールアドレスを入力してください。');
    expect(page.body).toContain('パスワードを入力してください。');
  });
});

describe('rate limits', () => {
  it('limits sign-in attempts per address and answers 429 in Japanese', async () => {
    const address = `127.0.0.${20 + Math.floor(Math.random() * 200)}`;
    // A new address each time: only the per-address limit can answer (the per-account one is its own test).
    const bodyOf = (attempt: number) =>
      new URLSearchParams({ email: `nobody-${attempt}@example.jp`, password: 'guess-1234' }).toString();
    const headers = { 'content-type': 'application/x-www-form-urlencoded', origin: shopUrl() };
    const statuses: number[] = [];
    let last = '';
    // The test shop allows SIGN_IN_ATTEMPTS_PER_MINUTE=30 (tests/support/global-shop.ts).
    const limit = 30;
    for (let attempt = 0; attempt < limit + 2; attempt++) {
      const response = await postFromAddress(address, '/auth/sign_in', bodyOf(attempt), headers);
      statuses.push(response.status);
      last = response.body;
    }
    expect(statuses.slice(0, limit).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect(last).toContain('試行回数が多すぎます');
    // another address is not affected
    const other = await postFromAddress('127.0.0.3', '/auth/sign_in', bodyOf(999), headers);
    expect(other.status).toBe(401);
  });
});
