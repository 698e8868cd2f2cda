// Social sign-in on a sandbox shop (issue 29 item 18): without their keys, Google, Facebook, GitHub and
// X use the local stand-ins the tests use (server/social-standins.ts), as LINE does. A visitor on a
// phone taps each button, allows on the provider's (stand-in's) page, and is signed in.
import { describe, it, expect } from 'vitest';
import { useBrowser, openContext, waitForHydration, expectNoSeriousAxeViolations, screenshot } from './support/browser';

const shop = useBrowser();

describe('social sign-in on a sandbox shop', () => {
  it('offers Google, LINE, X, Facebook and GitHub on the sign-in page', async () => {
    const { context, page } = await openContext(shop.browser, 'phone', shop.baseURL);
    try {
      await page.goto('/auth/sign_in');
      await waitForHydration(page);
      for (const label of ['Google', 'LINE', 'X（旧Twitter）', 'Facebook', 'GitHub'])
        await page.getByRole('button', { name: `${label}でログイン` }).waitFor();
      await screenshot(page, 'social-sandbox-sign-in.png', { fullPage: true });
      await expectNoSeriousAxeViolations(page, 'sign-in with every provider (phone)');
    } finally {
      await context.close();
    }
  });

  it.each(['Google', 'X（旧Twitter）', 'Facebook', 'GitHub'])(
    '%s: the button opens the stand-in in a popup, 許可する signs the visitor in and the page goes on',
    async (label) => {
      const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
      try {
        await page.goto('/auth/sign_in?redirect=%2Fmypage');
        await waitForHydration(page);
        // With JavaScript the provider opens in a popup (app/lib/auth-popup.ts), whose last page reports back.
        const popupOpened = context.waitForEvent('page');
        await page.getByRole('button', { name: `${label}でログイン` }).click();
        const popup = await popupOpened;
        await popup.getByRole('button', { name: '許可する' }).click();
        await page.waitForURL((url) => url.pathname === '/mypage');
        await page.getByTestId('member-name').waitFor();
        expect(popup.isClosed()).toBe(true);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  // The form's own path (before hydration, or when the popup is blocked): the provider's page in the
  // same tab, then back signed in.
  it('GitHub without JavaScript: the same tab goes to the stand-in and back signed in', async () => {
    const context = await shop.browser.newContext({
      viewport: { width: 390, height: 844 },
      baseURL: shop.baseURL,
      locale: 'ja-JP',
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    try {
      await page.goto('/auth/sign_in?redirect=%2Fmypage');
      await page.getByRole('button', { name: 'GitHubでログイン' }).click();
      await page.waitForURL((url) => url.hostname === '127.0.0.1');
      await page.getByRole('button', { name: '許可する' }).click();
      await page.waitForURL((url) => url.hostname === 'localhost' && url.pathname === '/mypage');
      await page.getByTestId('member-name').waitFor();
    } finally {
      await context.close();
    }
  });
});
