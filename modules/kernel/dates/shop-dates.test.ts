// Tests for the shop date helpers; they must pass whatever the process TZ is (run under UTC and America/Los_Angeles).
import { describe, expect, it } from 'vitest';
import {
  SHOP_TIME_ZONE,
  formatCountdown,
  formatDay,
  formatIso,
  formatMd,
  formatRemainingShort,
  formatShopDate,
  formatShopDateWithWeekday,
  formatTimeLimit,
  formatTimestamp,
  formatYm,
  formatYmd,
  formatYmdHm,
  formatMemberDate,
  formatMemberDateTime,
  formatStaffDate,
  formatStaffDateTime,
  isDeadlineNear,
  parseTimeLimit,
  type DateFormatName,
  type DateSeparator,
} from './shop-dates';
import { startOfShopDay, startOfShopMonth, startOfShopWeek, toShopZone } from './zone';

// 2026-11-22 00:04:05.123 JST (a Sunday).
const SAMPLE = '2026-11-21T15:04:05.123Z';
const SAMPLE_MS = Date.UTC(2026, 10, 21, 15, 4, 5, 123);
const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('SHOP_TIME_ZONE', () => {
  it('is Asia/Tokyo', () => {
    expect(SHOP_TIME_ZONE).toBe('Asia/Tokyo');
  });
});

describe('formatShopDate', () => {
  const expected: Record<DateFormatName, Record<DateSeparator, string>> = {
    iso: {
      hyphen: '2026-11-22T00:04:05.123+09:00',
      slash: '2026-11-22T00:04:05.123+09:00',
      ja: '2026-11-22T00:04:05.123+09:00',
    },
    timestamp: {
      hyphen: '2026-11-22 00:04:05',
      slash: '2026/11/22 00:04:05',
      ja: '2026年11月22日 00時04分05秒',
    },
    ymdhm: { hyphen: '2026-11-22 00:04', slash: '2026/11/22 00:04', ja: '2026年11月22日 00時04分' },
    ymd: { hyphen: '2026-11-22', slash: '2026/11/22', ja: '2026年11月22日' },
    ym: { hyphen: '2026-11', slash: '2026/11', ja: '2026年11月' },
    md: { hyphen: '11-22', slash: '11/22', ja: '11月22日' },
    d: { hyphen: '22', slash: '22', ja: '22日' },
  };
  const cases = Object.entries(expected).flatMap(([name, bySep]) =>
    Object.entries(bySep).map(([sep, out]) => [name as DateFormatName, sep as DateSeparator, out] as const),
  );

  it.each(cases)('%s / %s → %s', (name, sep, out) => {
    expect(formatShopDate(SAMPLE, name, sep)).toBe(out);
    expect(formatShopDate(SAMPLE_MS, name, sep)).toBe(out);
    expect(formatShopDate(new Date(SAMPLE_MS), name, sep)).toBe(out);
  });

  it('defaults to the hyphen separator', () => {
    expect(formatShopDate(SAMPLE, 'ymd')).toBe('2026-11-22');
    expect(formatShopDate(SAMPLE, 'timestamp')).toBe('2026-11-22 00:04:05');
  });

  it('accepts ISO strings with other offsets and forms', () => {
    expect(formatShopDate('2026-11-22T00:04:05.123+09:00', 'iso')).toBe('2026-11-22T00:04:05.123+09:00');
    expect(formatShopDate('2026-11-21T10:04:05-05:00', 'timestamp')).toBe('2026-11-22 00:04:05');
    expect(formatShopDate('2026-11-21T15:04:05.123456Z', 'iso')).toBe('2026-11-22T00:04:05.123+09:00');
    expect(formatShopDate('2026-11-21T15:04Z', 'timestamp')).toBe('2026-11-22 00:04:00');
    expect(formatShopDate('2026-11-21T15:04:05+0000', 'timestamp')).toBe('2026-11-22 00:04:05');
  });

  it('reads strings without an offset as Tokyo time', () => {
    expect(formatShopDate('2026-11-22', 'iso')).toBe('2026-11-22T00:00:00.000+09:00');
    expect(formatShopDate('2026-11-22T00:04:05', 'iso')).toBe('2026-11-22T00:04:05.000+09:00');
    // Its own timestamp output reads back to the same instant.
    expect(formatShopDate('2026-11-22 00:04:05', 'iso')).toBe('2026-11-22T00:04:05.000+09:00');
  });

  it('crosses the JST/UTC day boundary (2026-12-31T15:00Z is New Year in Tokyo)', () => {
    const newYear = '2026-12-31T15:00:00Z';
    expect(formatShopDate(newYear, 'iso')).toBe('2027-01-01T00:00:00.000+09:00');
    expect(formatShopDate(newYear, 'timestamp', 'slash')).toBe('2027/01/01 00:00:00');
    expect(formatShopDate(newYear, 'ymd', 'ja')).toBe('2027年01月01日');
    expect(formatShopDate(newYear, 'ym')).toBe('2027-01');
    expect(formatShopDate(newYear, 'md', 'ja')).toBe('01月01日');
    expect(formatShopDate(newYear, 'd')).toBe('01');
    // One millisecond earlier it is still 2026 in Tokyo.
    expect(formatShopDate(Date.parse(newYear) - 1, 'timestamp')).toBe('2026-12-31 23:59:59');
    expect(formatShopDate(Date.parse(newYear) - 1, 'iso')).toBe('2026-12-31T23:59:59.999+09:00');
  });

  it('returns an empty string for invalid input', () => {
    const invalid: Array<Date | string | number> = [
      new Date(Number.NaN),
      Number.NaN,
      Number.POSITIVE_INFINITY,
      9e15,
      '',
      'not a date',
      '2026-13-01',
      '2026-02-30',
      '2026-11-22T24:00:00Z',
      '2026-11-22T10:60:00Z',
      '2026-11-22T10:00:00+25:00',
      'Nov 22 2026',
    ];
    for (const input of invalid) {
      for (const name of Object.keys(expected) as DateFormatName[]) {
        expect(formatShopDate(input, name, 'ja')).toBe('');
      }
    }
    expect(formatShopDate(SAMPLE, 'bogus' as DateFormatName)).toBe('');
  });

  it('accepts a leap day', () => {
    expect(formatShopDate('2028-02-29', 'ymd', 'ja')).toBe('2028年02月29日');
  });
});

describe('convenience wrappers', () => {
  it('match formatShopDate', () => {
    expect(formatIso(SAMPLE)).toBe('2026-11-22T00:04:05.123+09:00');
    expect(formatIso(SAMPLE, 'ja')).toBe('2026-11-22T00:04:05.123+09:00');
    expect(formatTimestamp(SAMPLE)).toBe('2026-11-22 00:04:05');
    expect(formatTimestamp(SAMPLE, 'ja')).toBe('2026年11月22日 00時04分05秒');
    expect(formatYmdHm(SAMPLE, 'slash')).toBe('2026/11/22 00:04');
    expect(formatYmd(SAMPLE)).toBe('2026-11-22');
    expect(formatYm(SAMPLE_MS, 'ja')).toBe('2026年11月');
    expect(formatMd(new Date(SAMPLE_MS), 'slash')).toBe('11/22');
    expect(formatDay(SAMPLE, 'ja')).toBe('22日');
    expect(formatYmd('garbage')).toBe('');
  });

  it('formatShopDateWithWeekday adds the Japanese weekday', () => {
    expect(formatShopDateWithWeekday(SAMPLE)).toBe('2026年11月22日(日)');
    expect(formatShopDateWithWeekday('2026-12-31T15:00:00Z')).toBe('2027年01月01日(金)');
    // 23:59 UTC on a Sunday is already Monday in Tokyo.
    expect(formatShopDateWithWeekday('2026-11-22T23:59:00Z')).toBe('2026年11月23日(月)');
    expect(formatShopDateWithWeekday('nope')).toBe('');
  });
});

describe('toShopZone', () => {
  it('gives Tokyo wall-clock getters', () => {
    const zoned = toShopZone('2026-12-31T15:00:00Z');
    expect(zoned).not.toBeNull();
    expect(zoned?.getFullYear()).toBe(2027);
    expect(zoned?.getMonth()).toBe(0);
    expect(zoned?.getDate()).toBe(1);
    expect(zoned?.getHours()).toBe(0);
    expect(zoned?.getTime()).toBe(Date.UTC(2026, 11, 31, 15));
    expect(zoned?.timeZone).toBe('Asia/Tokyo');
  });

  it('returns null for invalid input', () => {
    expect(toShopZone('x')).toBeNull();
    expect(toShopZone(Number.NaN)).toBeNull();
    expect(toShopZone(new Date('invalid'))).toBeNull();
  });
});

describe('formatCountdown', () => {
  it('shows m:ss under one hour', () => {
    expect(formatCountdown(4 * MIN + 5 * SEC)).toBe('4:05');
    expect(formatCountdown(9 * SEC)).toBe('0:09');
    expect(formatCountdown(59 * MIN + 59 * SEC)).toBe('59:59');
  });

  it('switches to h:mm:ss at exactly one hour', () => {
    expect(formatCountdown(HOUR - SEC)).toBe('59:59');
    expect(formatCountdown(HOUR)).toBe('1:00:00');
    expect(formatCountdown(HOUR + SEC)).toBe('1:00:01');
  });

  it('does not fold hours into days', () => {
    expect(formatCountdown(26 * HOUR + 3 * MIN + 9 * SEC)).toBe('26:03:09');
  });

  it('rounds up to whole seconds so it never shows 0:00 while time remains', () => {
    expect(formatCountdown(1)).toBe('0:01');
    expect(formatCountdown(999)).toBe('0:01');
    expect(formatCountdown(1000)).toBe('0:01');
    expect(formatCountdown(1001)).toBe('0:02');
    expect(formatCountdown(HOUR - 999)).toBe('1:00:00');
  });

  it('is empty at exactly zero, when negative, or invalid', () => {
    expect(formatCountdown(0)).toBe('');
    expect(formatCountdown(-1)).toBe('');
    expect(formatCountdown(-HOUR)).toBe('');
    expect(formatCountdown(Number.NaN)).toBe('');
    expect(formatCountdown(0, 'ja')).toBe('');
    expect(formatCountdown({ until: 'bad', now: 0 })).toBe('');
  });

  it('has a Japanese-unit variant', () => {
    expect(formatCountdown(4 * MIN + 5 * SEC, 'ja')).toBe('4分05秒');
    expect(formatCountdown(9 * SEC, 'ja')).toBe('0分09秒');
    expect(formatCountdown(HOUR - SEC, 'ja')).toBe('59分59秒');
    expect(formatCountdown(HOUR, 'ja')).toBe('1時間00分00秒');
    expect(formatCountdown(26 * HOUR + 3 * MIN + 9 * SEC, 'ja')).toBe('26時間03分09秒');
  });

  it('accepts { until, now }', () => {
    const now = Date.parse('2026-11-22T00:00:00+09:00');
    expect(formatCountdown({ until: '2026-11-22T00:04:05+09:00', now })).toBe('4:05');
    expect(formatCountdown({ until: now + HOUR, now: new Date(now) }, 'ja')).toBe('1時間00分00秒');
    expect(formatCountdown({ until: new Date(now), now })).toBe('');
    expect(formatCountdown({ until: now - SEC, now })).toBe('');
  });

  it('defaults now to the current time', () => {
    expect(formatCountdown({ until: Date.now() + 10 * HOUR })).toMatch(/^(9:59:5\d|10:00:00)$/);
    expect(formatCountdown({ until: Date.now() - SEC })).toBe('');
  });
});

describe('formatRemainingShort', () => {
  const now = Date.parse('2026-11-22T00:00:00+09:00');
  it('uses days, hours, minutes, rounded down', () => {
    expect(formatRemainingShort(now + 3 * DAY + 23 * HOUR, now)).toBe('残り3日');
    expect(formatRemainingShort(now + DAY, now)).toBe('残り1日');
    expect(formatRemainingShort(now + DAY - 1, now)).toBe('残り23時間');
    expect(formatRemainingShort(now + 5 * HOUR + 59 * MIN, now)).toBe('残り5時間');
    expect(formatRemainingShort(now + HOUR, now)).toBe('残り1時間');
    expect(formatRemainingShort(now + HOUR - 1, now)).toBe('残り59分');
    expect(formatRemainingShort(now + 12 * MIN + 30 * SEC, now)).toBe('残り12分');
    expect(formatRemainingShort(now + MIN, now)).toBe('残り1分');
    expect(formatRemainingShort(now + MIN - 1, now)).toBe('残り1分未満');
    expect(formatRemainingShort(now + 1, now)).toBe('残り1分未満');
  });

  it('is empty once passed or invalid', () => {
    expect(formatRemainingShort(now, now)).toBe('');
    expect(formatRemainingShort(now - DAY, now)).toBe('');
    expect(formatRemainingShort('garbage', now)).toBe('');
  });

  it('accepts strings and Dates', () => {
    expect(formatRemainingShort('2026-11-25T12:00:00+09:00', new Date(now))).toBe('残り3日');
    expect(formatRemainingShort(new Date(now + 2 * HOUR), now)).toBe('残り2時間');
    expect(formatRemainingShort(Date.now() + 3 * DAY + HOUR)).toBe('残り3日');
  });
});

describe('parseTimeLimit', () => {
  const now = Date.parse('2026-11-22T00:00:00+09:00');
  const offset = (text: string): number | null => {
    const d = parseTimeLimit(text, now);
    return d === null ? null : d.getTime() - now;
  };

  it('parses HH:MM:SS', () => {
    expect(offset('02:00:00')).toBe(2 * HOUR);
    expect(offset('00:00:01')).toBe(SEC);
    expect(offset('00:00:00')).toBe(0);
    expect(offset('23:59:59')).toBe(DAY - SEC);
    expect(offset('2:03:04')).toBe(2 * HOUR + 3 * MIN + 4 * SEC);
    expect(offset('99:00:00')).toBe(99 * HOUR);
  });

  it('parses D HH:MM:SS', () => {
    expect(offset('1 02:00:00')).toBe(DAY + 2 * HOUR);
    expect(offset('0 00:30:00')).toBe(30 * MIN);
    expect(offset('365 23:59:59')).toBe(365 * DAY + DAY - SEC);
    expect(parseTimeLimit('1 02:00:00', now)?.toISOString()).toBe('2026-11-22T17:00:00.000Z');
  });

  it('trims spaces and normalises full-width input', () => {
    expect(offset('  1 02:00:00 ')).toBe(DAY + 2 * HOUR);
    expect(offset('１ ０２：００：００')).toBe(DAY + 2 * HOUR);
    expect(offset('１　０２：００：００　')).toBe(DAY + 2 * HOUR);
    expect(offset('０２：３０：００')).toBe(2 * HOUR + 30 * MIN);
  });

  it('rejects malformed input', () => {
    const bad = [
      '',
      '   ',
      '02:60:00',
      '02:00:60',
      '1 24:00:00',
      '100:00:00',
      '02:00',
      '1 02:00',
      '02',
      '1d 02:00:00',
      'ab:cd:ef',
      '02:0a:00',
      '-1 02:00:00',
      '1 2:3:4',
      '02:00:00:00',
      '1  x02:00:00',
      '1.5 02:00:00',
    ];
    for (const text of bad) expect(parseTimeLimit(text, now), text).toBeNull();
  });

  it('rejects results outside the Date range and invalid now', () => {
    expect(parseTimeLimit('999999999999 00:00:00', now)).toBeNull();
    expect(parseTimeLimit('01:00:00', Number.NaN)).toBeNull();
    expect(parseTimeLimit('01:00:00', new Date('invalid'))).toBeNull();
  });

  it('accepts a Date as now and defaults to the current time', () => {
    expect(parseTimeLimit('01:00:00', new Date(now))?.getTime()).toBe(now + HOUR);
    const before = Date.now();
    const result = parseTimeLimit('01:00:00');
    const after = Date.now();
    expect(result).not.toBeNull();
    expect(result!.getTime()).toBeGreaterThanOrEqual(before + HOUR);
    expect(result!.getTime()).toBeLessThanOrEqual(after + HOUR);
  });
});

describe('formatTimeLimit', () => {
  it('formats the canonical form', () => {
    expect(formatTimeLimit(0)).toBe('00:00:00');
    expect(formatTimeLimit(2 * HOUR + 3 * MIN + 4 * SEC)).toBe('02:03:04');
    expect(formatTimeLimit(DAY - SEC)).toBe('23:59:59');
    expect(formatTimeLimit(DAY)).toBe('1 00:00:00');
    expect(formatTimeLimit(26 * HOUR + 5 * SEC)).toBe('1 02:00:05');
    expect(formatTimeLimit(400 * DAY + 1)).toBe('400 00:00:00');
    expect(formatTimeLimit(1999)).toBe('00:00:01');
  });

  it('is empty for negative or non-finite durations', () => {
    expect(formatTimeLimit(-1)).toBe('');
    expect(formatTimeLimit(Number.NaN)).toBe('');
    expect(formatTimeLimit(Number.POSITIVE_INFINITY)).toBe('');
  });

  it('round-trips with parseTimeLimit', () => {
    const now = Date.parse('2026-11-22T00:00:00+09:00');
    const canonical = ['00:00:00', '00:00:01', '02:03:04', '23:59:59', '1 00:00:00', '1 02:00:05', '123 12:34:56'];
    for (const text of canonical) {
      const parsed = parseTimeLimit(text, now);
      expect(parsed, text).not.toBeNull();
      expect(formatTimeLimit(parsed!.getTime() - now)).toBe(text);
    }
    // Non-canonical inputs come back in canonical form.
    const roundTrip = (text: string): string => formatTimeLimit(parseTimeLimit(text, now)!.getTime() - now);
    expect(roundTrip('30:00:00')).toBe('1 06:00:00');
    expect(roundTrip('2:03:04')).toBe('02:03:04');
    expect(roundTrip('0 01:00:00')).toBe('01:00:00');
    expect(roundTrip('１ ０２：００：００')).toBe('1 02:00:00');
    // And durations survive format → parse.
    for (const ms of [0, SEC, 59 * MIN, DAY + 1234 * SEC, 987 * DAY + 86_399 * SEC]) {
      expect(parseTimeLimit(formatTimeLimit(ms), now)?.getTime()).toBe(now + ms);
    }
  });
});

describe('period starts (JST)', () => {
  // Sunday 2026-11-22 23:30 JST = 2026-11-22T14:30Z.
  const sundayNight = '2026-11-22T14:30:00Z';

  it('startOfShopDay is Tokyo midnight', () => {
    expect(startOfShopDay(sundayNight).toISOString()).toBe('2026-11-21T15:00:00.000Z');
    // 00:30 JST on the 23rd is 15:30Z on the 22nd: the day started 30 minutes earlier.
    expect(startOfShopDay('2026-11-22T15:30:00Z').toISOString()).toBe('2026-11-22T15:00:00.000Z');
    expect(startOfShopDay('2026-12-31T15:00:00Z').toISOString()).toBe('2026-12-31T15:00:00.000Z');
    expect(startOfShopDay(Date.UTC(2026, 11, 31, 14, 59, 59, 999)).toISOString()).toBe('2026-12-30T15:00:00.000Z');
    expect(startOfShopDay(sundayNight)).toBeInstanceOf(Date);
  });

  it('startOfShopWeek is Monday 00:00 JST', () => {
    // Sunday night belongs to the week that began Monday 16 Nov 00:00 JST = Sunday 15 Nov 15:00Z.
    expect(startOfShopWeek(sundayNight).toISOString()).toBe('2026-11-15T15:00:00.000Z');
    // Monday 00:00 JST itself starts a new week…
    expect(startOfShopWeek('2026-11-22T15:00:00Z').toISOString()).toBe('2026-11-22T15:00:00.000Z');
    // …even though it is still Sunday in UTC and in Los Angeles.
    expect(startOfShopWeek('2026-11-23T00:00:00+09:00').toISOString()).toBe('2026-11-22T15:00:00.000Z');
    // A mid-week instant.
    expect(startOfShopWeek('2026-11-18T12:00:00+09:00').toISOString()).toBe('2026-11-15T15:00:00.000Z');
    // A week spanning the new year.
    expect(startOfShopWeek('2027-01-01T00:00:00+09:00').toISOString()).toBe('2026-12-27T15:00:00.000Z');
  });

  it('startOfShopMonth is the 1st 00:00 JST', () => {
    expect(startOfShopMonth(sundayNight).toISOString()).toBe('2026-10-31T15:00:00.000Z');
    // 30 Nov 15:00Z is already 1 Dec in Tokyo.
    expect(startOfShopMonth('2026-11-30T15:00:00Z').toISOString()).toBe('2026-11-30T15:00:00.000Z');
    expect(startOfShopMonth('2026-11-30T14:59:59.999Z').toISOString()).toBe('2026-10-31T15:00:00.000Z');
    expect(startOfShopMonth('2026-12-31T15:00:00Z').toISOString()).toBe('2026-12-31T15:00:00.000Z');
  });

  it('returns an Invalid Date for invalid input', () => {
    expect(Number.isNaN(startOfShopDay('nope').getTime())).toBe(true);
    expect(Number.isNaN(startOfShopWeek(Number.NaN).getTime())).toBe(true);
    expect(Number.isNaN(startOfShopMonth(new Date('x')).getTime())).toBe(true);
    expect(formatYmd(startOfShopDay('nope'))).toBe('');
  });
});

describe('the formats against date-fns (the library they were written with before issue 17)', () => {
  it('writes every format and separator exactly as date-fns format() on the Tokyo date', async () => {
    const fc = (await import('fast-check')).default;
    const { format } = await import('date-fns');
    const { ja } = await import('date-fns/locale');
    const { TZDate } = await import('@date-fns/tz');
    const patterns = {
      timestamp: {
        hyphen: 'yyyy-MM-dd HH:mm:ss',
        slash: 'yyyy/MM/dd HH:mm:ss',
        ja: "yyyy'年'MM'月'dd'日' HH'時'mm'分'ss'秒'",
      },
      ymdhm: { hyphen: 'yyyy-MM-dd HH:mm', slash: 'yyyy/MM/dd HH:mm', ja: "yyyy'年'MM'月'dd'日' HH'時'mm'分'" },
      ymd: { hyphen: 'yyyy-MM-dd', slash: 'yyyy/MM/dd', ja: "yyyy'年'MM'月'dd'日'" },
      ym: { hyphen: 'yyyy-MM', slash: 'yyyy/MM', ja: "yyyy'年'MM'月'" },
      md: { hyphen: 'MM-dd', slash: 'MM/dd', ja: "MM'月'dd'日'" },
      d: { hyphen: 'dd', slash: 'dd', ja: "dd'日'" },
    } as const;
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2200, 0, 1) }), (time) => {
        const zoned = new TZDate(time, SHOP_TIME_ZONE);
        for (const [name, bySeparator] of Object.entries(patterns)) {
          for (const [separator, pattern] of Object.entries(bySeparator)) {
            expect(formatShopDate(time, name as 'ymd', separator as 'ja')).toBe(format(zoned, pattern, { locale: ja }));
          }
        }
        expect(formatShopDate(time, 'iso')).toBe(format(zoned, "yyyy-MM-dd'T'HH:mm:ss.SSSxxx"));
        expect(formatShopDateWithWeekday(time)).toBe(format(zoned, "yyyy'年'MM'月'dd'日('E')'", { locale: ja }));
        // A Tokyo wall time without an offset reads back as the instant TZDate gives for it.
        const wall = formatShopDate(time, 'timestamp').replace(' ', 'T');
        const [y, mo, d, h, mi, s] = wall.split(/[-T:]/).map(Number) as [
          number,
          number,
          number,
          number,
          number,
          number,
        ];
        expect(formatIso(wall)).toBe(
          format(new TZDate(y, mo - 1, d, h, mi, s, 0, SHOP_TIME_ZONE), "yyyy-MM-dd'T'HH:mm:ss.SSSxxx"),
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe('the two date styles (decision 060)', () => {
  const NOW = Date.parse('2026-11-29T00:00:00Z');

  it('gives members 「12月7日（月）」 and 「12月7日（月）15:30」 in Tokyo time', () => {
    expect(formatMemberDate('2026-12-07T03:00:00Z', NOW)).toBe('12月7日（月）');
    expect(formatMemberDateTime('2026-12-07T06:30:00Z', NOW)).toBe('12月7日（月）15:30');
    // 15:00 UTC on the 6th is already Monday the 7th in Tokyo.
    expect(formatMemberDate('2026-12-06T15:00:00Z', NOW)).toBe('12月7日（月）');
    expect(formatMemberDateTime('2026-12-06T15:05:00Z', NOW)).toBe('12月7日（月）00:05');
    expect(formatMemberDateTime(new Date('2026-11-29T12:09:00+09:00'), NOW)).toBe('11月29日（日）12:09');
  });

  it('adds the year only when it is not this year in Tokyo', () => {
    expect(formatMemberDate('2027-01-04T03:00:00Z', NOW)).toBe('2027年1月4日（月）');
    expect(formatMemberDateTime('2025-12-31T14:59:00Z', NOW)).toBe('2025年12月31日（水）23:59');
    // New Year in Tokyo while it is still the 31st in UTC: the 1st of January, this year's now.
    expect(formatMemberDate('2026-12-31T15:00:00Z', '2027-01-01T00:00:00+09:00')).toBe('1月1日（金）');
  });

  it('gives staff 「2026/11/29 06:59」 with every part', () => {
    expect(formatStaffDateTime('2026-11-28T21:59:00Z')).toBe('2026/11/29 06:59');
    expect(formatStaffDateTime('2027-01-04T00:00:00+09:00')).toBe('2027/01/04 00:00');
    expect(formatStaffDate('2026-11-28T21:59:00Z')).toBe('2026/11/29');
  });

  it('answers an empty string for what is not a date', () => {
    expect(formatMemberDate('nope')).toBe('');
    expect(formatMemberDateTime(Number.NaN)).toBe('');
    expect(formatStaffDateTime('')).toBe('');
    expect(formatStaffDate('2026-13-01')).toBe('');
  });
});

describe('isDeadlineNear', () => {
  const now = Date.parse('2026-11-29T00:00:00Z');
  it('is neutral until the last three days, then warns', () => {
    expect(isDeadlineNear(now + 13 * DAY, now)).toBe(false);
    expect(isDeadlineNear(now + 3 * DAY + 1, now)).toBe(false);
    expect(isDeadlineNear(now + 3 * DAY, now)).toBe(true);
    expect(isDeadlineNear(now + HOUR, now)).toBe(true);
    expect(isDeadlineNear(now - HOUR, now)).toBe(true);
    expect(isDeadlineNear('nope', now)).toBe(false);
  });
});
