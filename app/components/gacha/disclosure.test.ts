// The 還元率 shown on the pack page: lots only, extras apart, one decimal rounded down.
import { describe, it, expect } from 'vitest';
import { packDisclosure, percentOneDecimal, type DisclosedTier } from './disclosure';

const tier = (id: string, quantity: number, conversionValue: number, extra: Partial<DisclosedTier> = {}) => ({
  id,
  label: `${id}賞`,
  cardName: id,
  quantity,
  conversionValue,
  isLastOne: false,
  ...extra,
});

describe('packDisclosure', () => {
  it('divides the lots’ conversion values by price × total lots, extras shown apart', () => {
    // The reveal fixture's pack: 20 lots at 500 coins; S 120,000 + A 2×8,000 + B 5×1,500 + C 12×100.
    const tiers = [
      tier('s', 1, 120_000),
      tier('a', 2, 8000),
      tier('b', 5, 1500),
      tier('c', 12, 100),
      tier('last', 1, 30_000, { isLastOne: true }),
    ];
    expect(packDisclosure(tiers, 500, 20)).toEqual({
      salesCoins: 10_000,
      lotValueCoins: 144_700,
      extraValueCoins: 30_000,
      returnRate: '1447.0',
      returnRateWithExtras: '1747.0',
    });
  });

  it('counts キリ番賞 as extras and leaves the second rate out when there are none', () => {
    const kiriban = tier('k', 2, 500, { kiribanAt: [100, 200] });
    expect(packDisclosure([tier('c', 300, 400), kiriban], 500, 300)).toMatchObject({
      lotValueCoins: 120_000,
      extraValueCoins: 1000,
      returnRate: '80.0',
      returnRateWithExtras: '80.6',
    });
    expect(packDisclosure([tier('c', 300, 400)], 500, 300).returnRateWithExtras).toBeNull();
    expect(packDisclosure([tier('c', 300, 400), { ...kiriban, kiribanAt: [] }], 500, 300).extraValueCoins).toBe(0);
  });
});

describe('percentOneDecimal', () => {
  it('rounds down to one decimal and refuses an empty pack', () => {
    expect(percentOneDecimal(123_456, 150_000)).toBe('82.3');
    expect(percentOneDecimal(2, 3)).toBe('66.6');
    expect(percentOneDecimal(1, 1)).toBe('100.0');
    expect(percentOneDecimal(0, 500)).toBe('0.0');
    expect(percentOneDecimal(1, 0)).toBeNull();
  });
});
