// The address book at phone size: empty, a postal code typed in full-width digits fills the address
// without a reload, saved; a second address makes the first one not usual; delete asks first. axe
// finds no serious violation on the list, the filled form or the confirmation.
import { describe, it, expect } from 'vitest';
import {
  useBrowser,
  openContext,
  expectNoSeriousAxeViolations,
  waitForHydration,
  signUpInBrowser,
} from './support/browser';
import { uniqueEmail } from '#tests/http';

const shop = useBrowser();

describe('the address book on a phone', () => {
  it('adds two addresses with the postal look-up, changes the usual one and deletes one after asking', async () => {
    const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
    try {
      await signUpInBrowser(page, { name: '住所の確認', email: uniqueEmail('address-journey') });
      await page.goto('/mypage');
      await waitForHydration(page);
      await page.getByRole('link', { name: '住所録（お届け先）' }).click();
      await page.getByRole('heading', { name: '住所録', level: 1 }).waitFor();
      await page.getByText('登録された住所はありません').waitFor();
      await expectNoSeriousAxeViolations(page, 'empty address book');

      await page.getByRole('link', { name: '住所を追加する' }).click();
      await page.getByRole('heading', { name: '住所を追加', level: 1 }).waitFor();
      const pageLoads: string[] = [];
      page.on('framenavigated', (frame) => frame === page.mainFrame() && pageLoads.push(frame.url()));
      await page.getByLabel('氏名').fill('山田 太郎');
      await page.getByLabel('フリガナ').fill('やまだ たろう');
      await page.getByLabel('郵便番号').pressSequentially('１００－０００１');
      await page.getByText('東京都千代田区千代田を入力しました').waitFor();
      expect(pageLoads).toEqual([]);
      expect(await page.getByLabel('都道府県').inputValue()).toBe('東京都');
      expect(await page.getByLabel('市区町村').inputValue()).toBe('千代田区');
      expect(await page.getByLabel('町域・番地').inputValue()).toBe('千代田');
      await page.getByLabel('町域・番地').fill('千代田1-1');
      await page.getByLabel('電話番号').fill('０９０１２３４５６７８');
      await expectNoSeriousAxeViolations(page, 'filled address form');
      await page.getByRole('button', { name: 'この住所を登録する' }).click();
      await page.getByText('住所を登録しました。').waitFor();

      await page.getByRole('link', { name: '住所を追加する' }).click();
      await page.getByLabel('氏名').fill('山田 花子');
      await page.getByLabel('フリガナ').fill('ﾔﾏﾀﾞ ﾊﾅｺ');
      // A code with several towns: the city is filled and the towns are offered.
      await page.getByLabel('郵便番号').fill('452-0961');
      await page.getByText('町域を選んで').waitFor();
      expect(await page.getByLabel('市区町村').inputValue()).toBe('清須市');
      await page.getByLabel('町域・番地').fill('春日夢の森1-2');
      await page.getByLabel('電話番号').fill('052-123-4567');
      await page.getByRole('checkbox', { name: 'いつもの配送先にする' }).check();
      await page.getByRole('button', { name: 'この住所を登録する' }).click();
      await page.getByText('住所を登録しました。').waitFor();
      const cards = page.getByRole('article');
      expect(await cards.count()).toBe(2);
      expect(await cards.first().getAttribute('aria-label')).toBe('山田 花子 様の住所（いつもの配送先）');
      expect(await page.getByTestId('address-count').textContent()).toContain('登録済み 2件');

      await page.getByRole('link', { name: '山田 花子 様の住所を削除' }).click();
      await page.getByRole('alertdialog', { name: 'この住所を削除しますか？' }).waitFor();
      await expectNoSeriousAxeViolations(page, 'delete confirmation');
      await page.getByRole('button', { name: '削除する' }).click();
      await page.getByText('住所を削除しました。').waitFor();
      expect(await cards.count()).toBe(1);
      expect(await cards.first().getAttribute('aria-label')).toBe('山田 太郎 様の住所（いつもの配送先）');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
