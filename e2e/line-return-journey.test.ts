// /mypage/backfromline and /mypage/backfromlinecampaign on a sandbox shop (issue 29 item 17): a member on
// a phone links LINE through the LINE Login stand-in and comes back to 「LINEアカウントを連携しました」.
import { describe, it } from 'vitest';
import { signUpMember } from '#tests/http';
import {
  useBrowser,
  openContext,
  waitForHydration,
  addSessionCookies,
  expectNoSeriousAxeViolations,
  screenshot,
} from './support/browser';

const shop = useBrowser();

describe.each(['/mypage/backfromline', '/mypage/backfromlinecampaign'])('%s on a phone', (path) => {
  it('links LINE through the stand-in', async () => {
    const member = await signUpMember(`line-journey-${path.length}`);
    const { context, page } = await openContext(shop.browser, 'phone', shop.baseURL);
    try {
      await addSessionCookies(context, member.cookie, shop.baseURL);
      await page.goto(path);
      await waitForHydration(page);
      await page.getByRole('button', { name: 'LINEと連携する' }).waitFor();
      await expectNoSeriousAxeViolations(page, `${path} (phone)`);
      await screenshot(page, `line-return-${path.length}.png`);
      await page.getByRole('button', { name: 'LINEと連携する' }).click();
      await page.getByRole('button', { name: '新しいLINEユーザーとして許可する' }).click();
      await page.getByText('LINEアカウントを連携しました').waitFor();
      await expectNoSeriousAxeViolations(page, `${path} linked (phone)`);
    } finally {
      await context.close();
    }
  });
});
