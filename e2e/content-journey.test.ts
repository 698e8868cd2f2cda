// Content as a member on a phone meets it (decision 039): from the top page, the footer holds the legal
// pages and the 古物営業法 line (permit number and issuing 公安委員会, one link from the top page);
// tapping 資金決済法に基づく表示 opens the page with the coins' expiry and how to check a balance; the
// 古物 line leads to its page; お知らせ lists notices. axe on each screen, no script errors.
import { describe, it, expect } from 'vitest';
import { useBrowser, openContext, expectNoSeriousAxeViolations, waitForHydration } from './support/browser';

const shop = useBrowser();

describe('content on a phone', () => {
  it('reads the legal pages from the footer of the top page', async () => {
    const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
    try {
      await page.goto('/');
      await waitForHydration(page);
      const footer = page.getByRole('contentinfo');
      // The settings' defaults: 東京都公安委員会, permit 000000000000 (server/config.ts).
      const kobutsuLine = footer.getByRole('link', { name: '古物商許可 東京都公安委員会 第000000000000号' });
      await kobutsuLine.scrollIntoViewIfNeeded();
      await expect(kobutsuLine.isVisible()).resolves.toBe(true);
      const legal = footer.getByRole('navigation', { name: '規約・法定表示' });
      for (const name of ['利用規約', 'プライバシーポリシー', '特定商取引法に基づく表記', '資金決済法に基づく表示']) {
        await expect(legal.getByRole('link', { name }).isVisible()).resolves.toBe(true);
      }

      await legal.getByRole('link', { name: '資金決済法に基づく表示' }).click();
      await page.getByRole('heading', { name: '資金決済法に基づく表示', level: 1 }).waitFor();
      expect(page.url()).toBe(`${shop.baseURL}/shikin`);
      const article = page.getByRole('article');
      await expect(article.getByRole('heading', { name: '有効期間' }).isVisible()).resolves.toBe(true);
      await expect(article.getByText('有償コイン：購入日から180日').isVisible()).resolves.toBe(true);
      await expect(article.getByRole('heading', { name: '残高の確認方法' }).isVisible()).resolves.toBe(true);
      expect(await page.title()).toBe('資金決済法に基づく表示 | オリパ ステラ');
      await expectNoSeriousAxeViolations(page, 'phone /shikin');

      await page
        .getByRole('contentinfo')
        .getByRole('link', { name: /^古物商許可/ })
        .click();
      await page.getByRole('heading', { name: '古物営業法に基づく表示', level: 1 }).waitFor();
      await expect(page.getByRole('article').getByText('東京都公安委員会').isVisible()).resolves.toBe(true);
      await expectNoSeriousAxeViolations(page, 'phone /kobutsu');

      await page.getByRole('contentinfo').getByRole('link', { name: 'お知らせ' }).click();
      await page.getByRole('heading', { name: 'お知らせ', level: 1 }).waitFor();
      await expectNoSeriousAxeViolations(page, 'phone /notices');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
