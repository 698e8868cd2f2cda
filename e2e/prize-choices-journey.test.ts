// Cards that cannot slip away (issue 29 items 3 and 4, decision 057), on a phone (390 px) with axe:
// a member who won every lot of a small pack (S賞 1, A賞 2, B賞 5, C賞 12) sees 保管 first for the rare
// cards, converts in bulk by tier (「C賞のみ」 at first; ticking A賞 names both A賞 cards with their
// value), undoes it and gets cards and coins back exactly, undoes a single conversion too, and finds
// each card by name, tier and value in the prize box, filtered and sorted. Needs PostgreSQL (the pack
// and the draw are written beside the running shop).
import { randomUUID } from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import {
  useBrowser,
  openContext,
  expectNoSeriousAxeViolations,
  waitForHydration,
  signUpInBrowser,
  screenshot,
} from './support/browser';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { users } from '#db/schema';
import { HIDDEN_TEST_GENRE, ensureHiddenGenre, receiveStockFor, TEST_RULES } from '#tests/fixtures';
import { createPack, publishPack, type PackDefinition } from '#modules/gacha';
import { grantCoins, getBalance, checkInvariants, listLedgerEntries } from '#modules/wallet';
import { drawLots, listPrizes } from '#modules/draw';
import { testShop } from '#tests/test-shop';

const shop = useBrowser();
const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  await handle?.close();
});

const TIERS: PackDefinition['tiers'] = [
  {
    key: 'S',
    label: 'S賞',
    rank: 1,
    effect: 'rainbow',
    cardName: 'リザードンex SAR',
    quantity: 1,
    conversionValue: 30_000,
  },
  { key: 'A', label: 'A賞', rank: 2, effect: 'gold', cardName: 'ピカチュウ AR', quantity: 2, conversionValue: 4_000 },
  { key: 'B', label: 'B賞', rank: 3, effect: 'silver', cardName: 'イーブイ RR', quantity: 5, conversionValue: 600 },
  { key: 'C', label: 'C賞', rank: 4, effect: 'normal', cardName: 'コイキング C', quantity: 12, conversionValue: 100 },
].map((t, i) => ({ ...t, cardImagePath: `/demo/cards/card-0${i + 1}.svg` })) as PackDefinition['tiers'];

const digits = (text: string | null) => Number((text ?? '').replace(/[^0-9]/g, ''));

async function settle(page: Page) {
  await page.mouse.move(0, 0);
  await page.waitForTimeout(300);
}

describe('prize choices on a phone', () => {
  it.skipIf(!databaseUrl)(
    `keeps rare cards first, converts by tier with the rare cards named, undoes, and sorts the prize box${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the running shop)'}`,
    async () => {
      const db = handle!.db;
      const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
      try {
        // A pack of 20 lots, all drawn by one member in one 20連.
        await ensureHiddenGenre(db);
        const gachaId = `e2e-prizes-${randomUUID().slice(0, 8)}`;
        await createPack(db, {
          id: gachaId,
          genreId: HIDDEN_TEST_GENRE,
          title: '交換テストオリパ',
          imagePath: '/demo/packs/pack-01.svg',
          pricePerDraw: 100,
          drawOptions: [1, 20],
          tiers: TIERS,
        });
        await receiveStockFor(db, TIERS);
        await publishPack(db, gachaId);
        const email = `prizes-${Date.now()}@example.jp`;
        await signUpInBrowser(page, { name: 'ほかん', email });
        const [member] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
        const memberId = member!.id;
        await grantCoins(db, {
          lifetimeDays: TEST_RULES.coinLifetimes,
          memberId,
          kind: 'paid',
          amount: 2_000,
          reason: 'operator_grant',
          counterAccount: 'adjustment',
          idempotencyKey: `e2e:${email}`,
        });
        const drawn = await drawLots(db, {
          memberId,
          gachaId,
          count: 20,
          idempotencyKey: randomUUID(),
          decisionDays: TEST_RULES.prizeDecisionDays,
        });
        if (!drawn.ok) throw new Error(`draw refused: ${drawn.code}`);
        const items = drawn.result.items;
        const of = (label: string) => items.filter((p) => p.tierLabel === label);

        // 1. The result: 保管 is the filled first button for S賞 and A賞; まとめて交換 is not filled.
        await page.goto(`/gacha/${HIDDEN_TEST_GENRE}/${gachaId}/result/${drawn.result.drawId}`);
        await waitForHydration(page);
        await expect.poll(() => page.locator('[data-prize-id]').count()).toBe(20);
        const keepRare = page.getByTestId('keep-rare');
        expect(await keepRare.textContent()).toContain('S賞・A賞 3枚');
        expect(await page.locator('[data-rare]').count()).toBe(3);
        const bar = page.getByTestId('prize-action-bar');
        const buttons = await bar
          .locator('[data-testid]')
          .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-testid')));
        expect(buttons.indexOf('keep-rare')).toBeLessThan(buttons.indexOf('convert-undecided'));
        expect(await page.getByTestId('convert-undecided').getAttribute('class')).not.toMatch(/bg-primary/);
        await settle(page);
        await screenshot(page, `phone-prizes-result-bar.png`);
        await expectNoSeriousAxeViolations(page, 'phone result with 保管 first');

        // An A賞's sheet offers 保管 first, then the conversion.
        await page.locator(`[data-prize-id="${of('A賞')[0]!.prizeId}"]`).click();
        const cardSheet = page.getByTestId('prize-sheet');
        await cardSheet.getByTestId('rare-note').waitFor();
        const order = await cardSheet
          .locator('[data-testid="keep-one"], [data-testid="convert-one"]')
          .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-testid')));
        expect(order).toEqual(['keep-one', 'convert-one']);
        await screenshot(page, `phone-prizes-rare-sheet.png`);
        await expectNoSeriousAxeViolations(page, 'phone A賞 card sheet');
        await cardSheet.getByRole('link', { name: '閉じる' }).click();
        await cardSheet.waitFor({ state: 'detached' });

        // 2. まとめて交換 starts with 「C賞のみ」; ticking A賞 names both A賞 cards with their value.
        await page.getByTestId('convert-undecided').click();
        const bulk = page.getByTestId('bulk-convert-sheet');
        await bulk.getByRole('heading', { name: '12枚を1,200コインに交換します' }).waitFor();
        const checked = async () =>
          Object.fromEntries(
            await Promise.all(
              (await bulk.getByTestId('bulk-tier').all()).map(async (box) => [
                await box.getAttribute('data-tier'),
                await box.isChecked(),
              ]),
            ),
          );
        expect(await checked()).toEqual({ S賞: false, A賞: false, B賞: false, C賞: true });
        expect(await bulk.getByTestId('bulk-lowest-only').textContent()).toBe('C賞のみ');
        expect(await bulk.getByTestId('bulk-highlights').count()).toBe(0);
        await bulk.locator('[data-tier="A賞"]').check();
        await bulk.getByRole('heading', { name: '14枚を9,200コインに交換します' }).waitFor();
        const named = await bulk.getByTestId('bulk-named-card').allTextContents();
        expect(named).toEqual(['A賞ピカチュウ AR4,000コイン', 'A賞ピカチュウ AR4,000コイン']);
        await settle(page);
        await screenshot(page, `phone-prizes-bulk-named.png`);
        await expectNoSeriousAxeViolations(page, 'phone bulk conversion by tier with named cards');
        const before = await getBalance(db, memberId);
        await bulk.getByTestId('confirm-bulk-convert').click();
        const feedback = page.getByTestId('prize-feedback');
        await feedback.filter({ hasText: '14枚を9,200コインに交換しました' }).waitFor();
        await expect.poll(() => page.locator('[data-status="converted"]').count()).toBe(14);
        expect((await getBalance(db, memberId)).free).toBe(before.free + 9_200);

        // 3. 元に戻す: cards and coins back exactly, with reversal entries in the ledger.
        const undo = page.getByTestId('undo-conversion');
        await undo.waitFor();
        expect(await undo.textContent()).toMatch(/^元に戻す（\d+秒）$/);
        await settle(page);
        await screenshot(page, `phone-prizes-undo-offered.png`);
        await expectNoSeriousAxeViolations(page, 'phone feedback with 元に戻す');
        await undo.click();
        await feedback.filter({ hasText: '交換を取り消しました。14枚のカードが獲得商品に戻り' }).waitFor();
        await expect.poll(() => page.locator('[data-status="pending"]').count()).toBe(20);
        expect(await getBalance(db, memberId)).toEqual(before);
        const reversals = (await listLedgerEntries(db, memberId, { limit: 100 })).items.filter(
          (e) => e.reason === 'prize_conversion_undo',
        );
        expect(reversals.reduce((sum, e) => sum + e.amount, 0)).toBe(-9_200);
        expect(await page.getByTestId('undo-conversion').count()).toBe(0);
        await screenshot(page, `phone-prizes-undone.png`);

        // The default bulk conversion takes the C賞 only; one B賞 converted alone is undone too.
        await page.getByTestId('convert-undecided').click();
        await bulk.getByRole('heading', { name: '12枚を1,200コインに交換します' }).waitFor();
        await bulk.getByTestId('confirm-bulk-convert').click();
        await feedback.filter({ hasText: '12枚を1,200コインに交換しました' }).waitFor();
        const b = of('B賞')[0]!;
        // A 20-card result shows the B賞 as a count that opens.
        await page.locator('details[data-tier-group="B賞"] summary').click();
        await page.locator(`[data-prize-id="${b.prizeId}"]`).click();
        await page.getByTestId('prize-sheet').getByTestId('convert-one').click();
        await page.locator(`[data-prize-id="${b.prizeId}"][data-status="converted"]`).waitFor();
        await feedback.filter({ hasText: '1枚を600コインに交換しました' }).waitFor();
        await page.getByTestId('undo-conversion').click();
        await page.locator(`[data-prize-id="${b.prizeId}"][data-status="pending"]`).waitFor();
        expect((await getBalance(db, memberId)).free).toBe(before.free + 1_200);
        expect(
          (await listPrizes(db, memberId, { status: ['pending'], limit: 100 })).items.map((p) => p.tierLabel).sort(),
        ).toEqual(['A賞', 'A賞', 'B賞', 'B賞', 'B賞', 'B賞', 'B賞', 'S賞']);

        // 4. The prize box: names, tiers and values on each card, the rare ones highlighted, filters and orders.
        await page.goto('/mypage?tab=prizes&filter=pending');
        await waitForHydration(page);
        await expect.poll(() => page.locator('[data-prize-id]').count()).toBe(8);
        const first = page.locator('[data-prize-id]').first();
        expect(await first.isVisible()).toBe(true);
        await page.getByText('リザードンex SAR').first().waitFor({ state: 'visible' });
        expect(await page.locator('[data-rare]').count()).toBe(3);
        const chips = await page
          .getByTestId('prize-tier-filter')
          .evaluateAll((nodes) =>
            nodes.map((n) => `${n.getAttribute('data-tier')}:${n.textContent?.replace(/\D/g, '')}`),
          );
        expect(chips).toEqual(['S賞:1', 'A賞:2', 'B賞:5']);
        await settle(page);
        await screenshot(page, `phone-prize-box-names.png`, { fullPage: true });
        await expectNoSeriousAxeViolations(page, 'phone prize box with tier filters');
        await page.getByTestId('prize-sort-value').click();
        await page.waitForURL(/sort=value/);
        await expect
          .poll(async () => digits(await page.locator('[data-prize-id]').first().locator('b').textContent()))
          .toBe(30_000);
        await page.locator('[data-testid="prize-tier-filter"][data-tier="A賞"]').click();
        await page.waitForURL(/tier=/);
        await expect.poll(() => page.locator('[data-prize-id]').count()).toBe(2);
        await page.getByText('ピカチュウ AR').first().waitFor({ state: 'visible' });
        await settle(page);
        await screenshot(page, `phone-prize-box-filtered.png`, { fullPage: true });
        await expectNoSeriousAxeViolations(page, 'phone prize box filtered by A賞, by value');

        // The coin history shows the conversion and its reversal as two rows.
        await page.goto('/mypage?tab=coins');
        await waitForHydration(page);
        await page.getByTestId('ledger-entry').filter({ hasText: 'カード14枚の交換を取り消し' }).waitFor();
        await page.getByTestId('ledger-entry').filter({ hasText: 'カード14枚をコインに交換' }).waitFor();
        await screenshot(page, `phone-coin-history-undo.png`);

        // The same screens on a desktop.
        await page.setViewportSize({ width: 1280, height: 900 });
        await screenshot(page, `desktop-prize-box-filtered.png`);
        await page.goto(`/gacha/${HIDDEN_TEST_GENRE}/${gachaId}/result/${drawn.result.drawId}`);
        await waitForHydration(page);
        await page.getByTestId('convert-undecided').click();
        await bulk.locator('[data-tier="A賞"]').check();
        await bulk.getByTestId('bulk-named-card').first().waitFor();
        await settle(page);
        await screenshot(page, `desktop-prizes-bulk-named.png`);
        await expectNoSeriousAxeViolations(page, 'desktop bulk conversion by tier');

        expect(problems).toEqual([]);
        expect(await checkInvariants(db)).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
