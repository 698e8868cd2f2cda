// A bulk conversion covers undecided cards only, names the valuable ones, and a 100連 collapses its low tiers.
import { describe, it, expect } from 'vitest';
import {
  conversionPlan,
  groupByTier,
  isNamedInConversion,
  isRareTier,
  tierChoices,
  tierCountLine,
  undecidedOf,
  type SummaryPrize,
} from './prize-summary';

const TIERS = {
  last: {
    tierId: 'lo',
    tierLabel: 'ラストワン賞',
    tierRank: 0,
    effect: 'lastone',
    isLastOne: true,
    conversionValue: 40_000,
  },
  s: { tierId: 's', tierLabel: 'S賞', tierRank: 1, effect: 'rainbow', isLastOne: false, conversionValue: 50_000 },
  a: { tierId: 'a', tierLabel: 'A賞', tierRank: 2, effect: 'gold', isLastOne: false, conversionValue: 4_000 },
  b: { tierId: 'b', tierLabel: 'B賞', tierRank: 3, effect: 'silver', isLastOne: false, conversionValue: 1_000 },
  c: { tierId: 'c', tierLabel: 'C賞', tierRank: 4, effect: 'normal', isLastOne: false, conversionValue: 150 },
} as const;

let n = 0;
const prize = (
  tier: keyof typeof TIERS,
  status: SummaryPrize['status'] = 'pending',
  extra: Partial<SummaryPrize> = {},
): SummaryPrize => ({
  prizeId: `p${++n}`,
  cardName: `${tier}のカード`,
  status,
  ...TIERS[tier],
  ...extra,
});

describe('undecidedOf and conversionPlan', () => {
  it('leaves kept and decided cards out of a bulk conversion and its total', () => {
    const items = [prize('s', 'kept'), prize('a'), prize('c'), prize('c', 'converted'), prize('b', 'kept')];
    const plan = conversionPlan(undecidedOf(items), 10_000);
    expect(plan.prizes.map((p) => p.status)).toEqual(['pending', 'pending']);
    expect(plan).toMatchObject({ count: 2, total: 4_150, highlights: [] });
  });

  it('names S賞 and better, and anything worth the highlight setting, best first', () => {
    const expensiveC = prize('c', 'pending', { conversionValue: 12_000, cardName: '高いC' });
    const plan = conversionPlan([prize('c'), expensiveC, prize('s'), prize('last'), prize('a')], 10_000);
    expect(plan.highlights.map((p) => p.tierLabel)).toEqual(['ラストワン賞', 'S賞', 'C賞']);
    expect(conversionPlan([prize('a')], 4_000).highlights).toHaveLength(1);
  });

  it("names a pack's S賞 by its rank even when its effect is plain and its value is under the setting", () => {
    const plainS = prize('s', 'pending', { effect: 'gold', conversionValue: 9_999, cardName: '金のS' });
    const plan = conversionPlan([prize('c'), plainS, prize('b')], 10_000);
    expect(plan.highlights.map((p) => p.cardName)).toEqual(['金のS']);
    expect(conversionPlan([prize('c'), prize('c')], 10_000).highlights).toEqual([]);
  });
});

describe('groupByTier', () => {
  it('orders tiers best first (ラストワン賞 before S賞) and counts them', () => {
    const items = [prize('c'), prize('s'), prize('c'), prize('last'), prize('a')];
    const groups = groupByTier(items);
    expect(tierCountLine(groups)).toBe('ラストワン賞×1・S賞×1・A賞×1・C賞×2');
    expect(groups.every((g) => g.open)).toBe(true);
    expect(groups.find((g) => g.label === 'C賞')!.value).toBe(300);
  });

  it('collapses the low tiers of a 100連 and keeps the hits open', () => {
    const items = [
      prize('s'),
      prize('a'),
      prize('a'),
      ...Array.from({ length: 17 }, () => prize('b')),
      ...Array.from({ length: 80 }, () => prize('c')),
    ];
    const groups = groupByTier(items);
    expect(tierCountLine(groups)).toBe('S賞×1・A賞×2・B賞×17・C賞×80');
    expect(groups.map((g) => g.open)).toEqual([true, true, false, false]);
  });

  it('collapses a hit tier too when it has many cards in a large draw', () => {
    const items = [...Array.from({ length: 13 }, () => prize('a')), ...Array.from({ length: 20 }, () => prize('c'))];
    expect(groupByTier(items).map((g) => g.open)).toEqual([false, false]);
  });
});

describe('bulk conversion by tier (decision 057)', () => {
  const standing = { s: 3, a: 2, b: 1, c: 0, last: 4 } as const;
  const ranked = (tier: keyof typeof TIERS, extra: Partial<SummaryPrize> = {}) =>
    prize(tier, 'pending', { tiersBelow: standing[tier], ...extra });
  const rule = { highlightCoins: 10_000, minCoins: 1_000, aboveLowestTiers: 2 };

  it('offers each tier best first and chooses only the packs’ lowest tier at first', () => {
    const items = [ranked('c'), ranked('c'), ranked('a'), ranked('b'), ranked('s'), ranked('c')];
    const choices = tierChoices(items);
    expect(choices.map((c) => [c.label, c.prizes.length, c.lowest])).toEqual([
      ['S賞', 1, false],
      ['A賞', 1, false],
      ['B賞', 1, false],
      ['C賞', 3, true],
    ]);
    expect(choices.find((c) => c.label === 'C賞')!.total).toBe(450);
  });

  it('names every tier above the lowest two and every card worth 1,000 coins, not only S賞 and 10,000', () => {
    const cheapA = ranked('a', { conversionValue: 400, cardName: '安いA' });
    const dearC = ranked('c', { conversionValue: 1_000, cardName: '高いC' });
    const plan = conversionPlan([ranked('c'), cheapA, dearC, ranked('b', { conversionValue: 999 })], rule);
    expect(plan.highlights.map((p) => p.cardName)).toEqual(['安いA', '高いC']);
    expect(isNamedInConversion(ranked('b', { conversionValue: 999 }), rule)).toBe(false);
    expect(isNamedInConversion(ranked('s', { conversionValue: 10 }), rule)).toBe(true);
  });

  it('makes 保管 the first choice for A賞 and better only', () => {
    expect(['s', 'a', 'b', 'c'].map((t) => isRareTier(ranked(t as keyof typeof TIERS), 2))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    // A two-tier pack: its S賞 is rare by rank, its lowest tier is not.
    expect(isRareTier({ tierRank: 1, isLastOne: false, effect: 'gold', tiersBelow: 1 }, 2)).toBe(true);
  });
});
