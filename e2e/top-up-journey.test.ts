// A member short of coins on a phone goes from 「コインが不足」 to drawing 10連 without losing the place:
// the pack's phone bar shows each draw's total and what is missing, the confirmation's 「コインを購入する」
// carries the pack and the count through /shop (初回限定 highlighted, the warning when another plan
// is picked), the checkout and the sandbox's page, and the return page's 「続けて10連を引く（…）」 opens
// the same pack with the 10連 confirmation, which draws. axe-core on the shop, the checkout and the
// return page. Runs on either database engine: the coins come only from the purchase.
import { describe, it, expect } from 'vitest';
import {
  useBrowser,
  openContext,
  expectNoSeriousAxeViolations,
  waitForHydration,
  signUpInBrowser,
} from './support/browser';

const shop = useBrowser();
const PACK = { genre: 'pokemon', id: 'stellar-pokemon-001', title: '星降る夜のハイレアオリパ', price: 500 };
const PLAN = { id: 'coin-5000', coins: 5_150 };
const digits = (text: string | null) => Number((text ?? '').replace(/[^0-9]/g, ''));

describe('topping up from a pack on a phone', () => {
  it('taps 10連 short of coins, buys coins with the pack kept in context, comes back and draws 10連', async () => {
    const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
    try {
      // A new member (no coins yet) signs up.
      await signUpInBrowser(page, { name: 'たりない', email: `topup-${Date.now()}@example.jp` });

      // 1. The pack: the phone bar's 10連 says its total and what is missing, and still opens the sheet.
      await page.goto(`/gacha/${PACK.genre}/${PACK.id}`);
      await waitForHydration(page);
      const ten = page.locator('[data-testid="draw-option-10"]:visible');
      await expect.poll(() => ten.count()).toBe(1);
      expect((await ten.textContent())?.replace(/\s/g, '')).toBe('10連5,000コイン');
      await expect
        .poll(() => page.locator('[data-testid="draw-missing-10"]:visible').textContent())
        .toBe('あと5,000コイン不足');
      const box = (await ten.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.width).toBeGreaterThanOrEqual(88);
      await ten.tap();
      const sheet = page.getByRole('dialog', { name: '10連を引きますか？' });
      await sheet.waitFor();
      await sheet.getByText('コインが5,000枚不足しています。').waitFor();
      await sheet.getByRole('link', { name: 'コインを購入する' }).tap();

      // 2. The shop knows what the member came for; 初回限定 is highlighted and chosen to begin with.
      await page.waitForURL(
        (url) =>
          url.pathname === '/shop' &&
          url.searchParams.get('gacha') === PACK.id &&
          url.searchParams.get('count') === '10',
      );
      await waitForHydration(page);
      const notice = page.getByTestId('shop-draw-context');
      await notice.getByText(`「${PACK.title}」の10連に向けてコインを購入`).waitFor();
      await notice.getByText('あと5,000コイン不足しています。').waitFor();
      await page.getByLabel('18歳以上です').check();
      await page.getByRole('button', { name: '回答する' }).click();
      await page.getByTestId('shop-message').filter({ hasText: '年齢の確認を受け付けました' }).waitFor();
      expect(new URL(page.url()).searchParams.get('gacha')).toBe(PACK.id);
      await notice.waitFor();
      const firstOffer = page.locator('input[name=pack][value="first-500"]');
      await expect.poll(() => firstOffer.isEnabled()).toBe(true);
      expect(await firstOffer.isChecked()).toBe(true);
      expect(await page.locator('[data-pack-id="first-500"]').getAttribute('data-featured')).toBe('true');
      expect(await page.getByTestId('first-offer-warning').count()).toBe(0);
      await expectNoSeriousAxeViolations(page, 'shop with the draw in context');

      // Another plan: the shop warns that the 初回限定 offer will be lost.
      await page.waitForLoadState('networkidle');
      await page.locator(`[data-pack-id="${PLAN.id}"]`).tap();
      await expect.poll(() => page.locator(`input[name=pack][value="${PLAN.id}"]`).isChecked()).toBe(true);
      await page
        .getByTestId('first-offer-warning')
        .getByText('初回限定プランは初回購入時のみ選べます。他のプランを購入すると対象外になります。')
        .waitFor();
      await expectNoSeriousAxeViolations(page, 'shop with the first-purchase warning');
      await page.locator('input[name=method][value="sandbox"]').check({ force: true });
      await page.getByRole('button', { name: '購入手続きへ' }).tap();

      // 3. The checkout keeps the draw and repeats the warning before the member commits.
      await page.waitForURL(
        (url) =>
          url.pathname === '/shop/checkout/sandbox' &&
          url.searchParams.get('pack') === PLAN.id &&
          url.searchParams.get('gacha') === PACK.id &&
          url.searchParams.get('count') === '10',
      );
      await waitForHydration(page);
      await page.getByTestId('first-offer-warning').waitFor();
      await page.getByTestId('checkout-draw-context').getByText(`「${PACK.title}」の10連`, { exact: false }).waitFor();
      await expectNoSeriousAxeViolations(page, 'checkout with the draw in context');
      await page.getByRole('button', { name: '購入を確定する' }).tap();

      // 4. The provider's page (the sandbox): approve.
      await page.waitForURL(/\/sandbox\/pay\/sbp_/);
      await page.getByRole('button', { name: 'お支払いを承認' }).tap();

      // 5. The return page completes and offers the draw the member came for.
      await page.waitForURL(/\/shop\/backfrompurchase\?order=/);
      await page.getByRole('heading', { name: /5,150コインを付与しました/ }).waitFor({ timeout: 30_000 });
      await waitForHydration(page);
      // The header's balance includes the purchase without a reload (the return page settles the order
      // in its middleware, before the root loader reads the balance; the page's polling revalidates it).
      await expect
        .poll(async () => digits(await page.getByTestId('header-coins-total').textContent()))
        .toBe(PLAN.coins);
      const again = page.getByRole('link', { name: `続けて10連を引く（${PACK.title}）` });
      await again.waitFor();
      await expectNoSeriousAxeViolations(page, 'return page with the continue button');
      await again.tap();

      // 6. Back on the pack with the 10連 sheet open; it draws.
      await page.waitForURL(
        (url) => url.pathname === `/gacha/${PACK.genre}/${PACK.id}` && url.searchParams.get('confirm') === '10',
      );
      await waitForHydration(page);
      const confirm = page.getByRole('dialog', { name: '10連を引きますか？' });
      await confirm.waitFor();
      expect(digits(await confirm.getByTestId('confirm-after').textContent())).toBe(PLAN.coins - PACK.price * 10);
      await confirm.getByTestId('confirm-draw').tap();
      await page.waitForURL(/\/gacha\/pokemon\/stellar-pokemon-001\/result\//, { timeout: 30_000 });

      // The 10 draws were paid: what is left is the purchase less 5,000 coins.
      await page.goto('/shop');
      await expect
        .poll(async () => digits(await page.getByTestId('shop-balance').textContent()))
        .toBe(PLAN.coins - PACK.price * 10);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
