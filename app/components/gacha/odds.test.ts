// The current odds' words (decision 059): one decimal rounded down, never 0 % while lots are left.
import { describe, expect, it } from 'vitest';
import { formatOdds, oddsOf } from './odds';

describe('a tier’s current odds', () => {
  it('is the tier’s lots ÷ the pack’s lots, with one decimal rounded down', () => {
    expect(formatOdds(4, 640)).toBe('0.6%'); // 0.625 %
    expect(formatOdds(1, 3)).toBe('33.3%');
    expect(formatOdds(2, 3)).toBe('66.6%'); // 66.67 %: never overstated
    expect(formatOdds(1, 10)).toBe('10.0%');
    expect(formatOdds(1, 1000)).toBe('0.1%');
  });

  it('never says 0 % for a tier that still has lots', () => {
    expect(formatOdds(1, 1001)).toBe('0.1%未満');
    expect(formatOdds(1, 100_000)).toBe('0.1%未満');
  });

  it('says 0 % for a tier that is gone and 100 % for the only tier left', () => {
    expect(formatOdds(0, 640)).toBe('0%');
    expect(formatOdds(0, 0)).toBe('0%');
    expect(formatOdds(3, 3)).toBe('100%');
    expect(formatOdds(9_999, 10_000)).toBe('99.9%');
  });

  it('lists the lot tiers only, with their odds now and at the start', () => {
    const tiers = [
      { id: 's', label: 'S賞', effect: 'rainbow', quantity: 5, isLastOne: false, kiribanAt: null },
      { id: 'c', label: 'C賞', effect: 'normal', quantity: 635, isLastOne: false, kiribanAt: null },
      { id: 'last', label: 'ラストワン賞', effect: 'lastone', quantity: 1, isLastOne: true, kiribanAt: null },
      { id: 'k', label: 'キリ番賞', effect: 'gold', quantity: 1, isLastOne: false, kiribanAt: [100] },
    ];
    const odds = oddsOf(tiers, { s: 4, c: 600, last: 1, k: 1 }, 604, 640);
    expect(odds.map((o) => [o.label, o.left, o.quantity, o.odds, o.initial])).toEqual([
      ['S賞', 4, 5, '0.6%', '0.7%'],
      ['C賞', 600, 635, '99.3%', '99.2%'],
    ]);
  });
});
