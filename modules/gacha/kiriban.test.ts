// ゾロ目 (issue 34 item 2): which sale numbers are ゾロ目, and a pack's ゾロ目 below its last lot.
import { describe, expect, it } from 'vitest';
import { allZorome, isZorome, zoromeNumbers } from './kiriban';

describe('ゾロ目', () => {
  it('are two or more of one digit', () => {
    expect([11, 22, 99, 111, 2222, 99999].every(isZorome)).toBe(true);
    expect([0, 1, 7, 10, 12, 101, 1211, 1.5, -11, Number.NaN].some(isZorome)).toBe(false);
  });

  it('of a pack lie below its last lot (the ラストワン賞’s), in sale order', () => {
    expect(zoromeNumbers(11)).toEqual([]);
    expect(zoromeNumbers(12)).toEqual([11]);
    expect(zoromeNumbers(300)).toEqual([11, 22, 33, 44, 55, 66, 77, 88, 99, 111, 222]);
    expect(zoromeNumbers(100_000)).toHaveLength(36);
    expect(zoromeNumbers(100_000).at(-1)).toBe(99_999);
  });

  it('name a キリ番賞 only when every number is one', () => {
    expect(allZorome([111, 222])).toBe(true);
    expect(allZorome([111, 200])).toBe(false);
    expect(allZorome([111])).toBe(false);
  });
});
