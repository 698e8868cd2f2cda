// Pages the journey does not pass through, checked with axe-core at both sizes, without script errors.
import { describe, it, expect } from 'vitest';
import { useBrowser, openContext, expectNoSeriousAxeViolations, waitForHydration, type ViewportName } from './support/browser';

const shop = useBrowser();

const PAGES = [
  { path: '/gacha/pokemon/stellar-pokemon-004', heading: 'ラストワン目前！残りわずかオリパ' },
  { path: '/gacha/yugioh', heading: '遊戯王のオリパ' },
  { path: '/winter-campaign', heading: '冬のオリパ祭り' },
  { path: '/tokushoho', heading: '特定商取引法に基づく表記' },
  { path: '/terms', heading: '利用規約' },
  { path: '/mypage', heading: 'マイページ' },
  { path: '/app/checkout/paypay', heading: 'アプリから開き直してください' },
  { path: '/app/return', heading: 'アプリでご利用ください' },
];

describe.each<ViewportName>(['phone', 'desktop'])('pages on a %s', (viewport) => {
  it.each(PAGES)('$path renders its heading with no serious accessibility violation', async ({ path, heading }) => {
    const { context, page, problems } = await openContext(shop.browser, viewport, shop.baseURL);
    try {
      await page.goto(path);
      await waitForHydration(page);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await expectNoSeriousAxeViolations(page, `${viewport} ${path}`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
