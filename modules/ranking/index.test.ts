// The ranking periods: Japan-time day, week (Monday 00:00) and month boundaries, with the server in UTC,
// across a month end and a year end (the boards themselves are in index.db.test.ts).
import { describe, it, expect } from 'vitest';
import { boardPeriod, jstPeriod } from './index';

/** Monday 2026-11-23 00:00 in Japan is Sunday 15:00 UTC. */
const MONDAY_JST = new Date('2026-11-22T15:00:00Z');
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

describe('jstPeriod', () => {
  it('cuts days at midnight in Japan, not UTC', () => {
    expect(jstPeriod('day', at(MONDAY_JST, -1))).toEqual({
      from: new Date('2026-11-21T15:00:00Z'),
      to: MONDAY_JST,
      start: '2026-11-22',
    });
    expect(jstPeriod('day', MONDAY_JST)).toEqual({
      from: MONDAY_JST,
      to: new Date('2026-11-23T15:00:00Z'),
      start: '2026-11-23',
    });
    expect(jstPeriod('day', new Date('2026-11-23T14:59:59.999Z')).from).toEqual(MONDAY_JST);
  });
  it('runs weeks from Monday 00:00 to the next Monday 00:00 in Japan', () => {
    expect(jstPeriod('week', MONDAY_JST)).toEqual({
      from: MONDAY_JST,
      to: new Date('2026-11-29T15:00:00Z'),
      start: '2026-11-23',
    });
    expect(jstPeriod('week', new Date('2026-11-29T14:59:59.999Z')).from).toEqual(MONDAY_JST);
    expect(jstPeriod('week', at(MONDAY_JST, -1)).start).toBe('2026-11-16');
    // A week across the year end: Monday 28 December 2026 to Monday 4 January 2027.
    expect(jstPeriod('week', new Date('2027-01-03T14:59:59Z'))).toMatchObject({
      start: '2026-12-28',
      to: new Date('2027-01-03T15:00:00Z'),
    });
  });
  it('runs months from the 1st 00:00 in Japan, across the year end', () => {
    expect(jstPeriod('month', new Date('2026-11-30T14:59:59.999Z')).start).toBe('2026-11-01');
    expect(jstPeriod('month', new Date('2026-11-30T15:00:00Z'))).toEqual({
      from: new Date('2026-11-30T15:00:00Z'),
      to: new Date('2026-12-31T15:00:00Z'),
      start: '2026-12-01',
    });
    expect(jstPeriod('month', new Date('2026-12-31T15:00:00Z')).start).toBe('2027-01-01');
    expect(jstPeriod('day', new Date('2026-12-31T15:00:00Z')).start).toBe('2027-01-01');
  });
  it('switches to the previous period of each board', () => {
    const newYear = new Date('2026-12-31T15:00:00Z'); // 1 January 2027, 00:00 in Japan
    expect(boardPeriod('goodluck', 'previous', newYear).start).toBe('2026-12-31');
    expect(boardPeriod('exp', 'previous', newYear).start).toBe('2026-12-21');
    expect(boardPeriod('level', 'previous', newYear).start).toBe('2026-12-01');
    expect(boardPeriod('level', 'current', newYear).start).toBe('2027-01-01');
  });
});
