// A visitor reads a sold-out pack's disclosure (prizes, 還元率, commitment, seed) and verifies its reveal
// file in real Chromium with 「このブラウザで検証する」 (Web Crypto); a tampered file, served by intercepting
// the reveal request, is refused, and a failed download says so in Japanese. axe on the page with results.
import { describe, it, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { buildPackReveal, createPackCommitment, type PackTier } from '#modules/fairness';
import {
  useBrowser,
  openContext,
  expectNoSeriousAxeViolations,
  waitForHydration,
  type ViewportName,
} from './support/browser';

const shop = useBrowser();
/** The demo's sold-out pack (db/demo/seed.ts): its seed and log are public. */
const PACK = { path: '/gacha/yugioh/stellar-yugioh-002', id: 'stellar-yugioh-002', title: 'レリーフ大集合オリパ' };
const REVEAL = `**/api/v1/gachas/${PACK.id}/reveal`;

async function openPack(page: Page) {
  await page.goto(PACK.path);
  await waitForHydration(page);
  await page.getByRole('heading', { name: PACK.title, level: 1 }).waitFor();
}

async function verify(page: Page) {
  await page.getByRole('button', { name: 'このブラウザで検証する' }).click();
  const result = page.getByTestId('browser-verification-result');
  await result.waitFor({ timeout: 30_000 });
  const checks = page.getByRole('list', { name: '検証項目' }).getByRole('listitem');
  return {
    result: (await result.textContent()) ?? '',
    checks: await checks.evaluateAll((items) =>
      items.map((item) => ({
        ok: item.getAttribute('data-check-ok') === 'true',
        name: item.querySelector('b')?.textContent ?? '',
        text: item.textContent ?? '',
      })),
    ),
  };
}

describe.each<ViewportName>(['phone', 'desktop'])('a sold-out pack on a %s', (viewport) => {
  it('shows every prize, the 還元率 and the seed, and verifies the reveal in the browser', async () => {
    const { context, page, problems } = await openContext(shop.browser, viewport, shop.baseURL);
    try {
      await openPack(page);
      const disclosure = page.getByTestId('prize-disclosure');
      expect(await disclosure.getByRole('heading', { name: '排出内訳と還元率' }).isVisible()).toBe(true);
      expect(await disclosure.getByTestId('return-rate').textContent()).toMatch(/^\d+\.\d%$/);
      expect(await disclosure.textContent()).toContain('還元率 ＝ 全口の交換価値の合計 ÷（1回の価格 × 総口数）');
      expect(await disclosure.textContent()).toContain('300口');
      expect(await page.getByTestId('revealed-seed').textContent()).toMatch(/^[0-9a-f]{64}$/);

      const { result, checks } = await verify(page);
      expect(result).toMatch(/^検証成功：\d+ 項目すべてに合格しました。/);
      expect(checks.map((c) => c.name)).toEqual(
        expect.arrayContaining([
          'このページのコミットメントとの一致',
          'コミットメント一致',
          '並び順とシードの一致',
          '賞の数量',
          '抽選ログ',
          'ラストワン賞',
          '口数の合計',
        ]),
      );
      expect(checks.every((c) => c.ok)).toBe(true);
      // The results sit in a live region, so a screen reader hears the verdict.
      expect(await page.getByTestId('browser-verification').getAttribute('aria-live')).toBe('polite');
      await expectNoSeriousAxeViolations(page, `${viewport} verified pack`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('tampered and unavailable reveal files', () => {
  it('refuses a file whose lots were swapped, and one whose commitment is not the page’s', async () => {
    const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
    try {
      let tamper: (file: { lots: string[]; commitment: string }) => void = () => {};
      await page.route(REVEAL, async (route) => {
        const response = await route.fetch();
        const file = await response.json();
        tamper(file);
        await route.fulfill({ response, json: file });
      });

      // Two different prizes change places: the order no longer comes from the seed, nor the hash from the file.
      tamper = (file) => {
        const first = file.lots[0];
        const other = file.lots.findIndex((lot) => lot !== first);
        [file.lots[0], file.lots[other]] = [file.lots[other], file.lots[0]];
      };
      await openPack(page);
      const swapped = await verify(page);
      expect(swapped.result).toMatch(/^検証失敗：\d+ 項目中 2 項目が不合格です。$/);
      expect(swapped.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual([
        'コミットメント一致',
        '並び順とシードの一致',
      ]);
      expect(swapped.checks.find((c) => c.name === '並び順とシードの一致')?.text).toContain(
        'シードから求めた並びと違います',
      );

      // A file consistent in itself but with another commitment than the one shown since the sale.
      tamper = (file) => {
        file.commitment = `${file.commitment.slice(0, 63)}${file.commitment.endsWith('0') ? '1' : '0'}`;
      };
      await openPack(page);
      const other = await verify(page);
      expect(other.result).toMatch(/^検証失敗：/);
      expect(other.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual([
        'このページのコミットメントとの一致',
        'コミットメント一致',
      ]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('verifies a キリ番 file (oripa-pack-reveal/2) in Chromium with the seventh check', async () => {
    // A v2 file built here: its own checks all pass, and it is refused only for not being this page's pack.
    const tiers: PackTier[] = [
      { id: 'a', label: 'A賞', cardName: 'カード A', quantity: 4, conversionValue: 900, isLastOne: false },
      { id: 'c', label: 'C賞', cardName: 'カード C', quantity: 6, conversionValue: 100, isLastOne: false },
      {
        id: 'k',
        label: 'キリ番賞',
        cardName: 'カード K',
        quantity: 1,
        conversionValue: 5000,
        isLastOne: false,
        kiribanAt: [5],
      },
    ];
    const gacha = { id: 'e2e-kiriban', title: 'キリ番の検証', pricePerDraw: 300 };
    const { seed, lots, commitment } = createPackCommitment({ gachaId: gacha.id, ...gacha, tiers });
    const file = buildPackReveal({
      gacha,
      tiers,
      commitment,
      committedAt: '2026-11-20T00:00:00Z',
      seed,
      lots,
      draws: [
        { at: '2026-11-21T00:00:00Z', memberId: 'm1', positions: [1, 2, 3], lastOne: false },
        { at: '2026-11-21T00:01:00Z', memberId: 'm2', positions: [4, 5, 6], lastOne: false, kiriban: [5] },
      ],
      revealSalt: 'e2e-kiriban-reveal-salt',
      revealedAt: '2026-11-22T00:00:00Z',
    });
    expect(file.format).toBe('oripa-pack-reveal/2');
    const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
    try {
      await page.route(REVEAL, (route) => route.fulfill({ status: 200, json: file }));
      await openPack(page);
      const { result, checks } = await verify(page);
      expect(result).toMatch(/^検証失敗：8 項目中 1 項目が不合格です。$/);
      expect(checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['このページのコミットメントとの一致']);
      expect(checks.at(-1)).toMatchObject({ name: 'キリ番賞', ok: true });
      expect(checks.at(-1)?.text).toContain(
        '到達した 1 件のキリ番賞が、それぞれその口を引いた抽選に 1 件ずつ渡りました',
      );
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says in Japanese when the file cannot be fetched or read', async () => {
    const { context, page, problems } = await openContext(shop.browser, 'phone', shop.baseURL);
    try {
      let answer: { status: number; body: string } = { status: 503, body: '{}' };
      await page.route(REVEAL, (route) => route.fulfill({ ...answer, contentType: 'application/json' }));
      await openPack(page);
      const button = page.getByRole('button', { name: 'このブラウザで検証する' });
      await button.click();
      const error = page.getByTestId('browser-verification-error');
      await error.waitFor();
      expect(await error.textContent()).toBe(
        '検証用ファイルを取得できませんでした（HTTP 503）。時間をおいてもう一度お試しください。',
      );
      answer = { status: 200, body: '{"format": "oripa-pack-reveal/1",' };
      await button.click();
      await page.getByText('検証用ファイルを読み込めません: JSON として読み込めません').waitFor();
      expect(problems.filter((p) => !/status of 503\b/.test(p))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
