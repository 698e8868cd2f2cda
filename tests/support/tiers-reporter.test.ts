import { describe, it, expect } from 'vitest';
import { tiersOf } from './tiers-reporter';

describe('the per-tier record of a run', () => {
  it('counts files, tests, failures and skips per tier, and spans each from its first start to its last end', () => {
    const result = tiersOf([
      { tier: 'db', states: ['passed', 'failed'], start: 1_000, end: 6_000 },
      { tier: 'db', states: ['skipped'], start: 2_000, end: 11_000 },
      { tier: 'integration', states: ['passed', 'passed', 'passed'], start: 11_000, end: 31_000 },
    ]);
    expect(result.tiers).toEqual([
      { tier: 'db', files: 2, tests: 3, failed: 1, skipped: 1, seconds: 10 },
      { tier: 'integration', files: 1, tests: 3, failed: 0, skipped: 0, seconds: 20 },
    ]);
    expect(result.seconds).toBe(30);
  });

  it('records an empty run as no tiers and no time', () => {
    expect(tiersOf([])).toEqual({ tiers: [], seconds: 0 });
  });
});
