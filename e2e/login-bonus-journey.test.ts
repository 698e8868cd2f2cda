// A member at phone size claims today's login bonus from the /mypage card (decision 033): the button
// shows its answer, the card stays readable, the history lists the day, and axe finds nothing serious.
import { describe, it, expect } from 'vitest';
import {
  useBrowser,
  openSignedInPhone,
  expectNoSeriousAxeViolations,
  waitForHydration,
  screenshot,
} from './support/browser';

const shop = useBrowser();

describe('the login bonus at phone size', () => {
  it('is claimed from /mypage with one tap, and shows up in the history', async () => {
    const { context, page, problems } = await openSignedInPhone(shop, 'ボーナス確認', 'bonus-journey');
    try {
      await page.goto('/mypage');
      await waitForHydration(page);
      const card = page.getByRole('region', { name: 'ログインボーナス' });
      await expectNoSeriousAxeViolations(page, 'phone /mypage with the login bonus card');
      await screenshot(card, 'login-bonus-card.png');
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
