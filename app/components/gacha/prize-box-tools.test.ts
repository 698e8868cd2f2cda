// The prize box's tier filter and orders (decision 057): best tiers first, by value, by tier name.
import { describe, it, expect } from 'vitest';
import { arrangePrizeBox, prizeBoxViewOf } from './PrizeBoxTools';

const card = (tierLabel: string, tiersBelow: number, conversionValue: number, extra: object = {}) => ({
  tierLabel,
  tiersBelow,
  conversionValue,
  tierRank: 4 - tiersBelow,
  effect: 'normal' as const,
  isLastOne: false,
  ...extra,
});

describe('arrangePrizeBox', () => {
  const items = [
    card('C賞', 0, 150),
    card('A賞', 2, 4_000),
    card('C賞', 0, 2_000),
    card('S賞', 3, 30_000, { tierRank: 1 }),
  ];

  it('keeps the newest order by default and lists the tiers best first with their counts', () => {
    const { prizes, prizeTiers } = arrangePrizeBox(items, { sort: 'new', tier: null });
    expect(prizes.map((p) => p.conversionValue)).toEqual([150, 4_000, 2_000, 30_000]);
    expect(prizeTiers.map((t) => [t.label, t.count])).toEqual([
      ['S賞', 1],
      ['A賞', 1],
      ['C賞', 2],
    ]);
  });

  it('orders by tier (then value) and by value, and filters by tier name', () => {
    expect(arrangePrizeBox(items, { sort: 'tier', tier: null }).prizes.map((p) => p.conversionValue)).toEqual([
      30_000, 4_000, 2_000, 150,
    ]);
    expect(arrangePrizeBox(items, { sort: 'value', tier: null }).prizes.map((p) => p.tierLabel)).toEqual([
      'S賞',
      'A賞',
      'C賞',
      'C賞',
    ]);
    const onlyC = arrangePrizeBox(items, { sort: 'value', tier: 'C賞' });
    expect(onlyC.prizes.map((p) => p.conversionValue)).toEqual([2_000, 150]);
    expect(onlyC.prizeTiers).toHaveLength(3);
  });

  it('reads the view from the address, anything unknown as the default', () => {
    expect(prizeBoxViewOf(new URLSearchParams('sort=value&tier=A賞'))).toEqual({ sort: 'value', tier: 'A賞' });
    expect(prizeBoxViewOf(new URLSearchParams('sort=drop&tier='))).toEqual({ sort: 'new', tier: null });
  });
});
