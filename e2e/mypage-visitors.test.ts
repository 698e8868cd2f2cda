// /mypage's pages ask a visitor to sign in, one way (decision 002, issue 29 item 16), on a phone: on a
// first load and on a client navigation; ログイン brings the member back to the page they opened.
import { describe, it, expect } from 'vitest';
import { signUpMember } from '#tests/http';
import { useBrowser, openContext, waitForHydration, expectNoSeriousAxeViolations, screenshot } from './support/browser';

const shop = useBrowser();
type RouterWindow = Window & { __reactRouterDataRouter: { navigate(to: string): Promise<void> }; samePage?: boolean };

describe('/mypage pages for a visitor', () => {
  it('show the sign-in prompt with the page title, also after a client navigation, and sign-in returns to the page', async () => {
    const member = await signUpMember('mypage-visitor-walk');
    const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
    try {
      await page.goto('/mypage/addresses');
      await waitForHydration(page);
      await page.getByRole('heading', { name: 'ログインが必要です' }).waitFor();
      expect(page.url()).toMatch(/\/mypage\/addresses$/);
      await screenshot(page, 'mypage-visitor-phone.png');
      await expectNoSeriousAxeViolations(page, 'mypage visitor prompt (phone)');
      // the tab bar and the header are there: the shop's normal frame, not an error page
      await page.getByRole('navigation', { name: 'タブメニュー' }).waitFor();

      // a client navigation to another of the pages: the same answer, without a page load
      await page.evaluate(() => void ((window as unknown as RouterWindow).samePage = true));
      await page.evaluate(
        () => void (window as unknown as RouterWindow).__reactRouterDataRouter.navigate('/mypage/settings/profile'),
      );
      await page.waitForURL((url) => url.pathname === '/mypage/settings/profile');
      await page.getByRole('heading', { name: 'ログインが必要です' }).waitFor();
      expect(await page.evaluate(() => (window as unknown as RouterWindow).samePage)).toBe(true);

      await page.getByRole('link', { name: 'ログイン', exact: true }).last().click();
      await page.waitForURL(
        (url) => url.pathname === '/auth/sign_in' && url.searchParams.get('redirect') === '/mypage/settings/profile',
      );
      await waitForHydration(page);
      await page.getByLabel('メールアドレス').first().fill(member.email);
      await page.getByLabel('パスワード', { exact: true }).fill('mypage-visitor-walk-pass-1');
      await page.getByRole('button', { name: 'ログイン', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/mypage/settings/profile');
      await expect(page.getByRole('heading', { name: 'ログインが必要です' }).count()).resolves.toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
