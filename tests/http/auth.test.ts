// Sign-up, sign-in and sign-out through the forms, cookies, the redirect target, rate limits.
import { describe, it, expect } from 'vitest';
import { get, postForm, cookieFrom, uniqueEmail, postFromAddress, shopUrl } from '#tests/http';

const password = 'correct-horse-9';

async function signUp(email: string, redirect = '') {
  return postForm('/auth/sign_up', { name: 'テスト会員', email, password, agreeToTerms: 'on', redirect });
}

describe('sign-up', () => {
  it('creates the member, sets a secure session cookie and returns to the redirect target', async () => {
    const page = await signUp(uniqueEmail('signup'), '/shop?tab=1');
    expect(page.status).toBe(302);
    expect(page.location).toBe('/shop?tab=1');
    const session = page.headers.getSetCookie().find((line) => line.includes('session_token='));
    expect(session).toBeDefined();
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/Secure/i);
    expect(session).toMatch(/SameSite=Lax/i);
    const cookie = cookieFrom(page.headers);
    const shop = await get('/shop?tab=1', { cookie });
    expect(shop.status).toBe(200);
    expect(shop.body).toContain('コインショップ');
  });

  it('shows field errors in Japanese with a 400 and keeps what was typed', async () => {
    const page = await postForm('/auth/sign_up', { name: '', email: 'not-an-email', password: 'short' });
    expect(page.status).toBe(400);
    expect(page.body).toContain('ニックネームを入力してください。');
    expect(page.body).toContain('メールアドレスの形式が正しくありません。');
    expect(page.body).toContain('パスワードは8文字以上で入力してください。');
    expect(page.body).toContain('利用規約とプライバシーポリシーへの同意が必要です。');
    expect(page.body).toContain('value="not-an-email"');
  });

  it('refuses an address already registered with 409', async () => {
    const email = uniqueEmail('twice');
    expect((await signUp(email)).status).toBe(302);
    const again = await signUp(email);
    expect(again.status).toBe(409);
    expect(again.body).toContain('このメールアドレスはすでに登録されています');
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
    const body = new URLSearchParams({ email: 'nobody@example.jp', password: 'guess-1234' }).toString();
    const headers = { 'content-type': 'application/x-www-form-urlencoded', origin: shopUrl() };
    const statuses: number[] = [];
    let last = '';
    for (let attempt = 0; attempt < 12; attempt++) {
      const response = await postFromAddress(address, '/auth/sign_in', body, headers);
      statuses.push(response.status);
      last = response.body;
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect(last).toContain('試行回数が多すぎます');
    // another address is not affected
    const other = await postFromAddress('127.0.0.3', '/auth/sign_in', body, headers);
    expect(other.status).toBe(401);
  });
});
