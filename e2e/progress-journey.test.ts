// A member at phone size reads the level (bar and rewards table), the rank with its perks, and a ranking
// board, then switches the board to the previous week (decision 037); axe finds nothing serious.
import { describe, it, expect } from 'vitest';
import { useBrowser, openSignedInPhone, expectNoSeriousAxeViolations, waitForHydration } from './support/browser';

const shop = useBrowser();

describe('level, rank and rankings at phone size', () => {
  it('shows the level, the rank perks and a board with its period switch', async () => {
    const { context, page, problems } = await openSignedInPhone(shop, 'レベル確認', 'progress-journey');
    try {
      await page.goto('/mylevel');
      await waitForHydration(page);
      expect(await page.getByTestId('level').textContent()).toBe('Lv.1');
      await page.getByRole('progressbar', { name: 'レベル2までの進み具合' }).waitFor();
      expect(await page.getByTestId('level-rewards').getByRole('row').count()).toBeGreaterThan(1);
      await expectNoSeriousAxeViolations(page, 'phone /mylevel');

      await page.goto('/myrank');
      await waitForHydration(page);
      expect(await page.getByTestId('current-rank').textContent()).toBe('レギュラー');
      expect(await page.getByTestId('rank-perk-list').textContent()).toContain('ランク限定オリパ');
      await expectNoSeriousAxeViolations(page, 'phone /myrank');

      await page.goto('/ranking/weekly/exp');
      await waitForHydration(page);
      const periods = page.getByRole('navigation', { name: '集計期間' });
      expect(await periods.getByRole('link', { name: '今週' }).getAttribute('aria-current')).toBe('page');
      await expectNoSeriousAxeViolations(page, 'phone /ranking/weekly/exp');
      await periods.getByRole('link', { name: '先週' }).click();
      await expect.poll(() => new URL(page.url()).search).toBe('?period=previous');
      await expect.poll(() => periods.getByRole('link', { name: '先週' }).getAttribute('aria-current')).toBe('page');
      await expectNoSeriousAxeViolations(page, 'phone /ranking/weekly/exp?period=previous');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
