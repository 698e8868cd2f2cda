// A visitor checks the demo PSA10 pack's graded hits (issue 33 item 8) on a phone and on a desktop: the
// line-up and the proof section show each certificate, the SHA-256 is shortened with the whole value one
// tap away and copied by its button, and the original photo the link opens hashes to exactly that value
// (fetched as a visitor would save it). axe on the page; a screenshot of the section at each size.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  expectNoSeriousAxeViolations,
  openContext,
  screenshot,
  useBrowser,
  waitForHydration,
  type ViewportName,
} from './support/browser';

const shop = useBrowser();
/** The demo's PSA10 pack (db/demo/proofs.ts): its S賞 and ラストワン賞 carry a certificate and a photo. */
const PACK = { path: '/gacha/pokemon/stellar-pokemon-002', title: 'PSA10鑑定品！極上の一枚オリパ' };

describe.each<ViewportName>(['phone', 'desktop'])('certified hits on a %s', (viewport) => {
  it('shows each certificate, and the original photo hashes to the SHA-256 the page shows', async () => {
    const { context, page, problems } = await openContext(shop.browser, viewport, shop.baseURL);
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: shop.baseURL });
      await page.goto(PACK.path);
      await waitForHydration(page);
      await page.getByRole('heading', { name: PACK.title, level: 1 }).waitFor();
      await page.getByTestId('tier-lineup').getByText('DEMO-10000001').waitFor();

      const section = page.getByRole('region', { name: '鑑定品の実在証明' });
      await section.scrollIntoViewIfNeeded();
      expect(await section.getByText(/^PSA 鑑定番号/).allTextContents()).toEqual([
        'PSA 鑑定番号 DEMO-10000002',
        'PSA 鑑定番号 DEMO-10000001',
      ]);
      const s = section.getByRole('listitem').filter({ hasText: /^S賞/ });
      // Shortened for the eye; a tap on it shows all 64 digits.
      await s.locator('summary').click();
      const sha256 = (await s.locator('details code').textContent())!;
      expect(sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(await s.locator('summary [aria-hidden="true"]').textContent()).toBe(
        `${sha256.slice(0, 8)}…${sha256.slice(-8)}`,
      );

      // The photo as a visitor saves it: its bytes' SHA-256 is the page's.
      const href = (await s.getByRole('link', { name: /写真の原本を開く/ }).getAttribute('href'))!;
      const original = await page.request.get(href);
      expect(original.status()).toBe(200);
      expect(original.headers()['content-type']).toBe('image/jpeg');
      expect(
        createHash('sha256')
          .update(await original.body())
          .digest('hex'),
      ).toBe(sha256);

      // The copy button puts the whole value on the clipboard and says so.
      await s.getByRole('button', { name: 'S賞の写真のSHA-256をコピー' }).click();
      await s.getByRole('status').filter({ hasText: 'コピーしました' }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sha256);

      await expectNoSeriousAxeViolations(page, `${viewport} certified hits`);
      await screenshot(section, `${viewport}-certified-prizes.png`);
      await screenshot(page, `${viewport}-certified-pack.png`, { fullPage: true });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
