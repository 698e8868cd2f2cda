// The catalogue's pure rules: the headline tier of a pack and the sort options (the queries are in index.db.test.ts).
import { describe, it, expect } from 'vitest';
import { parseGachaSort, headlineTier } from './index';

describe('headline prize', () => {
  it('chooses the lowest rank, and the ラストワン賞 only when it is all there is', () => {
    const tier = (rank: number, isLastOne = false) => ({
      rank,
      isLastOne,
      label: isLastOne ? 'ラストワン賞' : `${rank}等`,
    });
    expect(headlineTier([tier(0, true), tier(3), tier(2)])?.label).toBe('2等');
    expect(headlineTier([tier(0, true)])?.label).toBe('ラストワン賞');
    expect(headlineTier([])).toBeNull();
  });
});

describe('catalogue', () => {
  it('parses sort options', () => {
    expect(parseGachaSort('price_desc')).toBe('price_desc');
    expect(parseGachaSort('<script>')).toBe('recommended');
  });
});
