// The one rule that names a top-tier prize (the conversion's highlighted line and the winners feed).
import { describe, it, expect } from 'vitest';
import { isSOrBetter, isTopTier } from './top-tier';
import { isTopTier as browserIsTopTier } from '#modules/draw/browser';
import { isTopTier as serverIsTopTier } from '#modules/draw';

const tier = (tierRank: number, effect: Parameters<typeof isTopTier>[0]['effect'], conversionValue = 100) => ({
  tierRank,
  isLastOne: false,
  effect,
  conversionValue,
});

describe('isSOrBetter and isTopTier', () => {
  it("counts the pack's best tier as S賞 or better whatever its effect, and the ラストワン賞", () => {
    expect(isSOrBetter(tier(1, 'gold'))).toBe(true);
    expect(isSOrBetter(tier(1, 'normal'))).toBe(true);
    expect(isSOrBetter({ tierRank: 0, isLastOne: true, effect: 'lastone' })).toBe(true);
  });

  it('counts an S賞-class effect below the best tier (an S賞 under an SS賞), and nothing else', () => {
    expect(isSOrBetter(tier(2, 'rainbow'))).toBe(true);
    expect(isSOrBetter(tier(2, 'gold'))).toBe(false);
    expect(isSOrBetter(tier(4, 'normal'))).toBe(false);
    // A キリ番賞 at rank 0 beside the ラストワン賞 is not top by its rank.
    expect(isSOrBetter(tier(0, 'gold'))).toBe(false);
  });

  it('adds anything worth the highlight setting, and keeps a cheap C賞 out', () => {
    expect(isTopTier(tier(1, 'gold', 500), 10_000)).toBe(true);
    expect(isTopTier(tier(4, 'normal', 10_000), 10_000)).toBe(true);
    expect(isTopTier(tier(4, 'normal', 9_999), 10_000)).toBe(false);
  });

  it('is the same function behind both doors', () => {
    expect(browserIsTopTier).toBe(isTopTier);
    expect(serverIsTopTier).toBe(isTopTier);
  });
});
