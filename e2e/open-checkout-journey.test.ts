// An abandoned 初回限定 checkout (issue 29 item 19, decision 058), on a phone (390 px). A new member opens
// the sandbox's page for the first-purchase pack and leaves it. Back on the checkout page, the open
// payment is named with two ways on: 「お支払いを再開する」 goes back to the same provider page, and
// 「キャンセルして選び直す」 asks first, cancels, and lets the pack be bought again at once. The second
// checkout is left open too and resumed from the purchase history, paid, and credited. Another member
// can neither see, resume nor cancel the first member's order. axe on every screen, screenshots to look at.
import { describe, it, expect } from 'vitest';
import type { Page } from 'playwright-core';
import {
  useBrowser,
  openContext,
  openSignedInPhone,
  expectNoSeriousAxeViolations,
  waitForHydration,
  signUpInBrowser,
  screenshot,
} from './support/browser';

const shop = useBrowser();
const CHECKOUT = '/shop/checkout/sandbox?pack=first-500';

/** 購入を確定する on the checkout page: the sandbox's hosted page opens; its address. */
async function openSandboxPage(page: Page): Promise<string> {
  await page.getByRole('button', { name: '購入を確定する' }).click();
  await page.waitForURL(/\/sandbox\/pay\/sbp_/);
  return new URL(page.url()).pathname;
}

describe('an abandoned 初回限定 checkout', () => {
  it('is resumed or cancelled from the checkout page and resumed from the purchase history', async () => {
    const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
    const other = await openSignedInPhone(shop, 'ほかのひと', 'open-checkout-other');
    try {
      await signUpInBrowser(page, { name: 'はじめて', email: `open-checkout-${Date.now()}@example.jp` });
      await page.goto('/shop');
      await waitForHydration(page);
      await page.getByLabel('18歳以上です').check();
      await page.getByRole('button', { name: '回答する' }).click();
      await page.getByTestId('shop-message').filter({ hasText: '年齢の確認を受け付けました' }).waitFor();

      // ── The first checkout: the provider's page opens, and the member leaves it.
      await page.goto(CHECKOUT);
      await waitForHydration(page);
      const firstPage = await openSandboxPage(page);
      await page.goto(CHECKOUT);
      await waitForHydration(page);
      const open = page.getByTestId('open-checkout');
      await open.getByText('お支払いが途中の手続きがあります').waitFor();
      await open.getByText(/初回限定 500コイン/).waitFor();
      expect(await page.getByRole('button', { name: '購入を確定する' }).count()).toBe(0);
      await expectNoSeriousAxeViolations(page, 'checkout with an open payment');
      await screenshot(page, `phone-checkout-open-payment.png`, { fullPage: true });

      // ── Resumed: the same provider page again.
      await open.getByRole('link', { name: 'お支払いを再開する' }).click();
      await page.waitForURL(/\/sandbox\/pay\/sbp_/);
      expect(new URL(page.url()).pathname).toBe(firstPage);

      // ── Another member cannot reach it.
      const firstOrder = await page.evaluate(async () => {
        const response = await fetch('/mypage?tab=purchases');
        const html = await response.text();
        return /\/shop\/orders\/([0-9a-f-]{36})\/resume/.exec(html)?.[1] ?? null;
      });
      expect(firstOrder).not.toBeNull();
      const asOther = other.page.request;
      expect((await asOther.get(`/shop/orders/${firstOrder}/cancel`, { maxRedirects: 0 })).status()).toBe(404);
      expect((await asOther.get(`/shop/orders/${firstOrder}/resume`, { maxRedirects: 0 })).status()).toBe(404);
      const forged = await asOther.post(`/shop/orders/${firstOrder}/cancel`, {
        form: { intent: 'cancel', back: '/shop' },
        headers: { origin: shop.baseURL },
        maxRedirects: 0,
      });
      expect(forged.status()).toBe(404);

      // ── Cancelled from the checkout page, after a question.
      await page.goto(CHECKOUT);
      await waitForHydration(page);
      await page.getByRole('link', { name: 'キャンセルして選び直す' }).click();
      await page.getByRole('heading', { name: 'お支払い手続きのキャンセル', level: 1 }).waitFor();
      await page.getByTestId('open-order-status').getByText('決済待ち').waitFor();
      await waitForHydration(page);
      await expectNoSeriousAxeViolations(page, 'cancel question');
      await screenshot(page, `phone-checkout-cancel.png`, { fullPage: true });
      await page.getByRole('button', { name: 'この手続きをキャンセルする' }).click();
      await page.waitForURL((url) => url.pathname === '/shop/checkout/sandbox');
      await page.getByText('途中のお支払い手続きをキャンセルしました').waitFor();
      await waitForHydration(page);
      expect(await page.getByTestId('open-checkout').count()).toBe(0);
      await expectNoSeriousAxeViolations(page, 'checkout after cancel');
      // The provider's page of the cancelled order takes no payment any more.
      await page.goto(firstPage);
      await page.getByText(/すでに処理されました/).waitFor();

      // ── The pack can be bought again at once; this checkout is left open too.
      await page.goto(CHECKOUT);
      await waitForHydration(page);
      const secondPage = await openSandboxPage(page);
      expect(secondPage).not.toBe(firstPage);

      // ── The purchase history: the open one can be resumed or cancelled; the cancelled one is gone.
      await page.goto('/mypage?tab=purchases');
      await waitForHydration(page);
      const rows = page.getByTestId('purchase-row');
      const openRow = rows.filter({ has: page.getByTestId('open-checkout-row') });
      expect(await openRow.count()).toBe(1);
      await openRow.getByText('決済待ち').waitFor();
      // A cancelled checkout leaves the history (as canceled and expired ones always have).
      expect(await rows.count()).toBe(1);
      const cancelLink = openRow.getByRole('link', { name: /キャンセル/ });
      expect(await cancelLink.getAttribute('href')).toMatch(/\/cancel\?back=%2Fmypage%3Ftab%3Dpurchases$/);
      await expectNoSeriousAxeViolations(page, 'history with an open payment');
      await screenshot(page, `phone-history-open-payment.png`, { fullPage: true });
      // The same on a desktop: the checkout page's notice and the history row.
      await page.setViewportSize({ width: 1280, height: 800 });
      await screenshot(page, `desktop-history-open-payment.png`, { fullPage: true });
      await page.goto(CHECKOUT);
      await page.getByTestId('open-checkout').waitFor();
      await expectNoSeriousAxeViolations(page, 'desktop checkout with an open payment');
      await screenshot(page, `desktop-checkout-open-payment.png`);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/mypage?tab=purchases');
      await waitForHydration(page);
      await openRow.getByRole('link', { name: /お支払いを再開/ }).click();
      await page.waitForURL(/\/sandbox\/pay\/sbp_/);
      expect(new URL(page.url()).pathname).toBe(secondPage);

      // ── Paid where the member left off, and credited.
      await page.getByRole('button', { name: 'お支払いを承認' }).click();
      await page.waitForURL(/\/shop\/backfrompurchase\?order=/);
      await page.getByRole('heading', { name: /コインを付与しました/ }).waitFor({ timeout: 30_000 });
      await page.goto('/mypage?tab=purchases');
      await waitForHydration(page);
      expect(await page.getByTestId('open-checkout-row').count()).toBe(0);
      await page.getByTestId('purchase-row').getByText('購入完了').waitFor();

      expect(problems).toEqual([]);
      expect(other.problems).toEqual([]);
    } finally {
      await context.close();
      await other.context.close();
    }
  });
});
