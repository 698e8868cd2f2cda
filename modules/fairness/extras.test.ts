// 個人キリ番賞 and ピタリ賞 in the formats (decision 088): the v3 commitment document, the /3 reveal and the
// verifier's checks 8 and 9.
import { describe, it, expect } from 'vitest';
import {
  CHECK_NAMES,
  canonicalLots,
  canonicalPackDocument,
  parsePackReveal,
  personalKiribanQuantity,
  verifyReveal,
  type PackReveal,
} from './commitment';
import { extrasReveal, extrasTiers, fixture, kiribanReveal, tier } from './testing';

const failedChecks = (reveal: PackReveal) =>
  verifyReveal(reveal)
    .checks.filter((c) => !c.ok)
    .map((c) => c.name);
const ZERO_SEED = '00'.repeat(32);

describe('the v3 commitment', () => {
  it('commits to the personal numbers and the ピタリ target after the v2 fields; older packs keep their bytes', () => {
    const tiers = extrasTiers();
    const lots = canonicalLots(tiers);
    expect(lots).toHaveLength(10);
    const document = canonicalPackDocument({ gachaId: 'g', title: 't', pricePerDraw: 1, tiers, seed: ZERO_SEED, lots });
    const lines = document.split('\n');
    expect(lines[0]).toBe('oripa-commitment-v3');
    expect(lines).toContain('tier 1:a 4:a賞 11:カード a 3 100 0 0 0 0:');
    expect(lines).toContain('tier 2:pa 12:ピタリ賞 12:カード pa 1 100 0 0 0 1:a');
    expect(lines).toContain('tier 2:pk 18:個人キリ番賞 12:カード pk 7 100 0 0 2 2 5 0:');
    expect(kiribanReveal().format).toBe('oripa-pack-reveal/2');
    expect(fixture().format).toBe('oripa-pack-reveal/1');
  });

  it('counts the most a 個人キリ番賞 can give as its quantity', () => {
    expect(personalKiribanQuantity([10, 50], 1000)).toBe(120);
    expect(personalKiribanQuantity([3], 10)).toBe(3);
  });

  it('refuses terms without one canonical form', () => {
    const [a, b, pk, pa, last] = extrasTiers();
    expect(() => canonicalLots([a, b, { ...pk, quantity: 6 }])).toThrow(/Σ/);
    expect(() => canonicalLots([a, b, { ...pk, personalKiribanAt: [5, 2] }])).toThrow(/ascending/);
    expect(() => canonicalLots([a, b, { ...pk, personalKiribanAt: [11], quantity: 0 }])).toThrow();
    expect(() => canonicalLots([a, b, { ...pa, pitariOf: 'nope' }])).toThrow(/lot tier/);
    expect(() => canonicalLots([a, b, last, { ...pa, pitariOf: 'last' }])).toThrow(/lot tier/);
    expect(() => canonicalLots([a, b, pa, { ...pa, id: 'pa2' }])).toThrow(/one ピタリ/);
    expect(() => canonicalLots([a, b, { ...pa, quantity: 2 }])).toThrow(/quantity 1/);
    expect(() => canonicalLots([a, b, { ...pa, kiribanAt: [3] }])).toThrow(/one of/);
    expect(() => canonicalLots([tier('a', 3), { ...pa, isLastOne: true }])).toThrow(/one of/);
  });
});

describe('the /3 reveal', () => {
  it('passes a sale whose 個人キリ番賞 and ピタリ賞 went where the log says, every check named', () => {
    const reveal = extrasReveal();
    expect(reveal.format).toBe('oripa-pack-reveal/3');
    expect(reveal.draws.map((d) => d.personalKiriban)).toEqual([[2], [2], [5], []]);
    expect(reveal.draws.flatMap((d) => d.pitari)).toEqual(['a']);
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
    ]);
    expect(result.stats).toMatchObject({ personalKiribanAwarded: 3, pitariReached: 1 });
  });

  it('fails the 個人キリ番 check, and only it, when an award is moved, doubled, invented or dropped', () => {
    const moved = extrasReveal();
    moved.draws[2].personalKiriban = [];
    moved.draws[3].personalKiriban = [5];
    expect(failedChecks(moved)).toEqual([CHECK_NAMES.personalKiriban]);
    const doubled = extrasReveal();
    doubled.draws[2].personalKiriban = [2, 5];
    expect(failedChecks(doubled)).toEqual([CHECK_NAMES.personalKiriban]);
    const invented = extrasReveal();
    invented.draws[3].personalKiriban = [3];
    expect(failedChecks(invented)).toEqual([CHECK_NAMES.personalKiriban]);
    const dropped = extrasReveal();
    dropped.draws[1].personalKiriban = [];
    expect(failedChecks(dropped)).toEqual([CHECK_NAMES.personalKiriban]);
    expect(verifyReveal(dropped).checks.at(-2)?.detail).toContain('1〜2 口目で、個人キリ番賞は 2 のはずが なし');
  });

  it('fails the ピタリ check, and only it, when the award is moved, doubled or given while lots of the tier remain', () => {
    const reveal = extrasReveal();
    const winner = reveal.draws.findIndex((d) => d.pitari?.length);
    const other = (winner + 1) % reveal.draws.length;
    const moved = extrasReveal();
    moved.draws[winner].pitari = [];
    moved.draws[other].pitari = ['a'];
    expect(failedChecks(moved)).toEqual([CHECK_NAMES.pitari]);
    expect(verifyReveal(moved).checks.at(-1)?.detail).toContain('最後の口を引いた抽選');
    const doubled = extrasReveal();
    doubled.draws[other].pitari = ['a'];
    expect(failedChecks(doubled)).toEqual([CHECK_NAMES.pitari]);
    const dropped = extrasReveal();
    dropped.draws[winner].pitari = [];
    expect(failedChecks(dropped)).toEqual([CHECK_NAMES.pitari]);
    const wrongTier = extrasReveal();
    wrongTier.draws[other].pitari = ['b'];
    expect(failedChecks(wrongTier)).toEqual([CHECK_NAMES.pitari]);
  });

  it('gives no ピタリ賞 while a lot of the tier is undrawn', () => {
    const reveal = extrasReveal();
    const lastOfA = reveal.lots.lastIndexOf('a') + 1;
    const holder = reveal.draws.findIndex((d) => d.positions.includes(lastOfA));
    // The pack ended before the draw that would have emptied tier a (and everything after it).
    const ended = extrasReveal();
    ended.draws = ended.draws.slice(0, holder).map((d) => ({ ...d, pitari: [], lastOne: false }));
    const result = verifyReveal(ended);
    expect(result.checks.filter((c) => !c.ok)).toEqual([]);
    expect(result.stats?.pitariReached).toBe(0);
    if (ended.draws.length > 0) {
      ended.draws[0].pitari = ['a'];
      expect(failedChecks(ended)).toEqual([CHECK_NAMES.pitari]);
    }
  });

  it('fails the commitment when the personal numbers or the ピタリ target change after publication', () => {
    const numbers = extrasReveal();
    numbers.tiers = numbers.tiers.map((t) => (t.id === 'pk' ? { ...t, personalKiribanAt: [2, 6], quantity: 6 } : t));
    expect(failedChecks(numbers)).toContain(CHECK_NAMES.commitment);
    const target = extrasReveal();
    target.tiers = target.tiers.map((t) => (t.id === 'pa' ? { ...t, pitariOf: 'b' } : t));
    expect(failedChecks(target)).toContain(CHECK_NAMES.commitment);
  });

  it('names the fields each format may carry', () => {
    const v2 = kiribanReveal() as unknown as Record<string, unknown> & PackReveal;
    const withPersonal = { ...v2, draws: v2.draws.map((d) => ({ ...d, personalKiriban: [] })) };
    expect(parsePackReveal(withPersonal)).toMatchObject({ ok: false });
    const v3 = extrasReveal();
    const noExtras = { ...v3, tiers: v3.tiers.map(({ personalKiribanAt: _p, pitariOf: _t, ...t }) => t) };
    const parsed = parsePackReveal(noExtras);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.errors.join()).toContain('個人キリ番賞かピタリ賞のある口の形式');
    const missing = extrasReveal();
    delete missing.draws[0].pitari;
    expect(parsePackReveal(missing)).toMatchObject({ ok: false });
  });
});
