// Tokyo's wall clock computed without Intl from 1952 on (issue 32), checked against the platform's zone data at
// every instant to 2200, and the summer time of 1948–1951 still read from the zone data. Beside shop-dates.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatShopDate, formatShopDateWithWeekday } from './shop-dates';

describe("Tokyo's wall clock without Intl since 1952", () => {
  // The platform's zone data, as the helpers read it before 1952 (and everywhere before issue 32).
  const tokyo = new Intl.DateTimeFormat('en-US', {
    timeZone: 'Asia/Tokyo',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    weekday: 'short',
  });
  const intlText = (time: number) => {
    const p = Object.fromEntries(tokyo.formatToParts(time).map((part) => [part.type, part.value]));
    return `${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute}:${p.second} ${p.weekday}`;
  };
  const WEEKDAYS: Record<string, string> = {
    日: 'Sun',
    月: 'Mon',
    火: 'Tue',
    水: 'Wed',
    木: 'Thu',
    金: 'Fri',
    土: 'Sat',
  };
  const ourText = (time: number) =>
    `${formatShopDate(time, 'timestamp', 'slash')} ${WEEKDAYS[formatShopDateWithWeekday(time).slice(-2, -1)]}`;

  it('agrees with the zone data at every instant from 1952 to 2200', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1951, 11, 31, 15), max: Date.UTC(2200, 0, 1) }), (time) => {
        expect(ourText(time)).toBe(intlText(time));
      }),
      { numRuns: 5000 },
    );
  });

  it('still reads the summer time of 1948–1951 from the zone data', () => {
    // 1949-07-01 12:00 JDT (UTC+10) is 02:00 UTC.
    const summer = Date.UTC(1949, 6, 1, 2);
    expect(ourText(summer)).toBe(intlText(summer));
    expect(formatShopDate(summer, 'iso')).toBe('1949-07-01T12:00:00.000+10:00');
    // Around the switch to the fixed offset.
    for (const time of [Date.UTC(1951, 11, 31, 14, 59, 59), Date.UTC(1951, 11, 31, 15), Date.UTC(1952, 0, 1)])
      expect(ourText(time)).toBe(intlText(time));
  });
});
