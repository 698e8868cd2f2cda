// 天井賞 on a phone, as a member meets it (issue 34 item 1, decision 089): the pack page states the guarantee beside
// the price with the member's own meter in lots and yen; a 10連 that reaches it names the award above the cards and
// shows the meter after the draw; back on the pack page the meter counts on from the member's streak. Accessible on
// every screen. Screenshots (TEST_SCREENSHOTS) for a look. Coins and the pack are set up on the shop's database,
// which needs PostgreSQL.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { TEST_RULES, createPublishedPack } from '#tests/fixtures';
import {
  useBrowser,
  openContext,
  expectNoSeriousAxeViolations,
  waitForHydration,
  signUpInBrowser,
  screenshot,
} from './support/browser';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { gachaMemberDraws, prizes, users } from '#db/schema';
import { grantCoins, checkInvariants } from '#modules/wallet';
import { testShop } from '#tests/test-shop';

const shop = useBrowser();
const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  if (handle) expect(await checkInvariants(handle.db)).toEqual([]);
  await handle?.close();
});

describe('天井賞 on a phone', () => {
  it.skipIf(!databaseUrl)(
    `shows the guarantee and the member's meter, and names the award after a 10連${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the running shop)'}`,
    async () => {
      const db = handle!.db;
      // One S賞 among 20 lots and a 天井 of 3: any 10 lots hold at least two runs of 3 without it.
      const gachaId = await createPublishedPack(db, {
        lots: 20,
        price: 10,
        drawOptions: [1, 10],
        ceiling: { after: 3, of: ['S'] },
      });
      const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
      try {
        const email = `ceiling-${Date.now()}@example.jp`;
        await signUpInBrowser(page, { name: 'てんじょう', email });
        const [member] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
        await grantCoins(db, {
          lifetimeDays: TEST_RULES.coinLifetimes,
          memberId: member!.id,
          kind: 'paid',
          amount: 1_000,
          reason: 'operator_grant',
          counterAccount: 'adjustment',
          idempotencyKey: `e2e:${email}`,
        });

        await page.goto(`/gacha/pokemon/${gachaId}`);
        await waitForHydration(page);
        const guarantee = page.getByText('天井賞（特典）S賞以上が出ないまま3口引いた方', { exact: false });
        await guarantee.scrollIntoViewIfNeeded();
        await expect.poll(() => guarantee.isVisible()).toBe(true);
        expect(await page.getByText('専用の在庫6枚から。ほかの賞の口は減りません', { exact: false }).count()).toBe(1);
        const meter = page.getByText('あと3口（30円分）でS賞以上確定（天井）');
        expect(await meter.isVisible()).toBe(true);
        await screenshot(page, 'phone-ceiling-pack.png');
        await expectNoSeriousAxeViolations(page, 'phone 天井 pack page');

        await page.locator('button[name=confirm][value="10"]:visible').first().click();
        await page.getByTestId('confirm-draw').click();
        await page.waitForURL(/\/result\//);
        const reveal = page.getByRole('dialog', { name: '抽選演出' });
        await reveal.waitFor();
        // スキップ lands on the result itself (as in the purchase journey).
        await reveal.getByRole('button', { name: /スキップ/ }).click();
        await reveal.waitFor({ state: 'detached' });

        const won = await db
          .select({ no: prizes.ceilingNo })
          .from(prizes)
          .where(and(eq(prizes.gachaId, gachaId), eq(prizes.memberId, member!.id), eq(prizes.tierId, `${gachaId}.CE`)));
        expect(won.length).toBeGreaterThanOrEqual(2);
        await page.getByText(`天井賞（S賞以上確定）を${won.length}枚獲得しました！`).waitFor();
        const [row] = await db
          .select({ streak: gachaMemberDraws.ceilingStreak })
          .from(gachaMemberDraws)
          .where(and(eq(gachaMemberDraws.gachaId, gachaId), eq(gachaMemberDraws.memberId, member!.id)));
        const left = 3 - row!.streak;
        expect(await page.getByText(`あと${left}口（${left * 10}円分）でS賞以上確定（天井）`).isVisible()).toBe(true);
        // The won 天井賞 are cards like any other, above the rest: one per award.
        await expect
          .poll(() => page.locator('[data-prize-id]').filter({ hasText: 'テスト天井' }).count())
          .toBe(won.length);
        await screenshot(page, 'phone-ceiling-result.png', { fullPage: true });
        await expectNoSeriousAxeViolations(page, 'phone 天井 result');

        // Back on the pack page the meter counts on from the member's streak.
        await page.goto(`/gacha/pokemon/${gachaId}`);
        await waitForHydration(page);
        expect(await page.getByText(`あと${left}口（${left * 10}円分）でS賞以上確定（天井）`).count()).toBe(1);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
