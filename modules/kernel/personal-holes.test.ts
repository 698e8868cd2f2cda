// formatCoins groups whole numbers itself (no Intl on a page's start-up): it must write exactly what
// Intl's ja-JP format writes, for every number.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCoins } from './personal-holes';

const intl = new Intl.NumberFormat('ja-JP', { maximumFractionDigits: 0 });

describe('formatCoins', () => {
  it('writes whole numbers as Intl does', () => {
    fc.assert(
      fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (value) => {
        expect(formatCoins(value)).toBe(intl.format(value));
      }),
      { numRuns: 5000 },
    );
    for (const value of [0, 1, 12, 123, 999, 1000, 12_345, 100_000, 1_000_000, -1, -1000, -999_999])
      expect(formatCoins(value)).toBe(intl.format(value));
    expect(formatCoins(12_345)).toBe('12,345');
  });

  it('leaves every other number to Intl', () => {
    fc.assert(
      fc.property(fc.double(), (value) => {
        expect(formatCoins(value)).toBe(intl.format(value));
      }),
      { numRuns: 2000 },
    );
    for (const value of [-0, 0.5, 1.5, -2.5, 1e21, Number.MAX_SAFE_INTEGER + 2, Number.NaN, Infinity, -Infinity])
      expect(formatCoins(value)).toBe(intl.format(value));
  });
});
