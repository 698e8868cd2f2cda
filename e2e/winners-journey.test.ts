// The winners feed and the draw history at phone size (decision 036): the home page's feed takes a new
// top-tier win live (no reload; the box as tall as its rows, decision 059), the member's 当選履歴 lists the draw with its
// proof once the pack is over, and axe finds nothing serious on either page. Coins are granted on the
// shop's database, which needs PostgreSQL.
import { TEST_RULES, createPublishedPack } from '#tests/fixtures';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  useBrowser,
  openContext,
  expectNoSeriousAxeViolations,
  waitForHydration,
  signUpInBrowser,
} from './support/browser';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { genres, users } from '#db/schema';
import { grantCoins } from '#modules/wallet';
import { testShop } from '#tests/test-shop';

const shop = useBrowser();
const databaseUrl = testShop().databaseUrl;
/** The journey's own genre: shown while it runs, hidden after, so the shop's lists are as before. */
const GENRE = `winj-${Date.now().toString(36)}`;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (!databaseUrl) return;
  handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
  await handle.db.insert(genres).values({ id: GENRE, name: '当選ジャーニー', sortOrder: 999 });
});
afterAll(async () => {
  await handle?.db.update(genres).set({ visible: false }).where(eq(genres.id, GENRE));
  await handle?.close();
});

describe('the winners feed and the draw history on a phone', () => {
  it.skipIf(!databaseUrl)(
    `shows a new win live on the home page and its proof in 当選履歴${databaseUrl ? '' : ' (skipped: needs PostgreSQL to grant coins beside the running shop)'}`,
    async () => {
      const db = handle!.db;
      const pack = await createPublishedPack(db, {
        genreId: GENRE,
        lots: 4,
        price: 100,
        lastOne: true,
        drawOptions: [1, 4],
      });
      const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
      try {
        const email = `winners-${Date.now()}@example.jp`;
        await signUpInBrowser(page, { name: 'とうせん', email });
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

        await page.goto('/');
        await waitForHydration(page);
        const feed = page.getByRole('region', { name: 'みんなの当選履歴' });
        await feed.waitFor();
        await expectNoSeriousAxeViolations(page, 'phone / with the winners feed');

        // The feed is live once its stream has opened (a win before that is in the next page's list).
        await page.locator('[data-testid=winners-feed][data-live=on]').waitFor();
        // The member draws the whole pack (from the API, as the app would): the S賞 and the ラストワン賞.
        const session = (await context.cookies()).find((c) => c.name.endsWith('session_token'));
        const drawn = await fetch(`${shop.baseURL}/api/v1/gachas/${pack}/draws`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${session!.value}`,
            'content-type': 'application/json',
            'idempotency-key': randomUUID(),
          },
          body: JSON.stringify({ count: 4 }),
        });
        expect(drawn.status).toBe(201);
        await expect.poll(() => feed.textContent(), { timeout: 60_000 }).toContain(`テストパック ${pack}`);
        await expect.poll(() => feed.textContent()).toContain('匿名さん');
        // The feed's box is as tall as its rows, no more: no reserved empty room (issue 29 item 7 replaced
        // decision 036's five reserved rows, decision 059).
        const rows = await feed
          .getByTestId('winner-row')
          .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height));
        expect(rows.length).toBeGreaterThan(0);
        const list = (await feed.locator('ol').boundingBox())!;
        expect(Math.round((await feed.locator('ol').locator('..').boundingBox())!.height)).toBe(
          Math.round(list.height),
        );
        expect(Math.round(list.height)).toBe(Math.round(rows.reduce((a, h) => a + h, 0)));
        await expectNoSeriousAxeViolations(page, 'phone / with a live win');

        await page.goto('/mypage/draws');
        await waitForHydration(page);
        await page.getByRole('heading', { name: '当選履歴', level: 1 }).waitFor();
        const item = page.getByTestId('draw-item').first();
        await expect.poll(() => item.textContent()).toContain(`テストパック ${pack}`);
        await item.getByText('この抽選の証明を見る').click();
        await expect.poll(() => item.getByTestId('proof-positions').textContent()).toBe('1, 2, 3, 4');
        expect(await item.getByTestId('proof-seed').textContent()).toMatch(/^[0-9a-f]{64}$/);
        await expectNoSeriousAxeViolations(page, 'phone /mypage/draws with an open proof');
        // The filters work without script too (a GET form): only ラストワン賞 draws.
        await page.getByLabel('当たり').selectOption('lastone');
        await page.getByRole('button', { name: '絞り込む' }).click();
        await page.waitForURL(/hits=lastone/);
        await expect.poll(() => page.getByTestId('draw-item').count()).toBe(1);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
