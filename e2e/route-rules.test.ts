// Route rules with a redirect (specification section 4, issue 29 item 15) in the browser: an absolute
// URL is a full page load, a path on the site an internal navigation (no page load).
import { describe, it, expect } from 'vitest';
import { useBrowser, openContext, waitForHydration } from './support/browser';

const shop = useBrowser();
type RouterWindow = Window & { __reactRouterDataRouter: { navigate(to: string): Promise<void> }; samePage?: boolean };

describe('configured route rules in the browser', () => {
  it('a client navigation to a rule with an absolute URL leaves with a full page load', async () => {
    const { context, page } = await openContext(shop.browser, 'phone', shop.baseURL);
    try {
      await page.route('https://campaign.example.jp/**', (route) =>
        route.fulfill({
          contentType: 'text/html; charset=utf-8',
          body: '<!doctype html><html lang="ja"><title>キャンペーン</title><h1>外部キャンペーン</h1></html>',
        }),
      );
      await page.goto('/');
      await waitForHydration(page);
      const documents: string[] = [];
      page.on('request', (r) => r.resourceType() === 'document' && documents.push(r.url()));
      await page.evaluate(
        () => void (window as unknown as RouterWindow).__reactRouterDataRouter.navigate('/lp/outside'),
      );
      await page.getByRole('heading', { name: '外部キャンペーン' }).waitFor();
      expect(page.url()).toBe('https://campaign.example.jp/oripa?from=stella');
      expect(documents).toEqual(['https://campaign.example.jp/oripa?from=stella']);
    } finally {
      await context.close();
    }
  });

  it('a rule with a site path is an internal navigation: no page load', async () => {
    const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
    try {
      await page.goto('/');
      await waitForHydration(page);
      await page.evaluate(() => void ((window as unknown as RouterWindow).samePage = true));
      const documents: string[] = [];
      page.on('request', (r) => r.resourceType() === 'document' && documents.push(r.url()));
      await page.evaluate(
        () => void (window as unknown as RouterWindow).__reactRouterDataRouter.navigate('/lp/inside'),
      );
      await page.waitForURL((url) => url.pathname === '/gacha/pokemon' && url.searchParams.get('tab') === 'new');
      expect(await page.evaluate(() => (window as unknown as RouterWindow).samePage)).toBe(true);
      expect(documents).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
