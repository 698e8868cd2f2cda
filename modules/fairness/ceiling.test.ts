// 天井賞 in the formats: the v4 commitment document, the /4 reveal, the verifier's check 10 (in node and over
// Web Crypto) and the rule itself (ceilingWalk), which the draw and the pack page's meter share.
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import {
  CHECK_NAMES,
  buildPackReveal,
  canonicalLots,
  canonicalPackDocument,
  ceilingQuantity,
  ceilingWalk,
  computeCommitment,
  hasCeiling,
  isCeilingTier,
  isExtraTier,
  parsePackReveal,
  revealFormatOf,
  verifyReveal,
  type PackReveal,
  type PackTier,
} from './commitment';
import { commitmentInputOf } from './reveal-checks';
import { verifyRevealInBrowser } from './web-crypto';
import { ceilingReveal, ceilingTiers, extrasReveal, extrasTiers, fixture, kiribanReveal, tier } from './testing';

const failedChecks = (reveal: PackReveal) =>
  verifyReveal(reveal)
    .checks.filter((c) => !c.ok)
    .map((c) => c.name);
const detail = (reveal: PackReveal, name: string) => verifyReveal(reveal).checks.find((c) => c.name === name)?.detail;
const ZERO_SEED = '00'.repeat(32);
const examples = path.resolve(import.meta.dirname, '..', '..', 'docs', 'formats', 'examples');

describe('ceilingWalk', () => {
  it('counts misses in a row from the streak before, resets on a hit and after each award', () => {
    expect(ceilingWalk(0, [], 3, ['a'])).toEqual({ won: 0, streak: 0 });
    expect(ceilingWalk(0, ['c', 'c'], 3, ['a'])).toEqual({ won: 0, streak: 2 });
    expect(ceilingWalk(0, ['c', 'c', 'c'], 3, ['a'])).toEqual({ won: 1, streak: 0 });
    expect(ceilingWalk(2, ['c'], 3, new Set(['a']))).toEqual({ won: 1, streak: 0 });
    expect(ceilingWalk(2, ['a', 'c'], 3, ['a'])).toEqual({ won: 0, streak: 1 });
    expect(ceilingWalk(0, Array(7).fill('c'), 3, ['a'])).toEqual({ won: 2, streak: 1 });
    expect(ceilingWalk(1, ['c', 'c', 'a', 'c', 'c', 'c'], 3, ['a', 's'])).toEqual({ won: 2, streak: 0 });
    expect(ceilingWalk(2, ['s', 'c', 'c', 'c'], 3, ['a', 's'])).toEqual({ won: 1, streak: 0 });
    // A hit right after an award: the streak was already 0.
    expect(ceilingWalk(2, ['c', 'a'], 3, ['a'])).toEqual({ won: 1, streak: 0 });
    // A ceiling of 1: every miss wins.
    expect(ceilingWalk(0, ['c', 'a', 'c'], 1, ['a'])).toEqual({ won: 2, streak: 0 });
    // A lot of no tier (a position outside the pack, in a broken file) is a miss.
    expect(ceilingWalk(0, [undefined, 'c'], 2, ['a'])).toEqual({ won: 1, streak: 0 });
  });

  it('is the same over the draws in any split: a streak carries from one draw to the next', () => {
    const lots = ['c', 'c', 'a', 'c', 'c', 'c', 'c', 's', 'c', 'c', 'c', 'c', 'c'];
    const whole = ceilingWalk(0, lots, 4, ['a', 's']);
    for (let cut = 0; cut <= lots.length; cut += 1) {
      const first = ceilingWalk(0, lots.slice(0, cut), 4, ['a', 's']);
      const second = ceilingWalk(first.streak, lots.slice(cut), 4, ['a', 's']);
      expect({ won: first.won + second.won, streak: second.streak }).toEqual(whole);
    }
    expect(whole).toEqual({ won: 2, streak: 1 });
  });

  it('refuses a ceiling below 1 and a streak outside 0 … ceiling − 1', () => {
    expect(() => ceilingWalk(0, ['c'], 0, ['a'])).toThrow(RangeError);
    expect(() => ceilingWalk(0, ['c'], 2.5, ['a'])).toThrow(RangeError);
    expect(() => ceilingWalk(3, ['c'], 3, ['a'])).toThrow(RangeError);
    expect(() => ceilingWalk(-1, ['c'], 3, ['a'])).toThrow(RangeError);
  });
});

describe('the v4 commitment', () => {
  it('commits to each tier’s ceiling and hits after the v3 fields; a 天井賞 is not a lot', () => {
    const tiers = ceilingTiers();
    const lots = canonicalLots(tiers);
    expect(lots).toHaveLength(20);
    expect(lots).not.toContain('t');
    const document = canonicalPackDocument({ gachaId: 'g', title: 't', pricePerDraw: 1, tiers, seed: ZERO_SEED, lots });
    const lines = document.split('\n');
    expect(lines[0]).toBe('oripa-commitment-v4');
    expect(lines).toContain('tier 1:a 4:a賞 11:カード a 3 100 0 0 0 0: 0 0');
    expect(lines).toContain('tier 1:t 9:天井賞 11:カード t 5 100 0 0 0 0: 4 2 1:a 1:s');
    expect(lines).toContain('tier 4:last 7:last賞 14:カード last 1 100 1 0 0 0: 0 0');
  });

  it('keeps every other extra’s fields in their places beside a 天井賞', () => {
    const tiers = [...extrasTiers(), { ...tier('t', 2), ceilingAfter: 5, ceilingOf: ['a'] }];
    const lots = canonicalLots(tiers);
    const lines = canonicalPackDocument({ gachaId: 'g', title: 't', pricePerDraw: 1, tiers, seed: ZERO_SEED, lots });
    expect(lines.split('\n')).toContain('tier 2:pk 18:個人キリ番賞 12:カード pk 7 100 0 0 2 2 5 0: 0 0');
    expect(lines.split('\n')).toContain('tier 2:pa 12:ピタリ賞 12:カード pa 1 100 0 0 0 1:a 0 0');
    expect(lines.split('\n')).toContain('tier 1:t 4:t賞 11:カード t 2 100 0 0 0 0: 5 1 1:a');
  });

  it('leaves the v1, v2 and v3 packs’ bytes as they were', () => {
    for (const reveal of [fixture(), kiribanReveal(), extrasReveal()]) {
      expect(hasCeiling(reveal.tiers)).toBe(false);
      expect(computeCommitment(commitmentInputOf(reveal))).toBe(reveal.commitment);
      expect(verifyReveal(reveal).ok).toBe(true);
    }
    for (const file of ['v1-ended.json', 'v2-kiriban.json', 'v3-extras.json']) {
      const reveal: PackReveal = JSON.parse(fs.readFileSync(path.join(examples, file), 'utf8'));
      expect(computeCommitment(commitmentInputOf(reveal)), file).toBe(reveal.commitment);
    }
    const v3 = canonicalPackDocument(commitmentInputOf(extrasReveal())).split('\n');
    expect(v3[0]).toBe('oripa-commitment-v3');
    expect(v3).toContain('tier 1:a 4:a賞 11:カード a 3 100 0 0 0 0:');
    // A tier's `ceilingAfter: 0` and `ceilingOf: []` are no 天井賞: the same bytes as without them.
    const zero = commitmentInputOf(extrasReveal());
    zero.tiers = zero.tiers.map((t) => ({ ...t, ceilingAfter: 0, ceilingOf: [] }));
    expect(computeCommitment(zero)).toBe(extrasReveal().commitment);
    expect(revealFormatOf(zero.tiers)).toBe('oripa-pack-reveal/3');
  });

  it('counts the most a 天井賞 can give as its quantity', () => {
    expect(ceilingQuantity(4, 20)).toBe(5);
    expect(ceilingQuantity(100, 1000)).toBe(10);
    expect(ceilingQuantity(3, 10)).toBe(3);
    expect(ceilingQuantity(10, 10)).toBe(1);
  });

  it('knows a 天井賞 tier as an extra prize', () => {
    const t = ceilingTiers().find((x) => x.id === 't')!;
    expect(isCeilingTier(t)).toBe(true);
    expect(isExtraTier(t)).toBe(true);
    expect(isCeilingTier({ ceilingAfter: 0, ceilingOf: [] })).toBe(false);
    expect(isCeilingTier({})).toBe(false);
    expect(revealFormatOf(ceilingTiers())).toBe('oripa-pack-reveal/4');
  });

  it('refuses terms without one canonical form', () => {
    const [s, a, c, t, last] = ceilingTiers();
    const with_ =
      (changes: Partial<PackTier>, ...others: PackTier[]) =>
      () =>
        canonicalLots([s, a, c, last, ...others, { ...t, ...changes }]);
    expect(with_({ quantity: 4 })).toThrow(/quantity is ⌊lots ÷ ceilingAfter⌋/);
    expect(with_({ quantity: 6 })).toThrow(/quantity is ⌊lots ÷ ceilingAfter⌋/);
    expect(with_({ ceilingOf: ['a', 'last'] })).toThrow(/lot tiers of the pack/);
    expect(with_({ ceilingOf: ['a', 'nope'] })).toThrow(/lot tiers of the pack/);
    expect(with_({ ceilingOf: ['s', 'a'] })).toThrow(/ascending/);
    expect(with_({ ceilingOf: ['a', 'a'] })).toThrow(/ascending/);
    expect(with_({ ceilingOf: [] })).toThrow(/needs ceilingOf/);
    expect(with_({ ceilingOf: undefined })).toThrow(/needs ceilingOf/);
    expect(with_({ ceilingAfter: 21, quantity: 1 })).toThrow(/at most the pack's 20 lots/);
    expect(with_({}, { ...t, id: 't2' })).toThrow(/one 天井/);
    expect(with_({ kiribanAt: [3] })).toThrow(/one of .*天井/);
    expect(with_({ isLastOne: true })).toThrow(/one of .*天井/);
    expect(with_({ pitariOf: 'a' })).toThrow(/one of .*天井/);
    expect(with_({ ceilingAfter: -4 })).toThrow(/ceilingAfter must be a positive integer/);
    expect(with_({ ceilingAfter: 2.5 })).toThrow(/ceilingAfter must be a positive integer/);
    expect(() => canonicalLots([s, a, c, { ...tier('x', 1), ceilingOf: ['a'] }])).toThrow(/positive ceilingAfter/);
    // With the right quantity and terms, each of these is fine.
    expect(canonicalLots([s, a, c, { ...t, ceilingAfter: 20, quantity: 1 }])).toHaveLength(20);
    expect(canonicalLots([s, a, c, { ...t, ceilingAfter: 3, quantity: 6, ceilingOf: ['a', 'c', 's'] }])).toHaveLength(
      20,
    );
  });
});

describe('the /4 reveal', () => {
  it('passes a sale whose 天井賞 went where each member’s streak reached the ceiling, all ten checks named', async () => {
    const reveal = ceilingReveal();
    expect(reveal.format).toBe('oripa-pack-reveal/4');
    expect(reveal.lots.join('')).toBe('cccccacscccccccccaca');
    // m1: cc (2) | acs resets it | a. m2: ccc (3) | c wins, a resets, c (1). m3: 8 c win 2.
    expect(reveal.draws.map((d) => d.ceiling)).toEqual([0, 0, 0, 2, 1, 0]);
    expect(reveal.draws.map((d) => [d.kiriban, d.personalKiriban, d.pitari])).toEqual(Array(6).fill([[], [], []]));
    const result = verifyReveal(JSON.parse(JSON.stringify(reveal)));
    expect(result.checks.map((c) => [c.name, c.ok])).toEqual([
      ['コミットメント一致', true],
      ['並び順とシードの一致', true],
      ['賞の数量', true],
      ['抽選ログ', true],
      ['ラストワン賞', true],
      ['口数の合計', true],
      ['キリ番賞', true],
      ['個人キリ番賞', true],
      ['ピタリ賞', true],
      ['天井賞', true],
    ]);
    expect(result.checks[2].detail).toContain('ラストワン賞・天井賞は口に含まれません');
    expect(result.checks.at(-1)?.detail).toBe(
      '天井賞 3 件が、それぞれその会員が a賞・s賞 を引かずに 4 口続けて引いた抽選に渡りました',
    );
    expect(result.stats).toMatchObject({ ceilingAwarded: 3, personalKiribanAwarded: 0, pitariReached: 0 });
    expect(await verifyRevealInBrowser(JSON.parse(JSON.stringify(reveal)))).toEqual(result);
  });

  it('walks a draw’s positions in ascending order whatever order the file lists them in', () => {
    const reveal = ceilingReveal();
    reveal.draws[4].positions = [19, 17, 18]; // c a c from a streak of 3: the first c wins
    expect(verifyReveal(reveal).ok).toBe(true);
  });

  it('counts a position outside the pack as a lot of no tier: a miss (check 4 fails it anyway)', () => {
    const outside = ceilingReveal();
    outside.draws[1].positions = [0, 3, 4, 5]; // m2: 4 misses from 0 win 1, and its later c a c then wins none
    expect(failedChecks(outside)).toEqual([CHECK_NAMES.drawLog, CHECK_NAMES.totals, CHECK_NAMES.ceiling]);
    expect(detail(outside, CHECK_NAMES.ceiling)).toContain(
      '抽選 2 はその会員の 1〜4 口目（直前の連続 0 口）で、天井賞は 1 件のはずが 0 件です',
    );
  });

  it('gives nobody a 天井賞 while no streak reached it, and counts an ended pack as far as it went', () => {
    const ended = ceilingReveal();
    ended.draws = ended.draws.slice(0, 3).map((d) => ({ ...d, lastOne: false }));
    const result = verifyReveal(ended);
    expect(result.ok).toBe(true);
    expect(result.stats?.ceilingAwarded).toBe(0);
    expect(result.checks.at(-1)?.detail).toBe(
      'a賞・s賞 を引かずに 4 口続けて引いた会員はおらず、天井賞は誰にも渡っていません',
    );
    ended.draws[2].ceiling = 1;
    expect(failedChecks(ended)).toEqual([CHECK_NAMES.ceiling]);
  });

  it('fails the 天井賞 check, and only it, when an award is moved, raised, invented or dropped', async () => {
    const moved = ceilingReveal();
    moved.draws[3].ceiling = 1;
    moved.draws[5].ceiling = 1;
    expect(failedChecks(moved)).toEqual([CHECK_NAMES.ceiling]);
    expect(detail(moved, CHECK_NAMES.ceiling)).toBe(
      '抽選 4 はその会員の 1〜8 口目（直前の連続 0 口）で、天井賞は 2 件のはずが 1 件です／抽選 6 はその会員の 6〜6 口目（直前の連続 0 口）で、天井賞は 0 件のはずが 1 件です',
    );
    const raised = ceilingReveal();
    raised.draws[4].ceiling = 2;
    expect(failedChecks(raised)).toEqual([CHECK_NAMES.ceiling]);
    expect(detail(raised, CHECK_NAMES.ceiling)).toContain(
      '抽選 5 はその会員の 4〜6 口目（直前の連続 3 口）で、天井賞は 1 件のはずが 2 件です',
    );
    const invented = ceilingReveal();
    invented.draws[2].ceiling = 1; // m1's streak of 2 was reset by its a and s
    expect(failedChecks(invented)).toEqual([CHECK_NAMES.ceiling]);
    const dropped = ceilingReveal();
    dropped.draws[4].ceiling = 0;
    expect(failedChecks(dropped)).toEqual([CHECK_NAMES.ceiling]);
    // Another member's draw: m3's streak is 0 after its 8 lots, so c a c wins nothing for it.
    const otherMember = ceilingReveal();
    otherMember.draws[4].member = otherMember.draws[3].member;
    expect(failedChecks(otherMember)).toEqual([CHECK_NAMES.ceiling]);
    for (const reveal of [moved, raised, invented, dropped, otherMember])
      expect(await verifyRevealInBrowser(JSON.parse(JSON.stringify(reveal)))).toEqual(verifyReveal(reveal));
  });

  it('fails it too when a hit lot is swapped, with the commitment and the order', () => {
    const swapped = ceilingReveal();
    // Position 6 (a) and 9 (c): m1's a c s becomes c c s (its streak of 2 reaches 4), m3's 8 c start with an a.
    [swapped.lots[5], swapped.lots[8]] = [swapped.lots[8], swapped.lots[5]];
    expect(failedChecks(swapped)).toEqual([CHECK_NAMES.commitment, CHECK_NAMES.order, CHECK_NAMES.ceiling]);
    expect(detail(swapped, CHECK_NAMES.ceiling)).toContain('抽選 3');
    expect(detail(swapped, CHECK_NAMES.ceiling)).toContain('抽選 4');
  });

  it('fails the commitment when the ceiling or its hits change after publication, and the tiers when they break', () => {
    const after = ceilingReveal();
    after.tiers = after.tiers.map((t) => (t.id === 't' ? { ...t, ceilingAfter: 5, quantity: 4 } : t));
    expect(failedChecks(after)).toContain(CHECK_NAMES.commitment);
    expect(failedChecks(after)).toContain(CHECK_NAMES.ceiling);
    const hits = ceilingReveal();
    hits.tiers = hits.tiers.map((t) => (t.id === 't' ? { ...t, ceilingOf: ['s'] } : t));
    expect(failedChecks(hits)).toContain(CHECK_NAMES.commitment);
    const quantity = ceilingReveal();
    quantity.tiers = quantity.tiers.map((t) => (t.id === 't' ? { ...t, quantity: 6 } : t));
    expect(failedChecks(quantity)).toEqual([CHECK_NAMES.commitment, CHECK_NAMES.order, CHECK_NAMES.tiers]);
    expect(detail(quantity, CHECK_NAMES.tiers)).toBe('天井賞 t の数量 6 が渡せる最大数 5（⌊20 ÷ 4⌋）と違います');
    const extra = ceilingReveal();
    extra.tiers = extra.tiers.map((t) => (t.id === 't' ? { ...t, ceilingOf: ['a', 'last'] } : t));
    expect(detail(extra, CHECK_NAMES.tiers)).toBe('天井賞 t の ceilingOf の "last" が口のある賞ではありません');
    const unsorted = ceilingReveal();
    unsorted.tiers = unsorted.tiers.map((t) => (t.id === 't' ? { ...t, ceilingOf: ['s', 'a'] } : t));
    expect(detail(unsorted, CHECK_NAMES.tiers)).toBe('天井賞 t の ceilingOf が id の昇順でないか重複しています');
    const two = ceilingReveal();
    two.tiers.push({ ...two.tiers.find((t) => t.id === 't')!, id: 'u' });
    expect(detail(two, CHECK_NAMES.tiers)).toBe('天井賞 u は二つ目の天井賞です（1 件まで）');
    // Each of its draws then expects the sum of both walks.
    expect(failedChecks(two)).toContain(CHECK_NAMES.ceiling);
    const both = ceilingReveal();
    both.tiers = both.tiers.map((t) => (t.id === 't' ? { ...t, kiribanAt: [3] } : t));
    expect(detail(both, CHECK_NAMES.tiers)).toContain('二つ以上を兼ねています');
  });

  it('names the fields each format may carry, and the content must agree with the label', () => {
    const noCeiling = ceilingReveal();
    noCeiling.tiers = noCeiling.tiers.map(({ ceilingAfter: _a, ceilingOf: _o, ...t }) => t);
    const parsed = parsePackReveal(noCeiling);
    expect(parsed).toEqual({ ok: false, errors: ['format: "oripa-pack-reveal/4" は天井賞のある口の形式です'] });
    expect(failedChecks(noCeiling)).toEqual([CHECK_NAMES.shape]);

    const asV3 = { ...ceilingReveal(), format: 'oripa-pack-reveal/3' as const };
    const v3 = parsePackReveal(asV3);
    expect(!v3.ok && v3.errors).toContain('tiers[3].ceilingAfter: 天井賞は "oripa-pack-reveal/4" の項目です');
    expect(!v3.ok && v3.errors).toContain('draws[0].ceiling: 天井賞は "oripa-pack-reveal/4" の項目です');

    const ceilingInV3 = extrasReveal();
    ceilingInV3.draws[0].ceiling = 0;
    expect(parsePackReveal(ceilingInV3)).toEqual({
      ok: false,
      errors: ['draws[0].ceiling: 天井賞は "oripa-pack-reveal/4" の項目です'],
    });
    const hitsInV2 = kiribanReveal();
    hitsInV2.tiers[0].ceilingOf = [];
    expect(parsePackReveal(hitsInV2)).toMatchObject({ ok: false });

    const missing = ceilingReveal();
    delete missing.draws[0].ceiling;
    expect(parsePackReveal(missing)).toEqual({ ok: false, errors: ['draws[0].ceiling: 整数ではありません'] });
    const missingPitari = ceilingReveal();
    delete missingPitari.draws[1].pitari;
    expect(parsePackReveal(missingPitari)).toMatchObject({ ok: false });
    const wrongType = ceilingReveal() as unknown as { tiers: Record<string, unknown>[] };
    wrongType.tiers[3].ceilingOf = 'a';
    expect(parsePackReveal(wrongType)).toEqual({ ok: false, errors: ['tiers[3].ceilingOf: 配列ではありません'] });
    expect(parsePackReveal({ ...fixture(), format: 'oripa-pack-reveal/5' })).toMatchObject({ ok: false });
  });

  it('is built from the shop’s records: ceiling 0 when absent, only the 天井賞 tier keeps its fields', () => {
    const reveal = ceilingReveal();
    const rebuilt = buildPackReveal({
      gacha: reveal.gacha,
      tiers: ceilingTiers().map((t) => (isCeilingTier(t) ? t : { ...t, ceilingAfter: 0, ceilingOf: [] })),
      commitment: reveal.commitment,
      committedAt: reveal.committedAt,
      seed: reveal.seed,
      lots: reveal.lots,
      draws: [{ at: reveal.draws[0].at, memberId: 'm1', positions: [1], lastOne: false }],
      revealSalt: 'a salt of sixteen or more',
      revealedAt: reveal.revealedAt,
    });
    expect(rebuilt.draws[0]).toMatchObject({ ceiling: 0, kiriban: [], personalKiriban: [], pitari: [] });
    expect(rebuilt.tiers.filter((t) => 'ceilingAfter' in t || 'ceilingOf' in t).map((t) => t.id)).toEqual(['t']);
    expect(verifyReveal(rebuilt).ok).toBe(true);
  });
});
