// Pages the journey does not pass through, checked with axe-core at both sizes, without script errors.
import { describe, it, expect } from 'vitest';
import {
  useBrowser,
  openContext,
  expectNoSeriousAxeViolations,
  waitForHydration,
  addSessionCookies,
  type ViewportName,
} from './support/browser';
import { cookieFrom, uniqueEmail, signUpByForm } from '#tests/http';

const shop = useBrowser();

const PAGES = [
  { path: '/gacha/pokemon/stellar-pokemon-004', heading: 'ラストワン目前！残りわずかオリパ' },
  { path: '/gacha/yugioh', heading: '遊戯王のオリパ' },
  { path: '/gacha/yugioh/stellar-yugioh-002', heading: 'レリーフ大集合オリパ' }, // sold out
  { path: '/', heading: 'オリパ一覧' },
  { path: '/winter-campaign', heading: '冬のオリパ祭り' },
  { path: '/tokushoho', heading: '特定商取引法に基づく表記' },
  { path: '/terms', heading: '利用規約' },
  { path: '/privacy', heading: 'プライバシーポリシー' },
  { path: '/shikin', heading: '資金決済法に基づく表示' },
  { path: '/notices', heading: 'お知らせ' },
  { path: '/oripa-haishutsu', heading: 'オリパの排出について' },
  { path: '/account-policy', heading: 'アカウントの利用制限について' },
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

/** Members-only pages with real data (the demo member's draws fill the boards). */
const MEMBER_PAGES = [
  { path: '/myrank', heading: 'マイランク' },
  { path: '/mylevel', heading: 'マイレベル' },
  { path: '/mylevel/top', heading: 'レベル特典' },
  { path: '/ranking/daily/goodluck', heading: 'ランキング' },
  { path: '/ranking/weekly/exp', heading: 'ランキング' },
  { path: '/ranking/monthly/level', heading: 'ランキング' },
  { path: '/myinbox/bonus/logs', heading: 'メールボックス' },
  { path: '/mypage/draws', heading: '当選履歴' },
  { path: '/myinbox/idvs', heading: 'メールボックス' },
  { path: '/myinbox/alls', heading: 'メールボックス' },
  { path: '/mypage/invitation', heading: '友達招待' },
  { path: '/mypage/tokutencode', heading: '特典コード' },
  { path: '/mypage/settings/limits', heading: '利用上限・自己除外' },
];

describe.each<ViewportName>(['phone', 'desktop'])('member pages on a %s', (viewport) => {
  it.each(MEMBER_PAGES)(
    '$path renders for a member with no serious accessibility violation',
    async ({ path, heading }) => {
      const signUp = await signUpByForm({
        name: 'アクセシビリティ確認',
        email: uniqueEmail('a11y'),
        password: 'a11y-member-1',
        agreeToTerms: 'on',
      });
      const { context, page, problems } = await openContext(shop.browser, viewport, shop.baseURL);
      try {
        await addSessionCookies(context, cookieFrom(signUp.headers), shop.baseURL);
        await page.goto(path);
        await waitForHydration(page);
        expect(new URL(page.url()).pathname).toBe(path);
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        await expectNoSeriousAxeViolations(page, `${viewport} ${path}`);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
