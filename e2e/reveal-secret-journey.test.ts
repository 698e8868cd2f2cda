// The reveal keeps its secret (issue 29 items 1 and 2, decision 056): while a 10連, a 1回 and a 100連 play on
// a phone, a recorder in the page looks at every change of the document (a MutationObserver and every
// animation frame) and the test reads the accessibility tree again and again. No tier name, count or
// headline exists anywhere outside a card that has turned; the result page is not rendered until the
// reveal ends; the cards turn in draw order with the best one last; スキップ lands on the full result.
// axe at 390 px on the reveal and the result; screenshots (TEST_SCREENSHOTS) for a look.
// Coins are granted through the wallet module on the shop's database, which needs PostgreSQL.
import { TEST_RULES } from '#tests/fixtures';
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
  withClockStepping,
} from './support/browser';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { gachaTiers, users } from '#db/schema';
import { grantCoins, checkInvariants } from '#modules/wallet';
import { listPrizes } from '#modules/draw';
import { testShop } from '#tests/test-shop';

const shop = useBrowser();
const databaseUrl = testShop().databaseUrl;
const PACK = { genre: 'pokemon', id: 'stellar-pokemon-003' };
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  await handle?.close();
});

interface Record {
  samples: number;
  violations: string[];
  seenOverlay: boolean;
  overlayGone: boolean;
  /** Grid indexes in the order the cards were first seen turned: tier, page time then. */
  turned: { index: number; tier: string; best: boolean; at: number }[];
  cards: number;
  /** Page time when the landing frame (a single card's, or the grid) first existed. */
  landingAt: number | null;
}

/**
 * Installs the recorder in the pack page (the draw then navigates inside the same document). From the
 * moment the address is a result until the reveal's overlay has gone, it checks, at every change and
 * every frame, that: the result page (summary, cards) is not rendered; outside the cards that have
 * turned no text, alt, aria-label or title names a tier; the overlay shows no headline or count before
 * it has landed; the cards turn in grid order and the last one, the best, turns only after every other.
 */
async function installRecorder(page: Page, tierLabels: string[]) {
  await page.evaluate((labels) => {
    const record: Record = {
      samples: 0,
      violations: [],
      seenOverlay: false,
      overlayGone: false,
      turned: [],
      cards: 0,
      landingAt: null,
    };
    (window as unknown as { revealRecord: Record }).revealRecord = record;
    const headline = ['獲得', '当たり', 'の結果', '×'];
    const flag = (what: string) => {
      if (record.violations.length < 20) record.violations.push(what);
    };
    const names = (text: string) => labels.filter((label) => text.includes(label));
    const check = () => {
      if (!location.pathname.includes('/result/') || record.overlayGone) return;
      const overlay = document.querySelector<HTMLElement>('[data-reveal-phase]');
      if (overlay) record.seenOverlay = true;
      else if (record.seenOverlay) {
        record.overlayGone = true;
        return;
      }
      record.samples++;
      if (document.querySelector('[data-testid="result-summary"], [data-prize-id], [data-testid="tier-counts"]'))
        flag(`the result page is rendered during the reveal (phase ${overlay?.dataset.revealPhase ?? 'none'})`);
      const phase = overlay?.dataset.revealPhase;
      // Without the overlay and the result page, the document is still the pack page (its lineup names
      // every tier) for the moment between the new address and the new page.
      if (!overlay || phase === 'landed') return;
      if (record.landingAt === null && overlay.querySelector('[data-reveal-landing]'))
        record.landingAt = performance.now();
      // Everything outside the cards that have turned, in the whole document (hidden or not).
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const element = node instanceof Element ? node : node.parentElement;
        // A turned card of the grid, or a single card's landing (that card turning), may name its tier.
        if (!element || element.closest('script, style, li[data-turned], [data-reveal-single]')) continue;
        const texts =
          node instanceof Element
            ? ['alt', 'aria-label', 'title', 'data-tier'].map((name) => node.getAttribute(name) ?? '')
            : [node.textContent ?? ''];
        for (const text of texts) {
          const found = names(text);
          if (found.length > 0)
            flag(`「${text.slice(0, 40)}」 names ${found.join('・')} before its card turned (${phase})`);
          if (overlay?.contains(element) && headline.some((word) => text.includes(word)))
            flag(`「${text.slice(0, 40)}」 is a headline before the reveal landed (${phase})`);
        }
      }
      // The turning order: grid order, the best (last) card only after every other one.
      const tiles = Array.from(document.querySelectorAll<HTMLElement>('[data-reveal-grid] li'));
      record.cards = tiles.length;
      tiles.forEach((tile, index) => {
        if (!tile.hasAttribute('data-turned') || record.turned.some((t) => t.index === index)) return;
        record.turned.push({
          index,
          tier: tile.dataset.tier ?? '',
          best: tile.hasAttribute('data-best'),
          at: performance.now(),
        });
      });
      const down = tiles.filter((tile) => !tile.hasAttribute('data-turned')).length;
      const last = tiles[tiles.length - 1];
      if (last?.hasAttribute('data-turned') && down > 0) flag(`the last card turned while ${down} were face down`);
    };
    new MutationObserver(check).observe(document.documentElement, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
    const frame = () => {
      check();
      if (!record.overlayGone) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, tierLabels);
}

const readRecord = (page: Page) => page.evaluate(() => (window as unknown as { revealRecord: Record }).revealRecord);

/**
 * Reads the accessibility tree again and again until `until` holds: while the overlay has not landed,
 * each tier is named in it no more often than the cards of that tier that have turned (read after the
 * tree, so a card that turns in between only loosens the bound) and no headline or count is in it.
 */
async function watchAccessibilityTree(page: Page, tierLabels: string[], until: () => Promise<boolean>) {
  let reads = 0;
  while (!(await until())) {
    const tree = await page.locator('body').ariaSnapshot();
    const state = await page.evaluate(() => ({
      phase: document.querySelector<HTMLElement>('[data-reveal-phase]')?.dataset.revealPhase ?? 'gone',
      turned: Array.from(document.querySelectorAll<HTMLElement>('li[data-turned]')).map((li) => li.dataset.tier),
    }));
    if (state.phase === 'landed' || state.phase === 'gone') break;
    reads++;
    for (const label of tierLabels) {
      const named = tree.split(label).length - 1;
      const turned = state.turned.filter((tier) => tier === label).length;
      expect(named, `${label} in the accessibility tree (${state.phase}):\n${tree}`).toBeLessThanOrEqual(turned);
    }
    for (const word of ['獲得', '当たり', 'の結果'])
      expect(tree, `「${word}」 in the accessibility tree before the reveal landed`).not.toContain(word);
  }
  return reads;
}

async function drawFromPack(page: Page, count: 1 | 10 | 100, tierLabels: string[]) {
  // Every fetch of the page is kept for the art check (the default buffer holds 250).
  await page.addInitScript(() => performance.setResourceTimingBufferSize(10_000));
  await page.goto(`/gacha/${PACK.genre}/${PACK.id}`);
  await waitForHydration(page);
  await installRecorder(page, tierLabels);
  await page.locator(`button[name=confirm][value="${count}"]:visible`).first().click();
  await page.getByTestId('confirm-draw').click();
  await page.waitForURL(/\/result\//);
  return page.url().split('/result/')[1]!.split('?')[0]!;
}

/** The tiers of the draw in the order the reveal turns them: lot position, the best one last. */
async function expectedTurningTiers(memberId: string, drawId: string) {
  const won = (await listPrizes(handle!.db, memberId, { status: ['pending'], limit: 100 })).items.filter(
    (p) => p.drawId === drawId,
  );
  const rank = (p: (typeof won)[number]) => (p.isLastOne ? -Infinity : p.tierRank);
  const bestRank = Math.min(...won.map(rank));
  const byPosition = [...won].sort((a, b) => (a.position ?? Infinity) - (b.position ?? Infinity));
  const best = byPosition.find((p) => rank(p) === bestRank)!;
  return { won, tiers: [...byPosition.filter((p) => p !== best), best].map((p) => p.tierLabel), best };
}

describe('the reveal keeps its secret on a phone', () => {
  it.skipIf(!databaseUrl)(
    `10連 and 100連: nothing of the result before its card turns, the best last, スキップ to the full result${databaseUrl ? '' : ' (skipped: needs PostgreSQL to grant coins beside the running shop)'}`,
    async () => {
      const db = handle!.db;
      const tierLabels = (
        await db.selectDistinct({ label: gachaTiers.label }).from(gachaTiers).where(eq(gachaTiers.gachaId, PACK.id))
      ).map((t) => t.label);
      expect(tierLabels.length).toBeGreaterThan(1);
      const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
      try {
        const email = `reveal-${Date.now()}@example.jp`;
        await signUpInBrowser(page, { name: 'ひみつ', email });
        const [member] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
        await grantCoins(db, {
          lifetimeDays: TEST_RULES.coinLifetimes,
          memberId: member!.id,
          kind: 'paid',
          amount: 20_000,
          reason: 'operator_grant',
          counterAccount: 'adjustment',
          idempotencyKey: `e2e:${email}`,
        });

        // 10連, watched to the end: face down, turning in draw order, the best card last, then the headline.
        const drawId10 = await drawFromPack(page, 10, tierLabels);
        const reveal = page.getByRole('dialog', { name: '抽選演出' });
        await reveal.waitFor();
        let midShot = false;
        const reads10 = await watchAccessibilityTree(page, tierLabels, async () => {
          const turned = await page.locator('li[data-turned]').count();
          if (!midShot && turned >= 3 && turned < 10) {
            midShot = true;
            await screenshot(page, `phone-reveal-10-mid.png`);
          }
          return (await page.locator('[data-reveal-phase="landed"]').count()) > 0;
        });
        expect(reads10).toBeGreaterThan(0);
        await page.locator('[data-reveal-phase="landed"]').waitFor({ timeout: 20_000 });
        await screenshot(page, `phone-reveal-10-landed.png`);
        const record10 = await readRecord(page);
        expect(record10.violations).toEqual([]);
        expect(record10.samples).toBeGreaterThan(10);
        expect(record10.cards).toBe(10);
        // Every card turned by itself, one after another in grid order; the last one is the best.
        expect(record10.turned.map((t) => t.index)).toEqual([...Array(10).keys()]);
        const expected10 = await expectedTurningTiers(member!.id, drawId10);
        expect(record10.turned.map((t) => t.tier)).toEqual(expected10.tiers);
        expect(record10.turned.at(-1)).toMatchObject({ best: true, tier: expected10.best.tierLabel });
        expect(await reveal.getByText(`${expected10.best.tierLabel}`, { exact: true }).first().isVisible()).toBe(true);
        // Each card's art had arrived before the card turned (the page's resource timings, same clock).
        const artBefore = await page.evaluate((turned) => {
          const tiles = Array.from(document.querySelectorAll('[data-reveal-grid] li'));
          const loads = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
          return turned.map((card) => {
            const shown = tiles[card.index]?.querySelector('img')?.currentSrc ?? '';
            const load = loads.find((entry) => entry.name === shown);
            return { shown, loaded: load ? load.responseEnd <= card.at : 'never fetched' };
          });
        }, record10.turned);
        expect(artBefore, JSON.stringify(artBefore)).toEqual(
          artBefore.map(() => ({ shown: expect.stringContaining('/_img?') as string, loaded: true })),
        );
        await expectNoSeriousAxeViolations(page, 'phone 10連 reveal, landed');
        await reveal.getByRole('button', { name: '結果を見る' }).click();
        await reveal.waitFor({ state: 'detached' });
        await page.getByTestId('result-summary').waitFor();
        await expect.poll(() => page.locator('[data-prize-id]').count()).toBe(10);
        await page.mouse.move(0, 0);
        await expectNoSeriousAxeViolations(page, 'phone 10連 result after the reveal');

        // 1回: the pack bursts only once the card's art has arrived; the tier shows with the card, never
        // above a blank one (it did for more than a second).
        await drawFromPack(page, 1, tierLabels);
        await reveal.waitFor();
        await page.locator('[data-reveal-phase="landed"]').waitFor({ timeout: 20_000 });
        const record1 = await readRecord(page);
        expect(record1.violations).toEqual([]);
        expect(record1.landingAt).not.toBeNull();
        const art1 = await page.evaluate((at) => {
          const shown = document.querySelector<HTMLImageElement>('[data-reveal-single] img')?.currentSrc ?? '';
          const loads = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
          const load = loads.find((entry) => entry.name === shown);
          return { shown, loaded: load ? load.responseEnd <= at : 'never fetched' };
        }, record1.landingAt!);
        expect(art1).toEqual({ shown: expect.stringContaining('/_img?') as string, loaded: true });
        await screenshot(page, `phone-reveal-1-landed.png`);
        await expectNoSeriousAxeViolations(page, 'phone 1回 reveal, landed');
        await reveal.getByRole('button', { name: '結果を見る' }).click();
        await reveal.waitFor({ state: 'detached' });
        await page.getByTestId('result-summary').waitFor();

        // 100連, skipped halfway: the same secret, the best still face down, スキップ lands on the full result.
        // The page's clock stands still from the confirmation on and the test steps it 40 ms at a time,
        // reading the accessibility tree between steps: the wave of 100 cards cannot outrun the reads
        // on a loaded machine, and スキップ comes while cards are still face down.
        await page.goto(`/gacha/${PACK.genre}/${PACK.id}`);
        await waitForHydration(page);
        await page.clock.install();
        const drawId100 = await (async () => {
          await installRecorder(page, tierLabels);
          await page.locator('button[name=confirm][value="100"]:visible').first().click();
          await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
          await page.getByTestId('confirm-draw').click();
          await page.waitForURL(/\/result\//);
          return page.url().split('/result/')[1]!.split('?')[0]!;
        })();
        await reveal.waitFor();
        let shot100 = false;
        let stepped = 0;
        const reads100 = await watchAccessibilityTree(page, tierLabels, async () => {
          const turned = await page.locator('li[data-turned]').count();
          if (!shot100 && turned >= 20) {
            shot100 = true;
            await screenshot(page, `phone-reveal-100-mid.png`);
            await withClockStepping(
              page,
              expectNoSeriousAxeViolations(page, 'phone 100連 reveal, turning', { settle: false }),
            );
          }
          if (turned >= 40) return true;
          expect(stepped, 'the 100連 grid did not turn 40 cards within 20 s of its clock').toBeLessThan(20_000);
          await page.clock.runFor(40);
          stepped += 40;
          return false;
        });
        expect(reads100).toBeGreaterThan(0);
        const beforeSkip = await readRecord(page);
        const best100 = (await expectedTurningTiers(member!.id, drawId100)).best;
        // Tapped with the clock still standing (a real click waits for frames the paused clock holds).
        await reveal.getByRole('button', { name: /スキップ/ }).dispatchEvent('click');
        await reveal.waitFor({ state: 'detached' });
        await page.clock.resume();
        await page.getByTestId('result-summary').waitFor();
        const record100 = await readRecord(page);
        expect(record100.violations).toEqual([]);
        expect(record100.overlayGone).toBe(true);
        expect(record100.cards).toBe(100);
        // Skipped before the end: the cards seen turning were a run from the first, never the best one.
        expect(beforeSkip.turned.length).toBeGreaterThanOrEqual(40);
        expect(beforeSkip.turned.length).toBeLessThan(100);
        expect(record100.turned.map((t) => t.index)).toEqual([...Array(record100.turned.length).keys()]);
        expect(record100.turned.some((t) => t.best)).toBe(false);
        // The full result: the summary by tier, the best tier named, 100 cards.
        await expect.poll(() => page.locator('[data-prize-id]').count()).toBe(100);
        expect(await page.getByTestId('tier-counts').textContent()).toContain(best100.tierLabel);
        expect(await page.locator('#result-title').textContent()).toContain('獲得！（100件の結果）');
        await page.mouse.move(0, 0);
        await screenshot(page, `phone-reveal-100-result.png`);
        await expectNoSeriousAxeViolations(page, 'phone 100連 result after スキップ');
        expect(await checkInvariants(db)).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    240_000,
  );

  it.skipIf(!databaseUrl)(
    'with reduced motion: straight to the turned cards, nothing of the result underneath before',
    async () => {
      const db = handle!.db;
      const tierLabels = (
        await db.selectDistinct({ label: gachaTiers.label }).from(gachaTiers).where(eq(gachaTiers.gachaId, PACK.id))
      ).map((t) => t.label);
      const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
      try {
        await page.emulateMedia({ reducedMotion: 'reduce' });
        const email = `reveal-rm-${Date.now()}@example.jp`;
        await signUpInBrowser(page, { name: 'しずか', email });
        const [member] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
        await grantCoins(db, {
          lifetimeDays: TEST_RULES.coinLifetimes,
          memberId: member!.id,
          kind: 'paid',
          amount: 2_000,
          reason: 'operator_grant',
          counterAccount: 'adjustment',
          idempotencyKey: `e2e:${email}`,
        });
        await drawFromPack(page, 10, tierLabels);
        const reveal = page.getByRole('dialog', { name: '抽選演出' });
        await page.locator('[data-reveal-phase="landed"]').waitFor();
        expect(await page.locator('li[data-turned]').count()).toBe(10);
        expect((await readRecord(page)).violations).toEqual([]);
        await screenshot(page, `phone-reveal-10-reduced-motion.png`);
        await expectNoSeriousAxeViolations(page, 'phone 10連 reveal, reduced motion');
        await page.setViewportSize({ width: 1280, height: 860 });
        await screenshot(page, `desktop-reveal-10-reduced-motion.png`);
        await reveal.getByRole('button', { name: '結果を見る' }).click();
        await page.getByTestId('result-summary').waitFor();
        expect((await readRecord(page)).violations).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    120_000,
  );
});
