// A page written in the browser and published (docs/decisions/040). On a desktop, a staff member with
// content:write (and the second factor) creates a page, types rich text in the TipTap editor, adds a
// table slice and a button slice, moves the button above the table, saves (version 2), sees it in the
// phone and desktop previews (framed by our own origin) in that order, publishes it after confirming,
// and a visitor then reads it at /{uid}; a visitor asking /preview meets the not-found page. axe on the list and the editor. The staff role is granted beside the running shop
// (PostgreSQL only, like the other staff journeys).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { useBrowser, openContext, expectNoSeriousAxeViolations, waitForHydration } from './support/browser';
import { signUpStaff } from './support/accounts';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { testShop } from '#tests/test-shop';

const shop = useBrowser();
const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;
const UID = `guide/e2e-${Date.now().toString(36)}`;

beforeAll(async () => {
  if (!databaseUrl) return;
  handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  await handle?.close();
});

describe('a content page written in the browser', () => {
  it.skipIf(!databaseUrl)(
    `create, type rich text, add a table and a button moved above it, preview, publish; a visitor reads it${databaseUrl ? '' : ' (skipped: needs PostgreSQL to grant the staff role beside the running shop)'}`,
    async () => {
      const desk = await openContext(shop.browser, 'desktop', shop.baseURL);
      const visitor = await openContext(shop.browser, 'desktop', shop.baseURL);
      try {
        await signUpStaff(desk.page, handle!.db, {
          name: 'ページ担当',
          label: 'content-editor',
          password: 'content-pass-2026',
          permissions: 'content:write',
          path: '/admin/content',
        });

        // ── The list: a reserved URL is refused, then the draft is made.
        const page = desk.page;
        await page.goto('/admin/content');
        await waitForHydration(page);
        await page.getByRole('heading', { name: 'ページ・お知らせ', level: 1 }).waitFor();
        await expectNoSeriousAxeViolations(page, 'content list');
        const create = page.getByRole('region', { name: '新しく作る' });
        await create.getByLabel('種類').selectOption('page');
        await create.getByLabel(/^URL/).fill('admin/x');
        await create.getByLabel('タイトル').fill('E2Eのご案内');
        await create.getByRole('button', { name: '下書きを作る' }).click();
        await page.getByText('「admin」で始まるURLはサイトの機能が使っています').waitFor();
        await create.getByLabel(/^URL/).fill(UID);
        await create.getByRole('button', { name: '下書きを作る' }).click();
        await page.waitForURL(/\/admin\/content\/[0-9a-f-]{36}$/);
        await waitForHydration(page);

        // ── Rich text in TipTap: a heading and a paragraph with bold text.
        const body = page.getByRole('textbox', { name: '本文' });
        await body.waitFor();
        // A toolbar button hands the focus back to the editor in its click handler; typing waits for it,
        // as a person's next keystroke would (a character typed into the moving focus lands elsewhere).
        const typeInBody = async (text: string) => {
          await expect.poll(() => body.evaluate((element) => element.contains(document.activeElement))).toBe(true);
          await page.keyboard.type(text);
        };
        await body.click();
        await page.getByRole('button', { name: '見出し2' }).click();
        await typeInBody('はじめに');
        await page.keyboard.press('Enter');
        await page.keyboard.type('このページはブラウザで書きました。');
        await page.getByRole('button', { name: '太字' }).click();
        await typeInBody('大事なところ');

        // ── A table slice with a header row.
        await page.getByLabel('追加するスライス').selectOption('table');
        await page.getByRole('button', { name: 'スライスを追加' }).click();
        await page.getByLabel('スライス1の表 1行1列').fill('項目');
        await page.getByLabel('スライス1の表 1行2列').fill('内容');
        await page.getByLabel('スライス1の表 2行1列').fill('送料');
        await page.getByLabel('スライス1の表 2行2列').fill('無料');

        // ── A button slice after it, then moved above the table.
        await page.getByLabel('追加するスライス').selectOption('button');
        await page.getByRole('button', { name: 'スライスを追加' }).click();
        await page.getByLabel('ボタンの文言').fill('ガチャ一覧へ');
        await page.getByLabel(/^リンク先/).fill('/gacha/pokemon');
        const sliceHeads = () =>
          page.getByTestId('editor-slice').evaluateAll((slices) => slices.map((s) => s.textContent?.split('上へ')[0]));
        expect(await sliceHeads()).toEqual(['スライス1：表', 'スライス2：ボタンリンク']);
        await page.getByRole('button', { name: 'スライス2を上へ' }).click();
        expect(await sliceHeads()).toEqual(['スライス1：ボタンリンク', 'スライス2：表']);
        // The table's cells moved with it (its inputs are now slice 2's).
        expect(await page.getByLabel('スライス2の表 2行2列').inputValue()).toBe('無料');
        await expectNoSeriousAxeViolations(page, 'content editor');
        await page.getByRole('button', { name: '保存（新しい版）' }).click();
        await page.getByText('版2として保存しました').waitFor();

        // ── The previews: both frames show the saved version.
        const desktopFrame = page.frameLocator('iframe[title="プレビュー（パソコン）"]');
        await desktopFrame.getByRole('heading', { name: 'はじめに' }).waitFor();
        await desktopFrame.getByRole('cell', { name: '無料' }).waitFor();
        // The saved order: the button, then the table.
        const buttonLink = desktopFrame.getByRole('link', { name: 'ガチャ一覧へ' });
        await buttonLink.waitFor();
        expect(
          await buttonLink.evaluate((link) => {
            const table = document.querySelector('table');
            return !!table && !!(link.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING);
          }),
        ).toBe(true);
        expect(await desktopFrame.locator('strong').first().textContent()).toBe('大事なところ');
        await page
          .frameLocator('iframe[title="プレビュー（スマートフォン）"]')
          .getByText('このページはブラウザで書きました。')
          .waitFor();

        // Not published yet: a visitor sees the not-found page, and /preview is not found for them either.
        const before = await visitor.page.goto(`/${UID}`);
        expect(before?.status()).toBe(404);
        const previewUrl = (await page.locator('iframe[title="プレビュー（パソコン）"]').getAttribute('src'))!;
        expect((await visitor.page.goto(previewUrl))?.status()).toBe(404);

        // ── Publish (confirmed in the dialog), then the visitor reads it.
        await page.getByRole('button', { name: '版2を公開する' }).click();
        const publishing = page.getByRole('dialog', { name: '版2を公開しますか？' });
        await publishing.getByText('サイトにすぐ表示されます。').waitFor();
        await publishing.getByRole('button', { name: '公開する', exact: true }).click();
        await page.getByText(`版2を公開しました（/${UID}）`).waitFor();
        const after = await visitor.page.goto(`/${UID}`);
        expect(after?.status()).toBe(200);
        await visitor.page.getByRole('heading', { name: 'E2Eのご案内', level: 1 }).waitFor();
        await visitor.page.getByRole('heading', { name: 'はじめに' }).waitFor();
        await visitor.page.getByRole('cell', { name: '無料' }).waitFor();
        await visitor.page.getByRole('columnheader', { name: '項目' }).waitFor();

        // ── The history shows both versions and their diff.
        await page.goto(`${new URL(page.url()).pathname}?from=1&to=2`);
        const diff = page.getByTestId('version-diff');
        await diff.waitFor();
        expect(await diff.locator('.bg-green-100').allTextContents()).toEqual(
          expect.arrayContaining([expect.stringContaining('## はじめに'), expect.stringContaining('| 送料 | 無料 |')]),
        );
        // The diff names the slices in their saved order: the button first.
        const added = await diff.locator('.bg-green-100').allTextContents();
        const buttonLine = added.findIndex((line) =>
          line.includes('スライス1（ボタン）: ガチャ一覧へ → /gacha/pokemon'),
        );
        const tableLine = added.findIndex((line) => line.includes('スライス2（表・見出し行あり）'));
        expect(buttonLine).toBeGreaterThanOrEqual(0);
        expect(tableLine).toBeGreaterThan(buttonLine);

        expect(desk.problems).toEqual([]);
        expect(visitor.problems).toEqual([]);
      } finally {
        await desk.context.close();
        await visitor.context.close();
      }
    },
    180_000,
  );
});
