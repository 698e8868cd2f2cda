// Round arithmetic at its edges: the millisecond before, at and after a round's time, the genesis, and
// the target round of a draw accepted at each of those moments; then the same rules for any moment.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propertyRuns, testSettings } from '#tests/settings';
import { QUICKNET } from './chain-info';
import { firstRoundAfter, roundAt, roundTime } from './rounds';

const GENESIS_MS = QUICKNET.genesis_time * 1000; // 1692803367000
const PERIOD_MS = QUICKNET.period * 1000;

describe('roundTime', () => {
  it('puts round 1 at the genesis and one period between rounds', () => {
    expect(roundTime(QUICKNET, 1)).toBe(GENESIS_MS);
    expect(roundTime(QUICKNET, 2)).toBe(GENESIS_MS + PERIOD_MS);
    // drand/go-clients client/http/example_test.go fetches quicknet's round 1234: due 1233 periods after genesis.
    expect(roundTime(QUICKNET, 1234)).toBe(GENESIS_MS + 1233 * PERIOD_MS);
    expect(new Date(roundTime(QUICKNET, 12040883)).toISOString()).toBe('2024-10-14T17:13:33.000Z');
  });

  it('refuses what is not a round', () => {
    for (const round of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => roundTime(QUICKNET, round)).toThrow(RangeError);
    expect(() => roundTime(QUICKNET, Number.MAX_SAFE_INTEGER)).toThrow(/beyond/);
    expect(() => roundTime({ genesis_time: 0, period: 0 }, 1)).toThrow(RangeError);
  });
});

describe('roundAt', () => {
  it('is 0 before the genesis and 1 from the genesis millisecond on', () => {
    expect(roundAt(QUICKNET, GENESIS_MS - 1)).toBe(0);
    expect(roundAt(QUICKNET, 0)).toBe(0);
    expect(roundAt(QUICKNET, GENESIS_MS)).toBe(1);
  });

  it('makes a round current from its own time, inclusive, to the next round’s time, exclusive', () => {
    const time42 = roundTime(QUICKNET, 42);
    expect(roundAt(QUICKNET, time42 - 1)).toBe(41);
    expect(roundAt(QUICKNET, time42)).toBe(42);
    expect(roundAt(QUICKNET, time42 + 1)).toBe(42);
    expect(roundAt(QUICKNET, time42 + PERIOD_MS - 1)).toBe(42);
    expect(roundAt(QUICKNET, time42 + PERIOD_MS)).toBe(43);
    expect(roundAt(QUICKNET, time42 + 0.5)).toBe(42);
  });

  it('refuses a moment that is not one', () => {
    expect(() => roundAt(QUICKNET, Number.NaN)).toThrow(RangeError);
    expect(() => roundAt(QUICKNET, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('firstRoundAfter (a draw’s target round)', () => {
  it('never takes a round due at the very moment of acceptance', () => {
    const time42 = roundTime(QUICKNET, 42);
    expect(firstRoundAfter(QUICKNET, time42 - 1)).toBe(42);
    expect(firstRoundAfter(QUICKNET, time42)).toBe(43);
    expect(firstRoundAfter(QUICKNET, time42 + PERIOD_MS - 1)).toBe(43);
  });

  it('is round 1 for any moment before the genesis, and round 2 at the genesis', () => {
    expect(firstRoundAfter(QUICKNET, GENESIS_MS - 1)).toBe(1);
    expect(firstRoundAfter(QUICKNET, 0)).toBe(1);
    expect(firstRoundAfter(QUICKNET, GENESIS_MS)).toBe(2);
  });

  it('is, for any moment and any chain, the round due after it with no round due in between', () => {
    const chains = fc.record({
      genesis_time: fc.integer({ min: 0, max: 2_000_000_000 }),
      period: fc.integer({ min: 1, max: 120 }),
    });
    fc.assert(
      fc.property(chains, fc.integer({ min: 0, max: 4_000_000_000_000 }), (chain, atMs) => {
        const target = firstRoundAfter(chain, atMs);
        expect(roundTime(chain, target)).toBeGreaterThan(atMs);
        if (target > 1) expect(roundTime(chain, target - 1)).toBeLessThanOrEqual(atMs);
        const current = roundAt(chain, atMs);
        expect(current).toBe(target - 1);
        if (current >= 1) expect(roundTime(chain, current)).toBeLessThanOrEqual(atMs);
      }),
      { numRuns: propertyRuns(500), seed: testSettings.propertySeed },
    );
  });
});
