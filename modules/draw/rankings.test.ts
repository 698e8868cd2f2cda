// The ranking periods: Japan-time day and week boundaries (the rankings themselves are in rankings.db.test.ts).
import { describe, it, expect } from 'vitest';
import { jstPeriod } from './index';

/** Monday 2026-11-23 00:00 in Japan is Sunday 15:00 UTC. */
const MONDAY_JST = new Date('2026-11-22T15:00:00Z');
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

describe('jstPeriod', () => {
  it('cuts days at midnight in Japan, not UTC', () => {
    expect(jstPeriod('day', at(MONDAY_JST, -1))).toEqual({ from: new Date('2026-11-21T15:00:00Z'), to: MONDAY_JST });
    expect(jstPeriod('day', MONDAY_JST)).toEqual({ from: MONDAY_JST, to: new Date('2026-11-23T15:00:00Z') });
    // 08:59 UTC on the 23rd is still Monday evening in Japan.
    expect(jstPeriod('day', new Date('2026-11-23T14:59:59.999Z')).from).toEqual(MONDAY_JST);
  });
  it('runs weeks from Monday 00:00 to the next Monday 00:00 in Japan', () => {
    expect(jstPeriod('week', MONDAY_JST)).toEqual({ from: MONDAY_JST, to: new Date('2026-11-29T15:00:00Z') });
    expect(jstPeriod('week', new Date('2026-11-29T14:59:59.999Z')).from).toEqual(MONDAY_JST);
    // Sunday 23:59:59 in Japan belongs to the week before.
    expect(jstPeriod('week', at(MONDAY_JST, -1))).toEqual({ from: new Date('2026-11-15T15:00:00Z'), to: MONDAY_JST });
  });
});
