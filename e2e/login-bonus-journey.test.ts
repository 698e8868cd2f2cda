// A member at phone size claims today's login bonus from the /mypage card (decision 033): the button
// shows its answer, the card stays readable, the history lists the day, and axe finds nothing serious.
import { describe, it, expect } from 'vitest';
import {
  useBrowser,
  openContext,
  expectNoSeriousAxeViolations,
  waitForHydration,
  addSessionCookies,
} from './support/browser';
import { cookieFrom, uniqueEmail, signUpByForm } from '#tests/http';

const shop = useBrowser();

describe('the login bonus at phone size', () => {
  it('is claimed from /mypage with one tap, and shows up in the history', async () => {
    const signUp = await signUpByForm({
      name: 'ボーナス確認',
      email: uniqueEmail('bonus-journey'),
      password: 'bonus-journey-1',
      agreeToTerms: 'on',
    });
    const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
    try {
      await addSessionCookies(context, cookieFrom(signUp.headers), shop.baseURL);
      await page.goto('/mypage');
      await waitForHydration(page);
      const card = page.getByRole('region', { name: 'ログインボーナス' });
      await expectNoSeriousAxeViolations(page, 'phone /mypage with the login bonus card');
      if (process.env.BONUS_SCREENSHOT) await card.screenshot({ path: process.env.BONUS_SCREENSHOT });
      await card.getByRole('button', { name: /10コインを受け取る/ }).click();
      await expect
        .poll(() => card.getByRole('status').textContent())
        .toBe('ログインボーナス 10コインを受け取りました（連続1日目）。');
      await page.goto('/myinbox/bonus/logs');
      await waitForHydration(page);
      await expect
        .poll(() => page.getByRole('list', { name: '受け取り履歴' }).textContent())
        .toMatch(/連続1日目\+10コイン/);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
