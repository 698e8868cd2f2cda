// What regulars look for on the pack page, at phone size (issue 29 items 6, 7, 8 and 12; decision 059):
// a visitor reads the 還元率 and each tier's current odds beside the price and the 排出内訳's probabilities,
// opens the draw sheet and signs up from its 「会員登録して引く」, which brings them back to the same sheet;
// as a member, their draws move the odds live; identical wins are one feed row 「×2」 in a box of its rows'
// size; the ranking boards list the member once. axe finds nothing serious; screenshots at 390 px and desktop.
import { TEST_RULES, createPublishedPack } from '#tests/fixtures';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import {
  useBrowser,
  openContext,
  expectNoSeriousAxeViolations,
  waitForHydration,
  confirmSignUpInBrowser,
  screenshot,
} from './support/browser';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { genres, rankingScores, users } from '#db/schema';
import { grantCoins } from '#modules/wallet';
import { boardPeriod, foldRankings } from '#modules/ranking';
import { formatOdds } from '~/components/gacha/odds';
import { scaledTimeout } from '#tests/settings';
import { testShop } from '#tests/test-shop';

const shop = useBrowser();
const databaseUrl = testShop().databaseUrl;
/** The journey's own genre: shown while it runs, hidden after, so the shop's lists are as before. */
const GENRE = `oddsj-${Date.now().toString(36)}`;
/** 20 lots at 2,000 coins: S賞 ×1, A賞 ×2 (10,000 coins each: top tier, so in the feed), B賞 ×17. */
const LOTS = 20;
const PRICE = 2_000;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (!databaseUrl) return;
  handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
  await handle.db.insert(genres).values({ id: GENRE, name: '確率ジャーニー', sortOrder: 999 });
});
afterAll(async () => {
  await handle?.db.update(genres).set({ visible: false }).where(eq(genres.id, GENRE));
  await handle?.close();
});

/** Each tier's odds line beside the price: label, left, of, and the odds as shown. */
async function oddsLines(page: Page) {
  const lines = await page.getByTestId('tier-odds').allTextContents();
  return lines.map((text) => {
    const match = /^(\S+賞)残り([\d,]+)\/([\d,]+)・現在(.+)$/.exec(text.trim());
    if (!match) throw new Error(`unexpected odds line: ${text}`);
    const count = (digits: string) => Number(digits.replace(/,/g, ''));
    return { label: match[1]!, left: count(match[2]!), of: count(match[3]!), odds: match[4]! };
  });
}

/** The remaining lots the page shows. */
const packLeft = async (page: Page) =>
  Number((await page.getByTestId('pack-remaining').textContent())!.replace(/,/g, ''));

describe('odds, the feed, the visitor sheet and the ranking on a phone', () => {
  it.skipIf(!databaseUrl)(
    `shows live odds and 排出内訳, signs a visitor up from the sheet, collapses repeats and lists the member once${databaseUrl ? '' : ' (skipped: needs PostgreSQL to grant coins beside the running shop)'}`,
    async () => {
      const db = handle!.db;
      const pack = await createPublishedPack(db, { genreId: GENRE, lots: LOTS, price: PRICE, drawOptions: [1, 5] });
      const packPath = `/gacha/${GENRE}/${pack}`;
      const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
      try {
        // A visitor: the 還元率 and every tier's odds sit beside the price, above the line-up.
        await page.goto(packPath);
        await waitForHydration(page);
        const odds = page.getByTestId('pack-odds');
        expect(await odds.getByTestId('odds-return-rate').textContent()).toMatch(/^\d+\.\d%$/);
        expect(await oddsLines(page)).toEqual([
          { label: 'S賞', left: 1, of: 1, odds: '5.0%' },
          { label: 'A賞', left: 2, of: 2, odds: '10.0%' },
          { label: 'B賞', left: 17, of: 17, odds: '85.0%' },
        ]);
        const oddsBox = (await odds.boundingBox())!;
        const priceBox = (await page.getByTestId('pack-price').boundingBox())!;
        const lineupBox = (await page.getByTestId('tier-lineup').boundingBox())!;
        expect(oddsBox.y).toBeGreaterThan(priceBox.y);
        expect(oddsBox.y + oddsBox.height).toBeLessThan(lineupBox.y);
        // 排出内訳: each tier's remaining and probability now (and at the start).
        const disclosure = page.getByTestId('prize-disclosure');
        const sRow = disclosure.getByRole('row', { name: /S賞/ });
        expect(await sRow.getByTestId('disclosure-left').textContent()).toBe('1/1口');
        expect(await sRow.getByTestId('disclosure-odds').textContent()).toBe('5.0%（5.0%）');
        await expectNoSeriousAxeViolations(page, 'phone / pack page with odds (visitor)');
        await screenshot(page, `pack-odds-visitor-phone.png`, { fullPage: true });

        // The visitor's draw sheet: 会員登録して引く beside ログインして引く, both back to this sheet.
        await page.getByTestId('draw-option-1').last().click();
        const sheet = page.getByRole('dialog', { name: '1回を引きますか？' });
        await sheet.waitFor();
        const back = encodeURIComponent(`${packPath}?confirm=1`);
        const signUp = sheet.getByRole('link', { name: '会員登録して引く' });
        expect(await signUp.getAttribute('href')).toBe(`/auth/sign_up?redirect=${back}`);
        expect(await sheet.getByRole('link', { name: 'ログインして引く' }).getAttribute('href')).toBe(
          `/auth/sign_in?redirect=${back}`,
        );
        const [upBox, inBox] = [
          (await signUp.boundingBox())!,
          (await sheet.getByRole('link', { name: 'ログインして引く' }).boundingBox())!,
        ];
        expect(Math.abs(upBox.y - inBox.y)).toBeLessThan(2); // side by side
        await expectNoSeriousAxeViolations(page, 'phone / the visitor’s draw sheet');
        await screenshot(page, `pack-visitor-sheet-phone.png`);
        await signUp.click();
        await page.waitForURL((url) => url.pathname === '/auth/sign_up');
        await waitForHydration(page);
        const email = `odds-${Date.now()}@example.jp`;
        await page.getByLabel('ニックネーム').fill('かくりつ');
        await page.getByLabel('メールアドレス').fill(email);
        await page.getByLabel('パスワード', { exact: true }).fill('strong-pass-2026');
        await page.getByRole('checkbox', { name: /利用規約/ }).check();
        await page.getByRole('button', { name: '登録する' }).click();
        await confirmSignUpInBrowser(page, email);
        // Signed up and signed in: back on the pack with the same sheet open.
        await page.waitForURL((url) => url.pathname === packPath && url.searchParams.get('confirm') === '1');
        await page.getByRole('dialog', { name: '1回を引きますか？' }).waitFor();

        const [member] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
        await grantCoins(db, {
          lifetimeDays: TEST_RULES.coinLifetimes,
          memberId: member!.id,
          kind: 'paid',
          amount: LOTS * PRICE,
          reason: 'operator_grant',
          counterAccount: 'adjustment',
          idempotencyKey: `e2e:${email}`,
        });
        await page.goto(packPath);
        await waitForHydration(page);
        await expect.poll(() => page.getByText('残り口数をリアルタイム表示中').isVisible()).toBe(true);
        const before = await oddsLines(page);

        // Five lots drawn (from the API, as the app would): the odds beside the price follow live.
        const session = (await context.cookies()).find((c) => c.name.endsWith('session_token'));
        const draw = (count: number) =>
          fetch(`${shop.baseURL}/api/v1/gachas/${pack}/draws`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${session!.value}`,
              'content-type': 'application/json',
              'idempotency-key': randomUUID(),
            },
            body: JSON.stringify({ count }),
          });
        expect((await draw(5)).status).toBe(201);
        await expect.poll(() => packLeft(page), { timeout: scaledTimeout(60_000) }).toBe(LOTS - 5);
        const after = await oddsLines(page);
        expect(after.reduce((sum, line) => sum + line.left, 0)).toBe(LOTS - 5);
        for (const line of after) expect(line.odds).toBe(formatOdds(line.left, LOTS - 5));
        // 85.0 % for B賞 cannot stay: 12–15 of 15 lots is 80.0–100 %.
        expect(after.find((l) => l.label === 'B賞')!.odds).not.toBe(before.find((l) => l.label === 'B賞')!.odds);
        const bRow = page.getByTestId('prize-disclosure').getByRole('row', { name: /B賞/ });
        const b = after.find((l) => l.label === 'B賞')!;
        expect(await bRow.getByTestId('disclosure-left').textContent()).toBe(`${b.left}/17口`);
        expect(await bRow.getByTestId('disclosure-odds').textContent()).toBe(`${b.odds}（85.0%）`);
        await expectNoSeriousAxeViolations(page, 'phone / pack page after a draw');

        // The rest of the pack: both A賞 go to this (anonymous) member, one row 「×2」 in the pack's feed.
        for (let left = LOTS - 5; left > 0; left -= 5) expect((await draw(5)).status).toBe(201);
        const feed = page.getByRole('region', { name: 'みんなの当選履歴' });
        const aRow = feed.getByTestId('winner-row').filter({ hasText: 'A賞' });
        await expect.poll(() => aRow.count(), { timeout: scaledTimeout(60_000) }).toBe(1);
        await expect.poll(() => aRow.getByTestId('winner-count').textContent()).toBe('×2（2枚）');
        await expect.poll(() => feed.getByTestId('winner-row').count()).toBe(2); // A賞 ×2 and S賞
        // The box is as tall as its rows: no reserved empty room.
        const rows = await feed
          .getByTestId('winner-row')
          .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height));
        const list = (await feed.locator('ol').boundingBox())!;
        const box = (await feed.locator('ol').locator('..').boundingBox())!;
        expect(Math.round(box.height)).toBe(Math.round(list.height));
        expect(Math.round(list.height)).toBe(Math.round(rows.reduce((a, h) => a + h, 0)));
        await feed.scrollIntoViewIfNeeded();
        await expectNoSeriousAxeViolations(page, 'phone / pack feed with a collapsed row');
        await screenshot(page, `pack-sold-feed-phone.png`, { fullPage: true });

        // The ranking boards list the member once, in every period.
        for (;;) if ((await foldRankings(db, { settleSeconds: 0, batchRows: 100_000 })).caughtUp) break;
        for (const path of ['/ranking/daily/goodluck', '/ranking/weekly/exp', '/ranking/monthly/level']) {
          await page.goto(path);
          await waitForHydration(page);
          await page.getByTestId('board').waitFor();
          expect(await page.getByText('かくりつ（あなた）').count(), path).toBe(1);
          expect(await page.getByTestId('my-place').count(), path).toBe(1);
          expect(await page.getByTestId('my-place').textContent(), path).toMatch(
            /^あなたの順位\d+位かくりつ（あなた）/,
          );
          await expectNoSeriousAxeViolations(page, `phone ${path}`);
        }
        await page.goto('/ranking/daily/goodluck');
        await waitForHydration(page);
        await screenshot(page, `ranking-daily-phone.png`, { fullPage: true });

        // A long board (yesterday's, which no other test reads; the journey's own rows, removed after): the
        // member's listed line is the pinned one, in sight at the bottom while its place is further down.
        const yesterday = boardPeriod('goodluck', 'previous', new Date()).start;
        const others = Array.from({ length: 40 }, (_, i) => `oddsj-${GENRE}-${i}`);
        const row = (memberId: string, score: number) => ({
          board: 'goodluck' as const,
          periodStart: yesterday,
          memberId,
          score,
          reachedAt: new Date(),
        });
        await db
          .insert(rankingScores)
          .values([...others.map((id, i) => row(id, 10_000 - i * 100)), row(member!.id, 6_950)]);
        try {
          await page.goto('/ranking/daily/goodluck?period=previous');
          await waitForHydration(page);
          const pinned = page.getByTestId('my-place');
          expect(await pinned.count()).toBe(1);
          expect(await pinned.textContent()).toMatch(/^あなたの順位32位かくりつ（あなた）/);
          expect(await page.getByText('かくりつ（あなた）').count()).toBe(1);
          const box = (await pinned.boundingBox())!;
          expect(box.y + box.height).toBeLessThanOrEqual(844);
          expect(box.y).toBeGreaterThan(0);
          await expectNoSeriousAxeViolations(page, 'phone /ranking/daily/goodluck?period=previous (long)');
          await screenshot(page, `ranking-long-pinned-phone.png`);
          // Scrolled to its place, the line sits in the list between the 31st and the 33rd.
          const items = page.getByTestId('board').locator('li');
          await items.nth(35).scrollIntoViewIfNeeded();
          const [above, mine, below] = await Promise.all(
            [31, 32, 33].map((place) => items.nth(place - 1).boundingBox()),
          );
          expect(mine!.y).toBeGreaterThan(above!.y);
          expect(below!.y).toBeGreaterThan(mine!.y);
        } finally {
          await db
            .delete(rankingScores)
            .where(
              and(
                eq(rankingScores.board, 'goodluck'),
                eq(rankingScores.periodStart, yesterday),
                inArray(rankingScores.memberId, [...others, member!.id]),
              ),
            );
        }
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it.skipIf(!databaseUrl)('shows the odds beside the price on a desktop too', async () => {
    const pack = await createPublishedPack(handle!.db, { genreId: GENRE, lots: 2_000, price: 100 });
    const { context, page, problems } = await openContext(shop.browser, 'desktop', shop.baseURL);
    try {
      await page.goto(`/gacha/${GENRE}/${pack}`);
      await waitForHydration(page);
      // 1 of 2,000 lots is 0.05 %: never 0 % while it is there.
      expect(await oddsLines(page)).toEqual([
        { label: 'S賞', left: 1, of: 1, odds: '0.1%未満' },
        { label: 'A賞', left: 2, of: 2, odds: '0.1%' },
        { label: 'B賞', left: 1_997, of: 1_997, odds: '99.8%' },
      ]);
      await expectNoSeriousAxeViolations(page, 'desktop / pack page with odds');
      await screenshot(page, `pack-odds-desktop.png`, { fullPage: true });
      await page.getByTestId('draw-option-1').first().click();
      await page.getByRole('dialog').waitFor();
      await screenshot(page, `pack-visitor-sheet-desktop.png`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
