// A 天井賞 set up in the pack editor on a desktop (issue 34 items 1 and 3, decision 089), as an operator does it:
// the row's kind 「天井賞」 shows its own two fields, a row without its lots is refused in Japanese, the saved row
// counts its stock from the pack's lots, and the review states it as a prize apart from the lots with its cost in
// the margin. axe on each screen; screenshots (TEST_SCREENSHOTS) for a look. The staff role is set beside the
// running shop (PostgreSQL only).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { useBrowser, openContext, expectNoSeriousAxeViolations, waitForHydration, screenshot } from './support/browser';
import { signUpStaff } from './support/accounts';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { gachaTiers } from '#db/schema';
import { ensureGenre } from '#tests/fixtures';
import { testShop } from '#tests/test-shop';

const shop = useBrowser();
const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;
const PACK_ID = `ceiling-editor-${Date.now().toString(36)}`;

beforeAll(async () => {
  if (!databaseUrl) return;
  handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
  await ensureGenre(handle.db);
});
afterAll(async () => {
  await handle?.close();
});

describe('天井賞 in the pack editor', () => {
  it.skipIf(!databaseUrl)(
    `an operator adds a 天井賞 row, is told what is missing, and sees its stock and cost in the review${databaseUrl ? '' : ' (skipped: needs PostgreSQL to set the role beside the running shop)'}`,
    async () => {
      const { context, page, problems } = await openContext(shop.browser, 'desktop', shop.baseURL);
      try {
        await signUpStaff(page, handle!.db, {
          name: '天井担当',
          label: 'ceiling-editor',
          password: 'ceiling-editor-2026',
          permissions: 'packs:write',
          path: '/admin/packs',
        });

        // Basics and sale terms: 20 lots at 100 coins.
        await page.goto('/admin/packs');
        await waitForHydration(page);
        await page.getByLabel(/^ID/).fill(PACK_ID);
        await page.getByLabel('タイトル').fill('天井つきオリパ');
        await page.getByLabel('ジャンル').selectOption('pokemon');
        await page.getByLabel('説明').fill('S賞が出ないまま5口引いた方に天井賞をプレゼント。');
        await page.getByRole('button', { name: '下書きを作って次へ' }).click();
        await page.waitForURL(new RegExp(`/admin/packs/${PACK_ID}\\?step=sale`));
        await waitForHydration(page);
        await page.getByLabel('1回の価格（コイン）').fill('100');
        await page.getByRole('checkbox', { name: '100連' }).uncheck();
        await page.getByRole('button', { name: '保存して次へ' }).click();

        // Tiers: S賞 1 and B賞 19, then the 天井賞.
        await page.waitForURL(/step=tiers/);
        await waitForHydration(page);
        const fillRow = async (i: number, row: Record<string, string>) => {
          for (const [field, value] of Object.entries(row))
            await page.locator(`[name="tiers.${i}.${field}"]`).fill(value);
        };
        const save = () => page.getByRole('button', { name: '賞を保存する' }).click();
        await fillRow(0, { label: 'S賞', cardName: 'リザードン SAR', quantity: '1', conversionValue: '5000' });
        await save();
        await page.getByText('賞を保存しました。').waitFor();
        await fillRow(1, { label: 'B賞', cardName: 'ピカチュウ R', quantity: '19', conversionValue: '50' });
        await save();
        await page.getByRole('group', { name: '2. B賞' }).waitFor();

        // The kind 「天井賞」 brings its own fields; without the lots and the guaranteed tier, the row is refused.
        await page.locator('select[name="tiers.2.kind"]').selectOption('ceiling');
        const after = page.getByLabel(/^天井の口数/);
        await after.waitFor();
        await fillRow(2, { label: '天井賞', cardName: 'ミュウ PSA9', conversionValue: '5000' });
        await save();
        await page.getByText('天井賞には何口で確定するかを入力してください（例: 100）。').waitFor();
        expect(await page.getByTestId('own-stock-note').textContent()).toContain(
          '保存すると総口数から計算して表示します',
        );
        await after.fill('5');
        await page.getByLabel(/^確定する賞/).selectOption({ label: 'S賞以上' });
        await expectNoSeriousAxeViolations(page, 'desktop 天井 row');
        await save();
        await page.getByRole('group', { name: '3. 天井賞' }).waitFor();
        await screenshot(page, 'desktop-pack-ceiling-tiers.png', { fullPage: true });
        // Its stock is the most it can give: ⌊20 ÷ 5⌋ = 4, stated in the commitment; the row reads back as typed.
        const tiers = await handle!.db.select().from(gachaTiers).where(eq(gachaTiers.gachaId, PACK_ID));
        const sTier = tiers.find((t) => t.label === 'S賞');
        expect(tiers.find((t) => t.ceilingAfter !== null)).toMatchObject({
          label: '天井賞',
          ceilingAfter: 5,
          ceilingOf: [sTier!.id],
          quantity: 4,
        });
        expect(await page.getByLabel(/^天井の口数/).inputValue()).toBe('5');
        expect(await page.getByTestId('own-stock-note').textContent()).toContain('専用の在庫: 4枚');

        // The review: the 天井賞 is a prize apart from the lots, counted at its most in the margin.
        await page.getByRole('link', { name: '5. 確認・公開' }).click();
        await waitForHydration(page);
        const row = page.getByRole('row').filter({ hasText: '天井賞' });
        await row.getByText('口とは別の賞（到達で確定・最大数を利益に計上）').waitFor();
        expect(await row.getByRole('cell').nth(1).textContent()).toBe('4');
        await expectNoSeriousAxeViolations(page, 'desktop 天井 review');
        await screenshot(page, 'desktop-pack-ceiling-review.png', { fullPage: true });
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
