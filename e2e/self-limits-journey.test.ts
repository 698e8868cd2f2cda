// A member at phone size sets their own limits (docs/decisions/035): a draw-spend limit of 0 coins, seen at
// once on the pack's confirmation sheet in its own words; then a one-month self-exclusion, asked first on a
// sheet that says it cannot be lifted, after which the pack page says until when. axe finds nothing serious.
import { describe, it, expect } from 'vitest';
import {
  useBrowser,
  openSignedInPhone,
  expectNoSeriousAxeViolations,
  waitForHydration,
  screenshot,
} from './support/browser';

const shop = useBrowser();
const PACK = 'stellar-pokemon-003';

describe('self-limits at phone size', () => {
  it('sets a limit, sees it enforced on the pack page, and self-excludes after the confirmation', async () => {
    const { genreId } = (await fetch(`${shop.baseURL}/api/v1/gachas/${PACK}`).then((r) => r.json())) as {
      genreId: string;
    };
    const { context, page, problems } = await openSignedInPhone(shop, '上限確認', 'limits-journey');
    try {
      // 1. From /mypage's menu to the page.
      await page.goto('/mypage');
      await waitForHydration(page);
      await page.getByRole('link', { name: /利用上限・自己除外/ }).click();
      await page.waitForURL('**/mypage/settings/limits');
      await page.getByRole('heading', { name: '利用上限・自己除外', level: 1 }).waitFor();
      await expectNoSeriousAxeViolations(page, 'phone /mypage/settings/limits');

      // 2. A draw-spend limit of 0 coins: lowering applies at once.
      const draw = page.getByTestId('limit-draw');
      await draw.getByLabel('ガチャ消費上限（コイン）').fill('0');
      await draw.getByTestId('limit-draw-save').click();
      await expect
        .poll(() => page.getByRole('status').first().textContent())
        .toBe('ガチャ消費上限を0コインにしました。すぐに反映されます。');
      await expect.poll(() => draw.getByTestId('limit-draw-current').textContent()).toBe('0コイン');

      // 3. The pack's confirmation says the limit instead of offering to draw or to buy coins.
      await page.goto(`/gacha/${genreId}/${PACK}`);
      await waitForHydration(page);
      await page.locator('button[name=confirm][value="1"]:visible').first().click();
      const dialog = page.getByRole('dialog', { name: '1回を引きますか？' });
      await dialog.waitFor();
      expect(await dialog.getByTestId('self-limit-block').textContent()).toContain(
        '今月のガチャ消費上限（0コイン）に達しています（残り 0コイン）。',
      );
      await screenshot(page, 'phone-self-limits-pack.png');
      expect(await dialog.getByTestId('confirm-draw').count()).toBe(0);
      expect(await dialog.getByTestId('buy-coins').count()).toBe(0);
      await expectNoSeriousAxeViolations(page, 'phone pack confirmation over the draw-spend limit');

      // 4. Self-exclusion for a month: the sheet says it cannot be lifted, and asks once more.
      await page.goto('/mypage/settings/limits');
      await waitForHydration(page);
      await page.getByRole('radio', { name: /^1か月（/ }).check();
      await page.getByTestId('exclusion-start').click();
      const sheet = page.getByTestId('exclusion-sheet');
      await sheet.waitFor();
      expect(await sheet.textContent()).toMatch(/この期間は解除も短縮もできません。/);
      await expectNoSeriousAxeViolations(page, 'phone self-exclusion confirmation');
      await screenshot(page, 'phone-self-limits.png', { fullPage: true });
      await sheet.getByTestId('exclusion-confirm').click();
      await expect
        .poll(() => page.getByRole('status').first().textContent())
        .toMatch(/^自己除外を設定しました。\d{4}年\d{1,2}月\d{1,2}日まで、コインの購入とガチャはできません。$/);
      const lastDay = /(\d{4}年\d{1,2}月\d{1,2}日)/.exec((await page.getByRole('status').first().textContent())!)![1];
      await page.getByTestId('limits-exclusion').waitFor();

      // 5. The pack page says until when.
      await page.goto(`/gacha/${genreId}/${PACK}`);
      await waitForHydration(page);
      expect(await page.getByTestId('self-limit-excluded').textContent()).toContain(
        `自己除外期間中です（${lastDay}まで）`,
      );
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
