// Client rules of sections 4 and 9: ad-tracking parameters, a newer build, the client-side guards.
import { describe, it, expect } from 'vitest';
import { useBrowser, openContext, waitForHydration } from './support/browser';

const shop = useBrowser();

describe('client behaviour', () => {
  it('keeps ad-tracking parameters and restores them for a visitor who arrives without them', async () => {
    const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
    try {
      await page.goto('/?utm_source=line_ads&gclid=abc123');
      await waitForHydration(page);
      const stored = await page.evaluate(() => localStorage.getItem('oripa:ad-tracking'));
      expect(JSON.parse(stored ?? '{}')).toEqual({ utm_source: 'line_ads', gclid: 'abc123' });
      // a fresh page load without parameters: page, tab, genre and special queries survive, others go
      await page.goto('/gacha/pokemon?tab=new&page=2&sort=price_asc');
      await page.waitForURL((url) => url.searchParams.get('utm_source') === 'line_ads');
      const url = new URL(page.url());
      expect(url.pathname).toBe('/gacha/pokemon');
      expect(Object.fromEntries(url.searchParams)).toEqual({
        tab: 'new',
        page: '2',
        gclid: 'abc123',
        utm_source: 'line_ads',
      });
      // and on a client navigation too
      await page.getByRole('navigation', { name: 'ジャンル' }).getByRole('link', { name: '遊戯王' }).click();
      await page.waitForURL((u) => u.pathname === '/gacha/yugioh' && u.searchParams.get('gclid') === 'abc123');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('does a full load on the next navigation once a newer build is published', async () => {
    const { context, page, problems } = await openContext(shop.browser, 'desktop', shop.baseURL);
    try {
      await page.route('**/builds/latest.json*', (route) =>
        route.fulfill({ json: { id: 'ffffffffffffffff', timestamp: Date.now() } }),
      );
      await page.goto('/');
      await waitForHydration(page);
      await page.evaluate(() => {
        (window as unknown as { stillSamePage: boolean }).stillSamePage = true;
      });
      // a client navigation first, to prove the marker survives ordinary navigations
      await page.getByRole('navigation', { name: 'メインメニュー' }).getByRole('link', { name: 'ポケモン' }).click();
      await page.waitForURL('**/gacha/pokemon');
      expect(await page.evaluate(() => (window as unknown as { stillSamePage?: boolean }).stillSamePage)).toBe(true);
      // the poll runs when the tab becomes visible again
      const polled = page.waitForRequest('**/builds/latest.json*');
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      await polled;
      await page.waitForTimeout(200);
      await page.getByRole('navigation', { name: 'メインメニュー' }).getByRole('link', { name: 'ワンピース' }).click();
      await page.waitForURL('**/gacha/onepiece');
      await page.getByRole('heading', { name: 'ワンピースのオリパ' }).waitFor();
      expect(
        await page.evaluate(() => (window as unknown as { stillSamePage?: boolean }).stillSamePage),
      ).toBeUndefined();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('guards client navigations in the browser: a visitor tapping チャージ goes to sign-in without a page load', async () => {
    const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
    try {
      await page.goto('/');
      await waitForHydration(page);
      await page.evaluate(() => {
        (window as unknown as { stillSamePage: boolean }).stillSamePage = true;
      });
      const documentLoads: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'document') documentLoads.push(request.url());
      });
      await page.getByRole('navigation', { name: 'タブメニュー' }).getByRole('link', { name: 'チャージ' }).click();
      await page.waitForURL((url) => url.pathname === '/auth/sign_in' && url.searchParams.get('redirect') === '/shop');
      await page.getByRole('heading', { name: 'ログイン' }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { stillSamePage?: boolean }).stillSamePage)).toBe(true);
      expect(documentLoads).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the not-found page for an application error in the browser, and logs it', async () => {
    const { context, page, problems } = await openContext(shop.browser, 'desktop', shop.baseURL);
    try {
      await page.route('**/gacha/weiss.data*', (route) => route.fulfill({ status: 500, body: 'broken' }));
      await page.goto('/');
      await waitForHydration(page);
      await page.getByRole('navigation', { name: 'メインメニュー' }).getByRole('link', { name: 'ヴァイス' }).click();
      await page.getByRole('heading', { name: '指定のページが見付かりません' }).waitFor();
      await expect(page.title()).resolves.toBe('指定のページが見付かりません | オリパ ステラ');
      await page.getByRole('link', { name: 'トップページへ' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByRole('heading', { name: 'オリパ一覧' }).waitFor();
      expect(problems.some((p) => p.startsWith('console.error: Application error:'))).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('shows the full-screen spinner while the app loads, and removes it once hydrated', async () => {
    const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
    try {
      let release!: () => void;
      const scriptsHeld = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/assets/*.js', async (route) => {
        await scriptsHeld;
        await route.continue();
      });
      await page.goto('/', { waitUntil: 'domcontentloaded' });
      const spinner = page.locator('#app-loading');
      await spinner.waitFor({ state: 'visible' });
      await page.waitForTimeout(700); // past the 0.4 s delay that spares fast loads a flash
      expect(await spinner.evaluate((el) => Number(getComputedStyle(el).opacity))).toBeGreaterThan(0.9);
      expect(await spinner.getAttribute('role')).toBe('status');
      release();
      await waitForHydration(page);
      await spinner.waitFor({ state: 'hidden' });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
