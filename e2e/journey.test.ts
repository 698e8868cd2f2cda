// The new member's first walk, in Japanese, in Chromium, at phone and desktop sizes:
// home → genre → /shop (sent to sign-in) → sign up → back on /shop → sign out → unknown page → top.
import { describe, it, expect } from 'vitest';
import {
  useBrowser,
  openContext,
  expectNoSeriousAxeViolations,
  waitForHydration,
  confirmSignUpInBrowser,
  type ViewportName,
} from './support/browser';

const shop = useBrowser();

describe.each<ViewportName>(['phone', 'desktop'])('first visit on a %s', (viewport) => {
  it('walks from the home page through sign-up and sign-out to the not-found page and back', async () => {
    const { context, page, problems } = await openContext(shop.browser, viewport, shop.baseURL);
    try {
      // 1. home and a genre
      await page.goto('/');
      await waitForHydration(page);
      await expect(page.title()).resolves.toBe('オリパ ステラ｜公平・透明なオンラインオリパ');
      await page.getByRole('heading', { name: 'オリパ一覧' }).waitFor();
      // Once in the list; the winners feed below may link to it too, when other tests have drawn big wins there.
      const packLinks = page.getByRole('link', { name: /星降る夜のハイレアオリパ/ });
      const feedLinks = page.getByTestId('winners-feed').getByRole('link', { name: /星降る夜のハイレアオリパ/ });
      expect((await packLinks.count()) - (await feedLinks.count())).toBe(1);
      await expectNoSeriousAxeViolations(page, `${viewport} home`);
      const genreNav =
        viewport === 'phone'
          ? page.getByRole('navigation', { name: 'ジャンル' })
          : page.getByRole('navigation', { name: 'メインメニュー' });
      await genreNav.getByRole('link', { name: 'ワンピース' }).click();
      await page.waitForURL('**/gacha/onepiece');
      await page.getByRole('heading', { name: 'ワンピースのオリパ' }).waitFor();
      await expect(page.title()).resolves.toBe('ワンピースのオリパ一覧 | オリパ ステラ');
      await expectNoSeriousAxeViolations(page, `${viewport} genre`);

      // 2. the shop sends a visitor to sign-in (phone: a client navigation from the tab bar; desktop: a page load)
      if (viewport === 'phone')
        await page.getByRole('navigation', { name: 'タブメニュー' }).getByRole('link', { name: 'チャージ' }).click();
      else await page.goto('/shop');
      await page.waitForURL((url) => url.pathname === '/auth/sign_in' && url.searchParams.get('redirect') === '/shop');
      await page.getByRole('heading', { name: 'ログイン' }).waitFor();
      await expectNoSeriousAxeViolations(page, `${viewport} sign-in`);

      // 3. sign up (the link keeps the way back to /shop)
      await page.getByRole('link', { name: '新規会員登録' }).click();
      await page.waitForURL((url) => url.pathname === '/auth/sign_up' && url.searchParams.get('redirect') === '/shop');
      await waitForHydration(page);
      await page.getByRole('button', { name: '登録する' }).click();
      await page.getByText('ニックネームを入力してください。').waitFor();
      await expectNoSeriousAxeViolations(page, `${viewport} sign-up with errors`);
      await page.getByLabel('ニックネーム').fill(`はじめ${viewport}`);
      const email = `journey-${viewport}-${Date.now()}@example.jp`;
      await page.getByLabel('メールアドレス').fill(email);
      await page.getByLabel('パスワード', { exact: true }).fill('strong-pass-2026');
      await page.getByText('✓ 8文字以上').waitFor();
      await page.getByRole('checkbox', { name: /利用規約/ }).check();
      await page.getByRole('button', { name: '登録する' }).click();
      // 3b. the confirmation mail: its link and button sign the member in and continue to /shop
      await confirmSignUpInBrowser(page, email);

      // 4. back on /shop, signed in
      await page.waitForURL('**/shop');
      await page.getByRole('heading', { name: 'コインショップ' }).waitFor();
      await expect(page.title()).resolves.toBe('コインショップ | オリパ ステラ');
      const cookies = await context.cookies();
      const session = cookies.find((c) => c.name.endsWith('session_token'));
      expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax' });
      await expectNoSeriousAxeViolations(page, `${viewport} shop`);

      // 5. sign out from mypage
      await page.goto('/mypage');
      await page.getByTestId('member-name').waitFor();
      await expect(page.getByTestId('member-name').textContent()).resolves.toBe(`はじめ${viewport}`);
      await page.getByRole('button', { name: 'ログアウト' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByRole('link', { name: 'ログイン' }).first().waitFor();
      expect((await context.cookies()).some((c) => c.name.endsWith('session_token'))).toBe(false);

      // 6. an unknown page
      const response = await page.goto('/kore-wa-nai-page');
      expect(response?.status()).toBe(404);
      await page.getByRole('heading', { name: '指定のページが見付かりません' }).waitFor();
      await page.getByText('トップページにお戻りください。').waitFor();
      await expectNoSeriousAxeViolations(page, `${viewport} not found`);

      // 7. back to the top
      await page.getByRole('link', { name: 'トップページへ' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByRole('heading', { name: 'オリパ一覧' }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
