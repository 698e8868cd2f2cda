// The promised shipping date: Golden Week, New Year, weekends, the cut-off hour, and the same answers on a UTC server and a Japanese one.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scaledTimeout } from '#tests/settings';
import {
  HOLIDAY_DATA_RANGE,
  HolidayDataRangeError,
  businessDaysBetween,
  isBusinessDay,
  jstDateOf,
  promisedShipDate,
  shipDeadlineInstant,
  shippingAcceptanceDate,
  type ShippingDateRules,
} from './business-days';

const rules = (overrides: Partial<ShippingDateRules> = {}): ShippingDateRules => ({
  businessDays: 5,
  closedDays: [],
  cutoffHour: 15,
  ...overrides,
});

/** A shop closed for 年末年始 from 12/29 to 1/3: 1/2 and 1/3 are not public holidays, so only this list closes them. */
const NEW_YEAR_CLOSED = ['2027-12-29', '2027-12-30', '2027-12-31', '2028-01-02', '2028-01-03'];

/**
 * The golden table, written in Japan time. Each case is also computed in child processes whose zone is
 * UTC, Asia/Tokyo and America/Los_Angeles (below): the answers must not depend on the server's zone.
 */
const GOLDEN: { name: string; requestedAt: string; rules: ShippingDateRules; acceptance: string; promised: string }[] =
  [
    {
      // 4/28 W (1), 4/29 昭和の日, 4/30 F (2), weekend, 5/3–5/5 holidays, 5/6 (3), 5/7 (4), 5/10 (5).
      name: 'Golden Week 2027: requested Tuesday morning before it',
      requestedAt: '2027-04-27T10:00:00+09:00',
      rules: rules(),
      acceptance: '2027-04-27',
      promised: '2027-05-10',
    },
    {
      name: 'Golden Week 2027: requested after the cut-off on the eve of 昭和の日, accepted on 4/30',
      requestedAt: '2027-04-28T16:00:00+09:00',
      rules: rules(),
      acceptance: '2027-04-30',
      promised: '2027-05-12',
    },
    {
      name: 'Golden Week 2027: requested on 昭和の日 itself',
      requestedAt: '2027-04-29T09:00:00+09:00',
      rules: rules(),
      acceptance: '2027-04-30',
      promised: '2027-05-12',
    },
    {
      name: 'Golden Week 2027: requested on Saturday 5/1, accepted on Thursday 5/6',
      requestedAt: '2027-05-01T10:00:00+09:00',
      rules: rules(),
      acceptance: '2027-05-06',
      promised: '2027-05-13',
    },
    {
      name: 'a Saturday request counts from Monday',
      requestedAt: '2027-06-05T11:00:00+09:00',
      rules: rules(),
      acceptance: '2027-06-07',
      promised: '2027-06-14',
    },
    {
      // Monday 23:59 in Japan is 14:59 UTC the same day: a server reading UTC hours would take it as before 15:00.
      name: 'Monday 23:59 in Japan is after the cut-off',
      requestedAt: '2027-06-07T23:59:00+09:00',
      rules: rules(),
      acceptance: '2027-06-08',
      promised: '2027-06-15',
    },
    {
      // Tuesday 00:01 in Japan is still Monday (15:01) in UTC.
      name: 'Tuesday 00:01 in Japan is Tuesday, before the cut-off',
      requestedAt: '2027-06-08T00:01:00+09:00',
      rules: rules(),
      acceptance: '2027-06-08',
      promised: '2027-06-15',
    },
    {
      name: 'Friday 14:59 is accepted that day',
      requestedAt: '2027-06-11T14:59:59+09:00',
      rules: rules(),
      acceptance: '2027-06-11',
      promised: '2027-06-18',
    },
    {
      name: 'Friday 15:00 (the cut-off) is accepted on Monday',
      requestedAt: '2027-06-11T15:00:00+09:00',
      rules: rules(),
      acceptance: '2027-06-14',
      promised: '2027-06-21',
    },
    {
      // 12/29 (1), 12/30 (2), 12/31 (3), 1/1 元日 (Saturday), 1/2 Sunday, 1/3 Monday (4): not a public holiday.
      name: 'New Year 2027–28 without closed days: 1/3 (Monday) is a business day',
      requestedAt: '2027-12-28T10:00:00+09:00',
      rules: rules(),
      acceptance: '2027-12-28',
      promised: '2028-01-04',
    },
    {
      // Closed 12/29–1/3: 1/4 (1), 1/5 (2), 1/6 (3), 1/7 (4), 1/10 成人の日, 1/11 (5).
      name: 'New Year 2027–28 with the shop closed 12/29–1/3',
      requestedAt: '2027-12-28T10:00:00+09:00',
      rules: rules({ closedDays: NEW_YEAR_CLOSED }),
      acceptance: '2027-12-28',
      promised: '2028-01-11',
    },
    {
      name: 'New Year: a request on 12/31 while closed is accepted on 1/4',
      requestedAt: '2027-12-31T09:00:00+09:00',
      rules: rules({ closedDays: NEW_YEAR_CLOSED }),
      acceptance: '2028-01-04',
      promised: '2028-01-12',
    },
    {
      name: '0 business days: the acceptance day itself',
      requestedAt: '2027-04-28T16:00:00+09:00',
      rules: rules({ businessDays: 0 }),
      acceptance: '2027-04-30',
      promised: '2027-04-30',
    },
    {
      name: 'cut-off 24: a late request on a business day is accepted that day',
      requestedAt: '2027-06-07T23:59:00+09:00',
      rules: rules({ cutoffHour: 24, businessDays: 1 }),
      acceptance: '2027-06-07',
      promised: '2027-06-08',
    },
    {
      name: 'cut-off 0: every request counts from the next business day',
      requestedAt: '2027-06-07T00:00:00+09:00',
      rules: rules({ cutoffHour: 0, businessDays: 1 }),
      acceptance: '2027-06-08',
      promised: '2027-06-09',
    },
  ];

describe('promisedShipDate', () => {
  it.each(GOLDEN)('$name', ({ requestedAt, rules, acceptance, promised }) => {
    expect(shippingAcceptanceDate(new Date(requestedAt), rules)).toBe(acceptance);
    expect(promisedShipDate(new Date(requestedAt), rules)).toBe(promised);
    // The promise is exactly N business days after acceptance, by the other function's count.
    expect(businessDaysBetween(acceptance, promised, rules.closedDays)).toBe(rules.businessDays);
  });

  it('refuses rules that are not whole numbers in range, and closed days that are not dates', () => {
    const at = new Date('2027-06-07T10:00:00+09:00');
    expect(() => promisedShipDate(at, rules({ businessDays: -1 }))).toThrow(RangeError);
    expect(() => promisedShipDate(at, rules({ businessDays: 1.5 }))).toThrow(RangeError);
    expect(() => promisedShipDate(at, rules({ cutoffHour: 25 }))).toThrow(RangeError);
    expect(() => promisedShipDate(at, rules({ cutoffHour: 14.5 }))).toThrow(RangeError);
    expect(() => promisedShipDate(at, rules({ closedDays: ['2027/12/29'] }))).toThrow(/YYYY-MM-DD/);
    expect(() => promisedShipDate(at, rules({ closedDays: ['2027-02-30'] }))).toThrow(/YYYY-MM-DD/);
    expect(() => promisedShipDate(new Date('nonsense'), rules())).toThrow(RangeError);
  });

  it('refuses to promise past the holiday table (2050) with a message that says to update the package', () => {
    expect(HOLIDAY_DATA_RANGE).toEqual({ first: '1970-01-01', last: '2050-12-31' });
    // Inside: a request on 12/23/2050 (Friday) is promised on 12/30.
    expect(promisedShipDate(new Date('2050-12-23T10:00:00+09:00'), rules())).toBe('2050-12-30');
    // The 5th business day would be in 2051, where holidays are unknown.
    const late = () => promisedShipDate(new Date('2050-12-27T10:00:00+09:00'), rules());
    expect(late).toThrow(HolidayDataRangeError);
    expect(late).toThrow(/2051-01-0\d is a business day is unknown: update the package/);
    expect(() => isBusinessDay('2051-01-05', [])).toThrow(HolidayDataRangeError);
    expect(() => isBusinessDay('1969-12-31', [])).toThrow(HolidayDataRangeError);
  });
});

describe('isBusinessDay', () => {
  it('skips weekends, public holidays (substitute ones too) and closed days', () => {
    expect(isBusinessDay('2027-04-28', [])).toBe(true);
    expect(isBusinessDay('2027-04-29', [])).toBe(false); // 昭和の日
    expect(isBusinessDay('2027-05-01', [])).toBe(false); // Saturday
    expect(isBusinessDay('2027-05-02', [])).toBe(false); // Sunday
    expect(isBusinessDay('2027-05-05', [])).toBe(false); // こどもの日
    expect(isBusinessDay('2027-03-22', [])).toBe(false); // 春分の日 振替休日
    expect(isBusinessDay('2028-01-03', [])).toBe(true); // Monday, not a public holiday
    expect(isBusinessDay('2028-01-03', NEW_YEAR_CLOSED)).toBe(false);
  });

  it('refuses what is not a calendar date', () => {
    expect(() => isBusinessDay('2027-5-1', [])).toThrow(RangeError);
    expect(() => isBusinessDay('2027-02-29', [])).toThrow(RangeError);
  });
});

describe('businessDaysBetween', () => {
  it('counts after the first date up to and including the second; negative backwards; 0 for the same day', () => {
    expect(businessDaysBetween('2027-04-28', '2027-05-06', [])).toBe(2);
    expect(businessDaysBetween('2027-05-06', '2027-04-28', [])).toBe(-2);
    expect(businessDaysBetween('2027-05-10', '2027-05-10', [])).toBe(0);
    // A promise of 5/10 still unshipped on 5/12 is 2 business days late.
    expect(businessDaysBetween('2027-05-10', '2027-05-12', [])).toBe(2);
    expect(businessDaysBetween('2027-12-28', '2028-01-04', [])).toBe(5);
    expect(businessDaysBetween('2027-12-28', '2028-01-04', NEW_YEAR_CLOSED)).toBe(1);
  });
});

describe('jstDateOf and shipDeadlineInstant', () => {
  it('reads the Japanese date of an instant, across the UTC date line', () => {
    expect(jstDateOf(new Date('2027-06-07T14:59:59.999Z'))).toBe('2027-06-07');
    expect(jstDateOf(new Date('2027-06-07T15:00:00Z'))).toBe('2027-06-08');
    expect(jstDateOf(new Date('2027-12-31T15:00:00Z'))).toBe('2028-01-01');
  });

  it('ends a promised day at 24:00 in Japan (15:00 UTC the same date)', () => {
    expect(shipDeadlineInstant('2027-05-10').toISOString()).toBe('2027-05-10T15:00:00.000Z');
    expect(shipDeadlineInstant('2027-12-31').toISOString()).toBe('2027-12-31T15:00:00.000Z');
    expect(shipDeadlineInstant('2028-02-28').toISOString()).toBe('2028-02-28T15:00:00.000Z');
    // The last millisecond of the day is still in time; the deadline instant itself is late.
    const deadline = shipDeadlineInstant('2027-05-10');
    expect(jstDateOf(new Date(deadline.getTime() - 1))).toBe('2027-05-10');
    expect(jstDateOf(deadline)).toBe('2027-05-11');
    expect(() => shipDeadlineInstant('2027-13-01')).toThrow(RangeError);
  });
});

describe('on servers in other time zones', () => {
  const root = path.resolve(import.meta.dirname, '..', '..');
  // A fresh Node process per zone: TZ is read at start, before any module (the holiday package
  // included) is loaded, exactly as on a server started with TZ=UTC.
  const probe = `
    const days = await import('./modules/shipping/business-days.ts');
    const cases = JSON.parse(process.env.GOLDEN_CASES);
    const answers = cases.map((c) => [
      days.shippingAcceptanceDate(new Date(c.requestedAt), c.rules),
      days.promisedShipDate(new Date(c.requestedAt), c.rules),
    ]);
    console.log(JSON.stringify({
      zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      offsetMinutes: new Date('2027-06-07T12:00:00Z').getTimezoneOffset(),
      answers,
      holiday: days.isBusinessDay('2027-04-29', []),
      deadline: days.shipDeadlineInstant('2027-05-10').toISOString(),
    }));
  `;
  const runIn = (zone: string) =>
    new Promise<{ zone: string; offsetMinutes: number; answers: string[][]; holiday: boolean; deadline: string }>(
      (resolve, reject) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '--eval', probe],
          {
            cwd: root,
            env: { ...process.env, TZ: zone, GOLDEN_CASES: JSON.stringify(GOLDEN) },
            timeout: scaledTimeout(60_000),
          },
          (error, stdout, stderr) =>
            error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
        );
      },
    );

  it.each([
    { zone: 'UTC', offsetMinutes: 0 },
    { zone: 'Asia/Tokyo', offsetMinutes: -540 },
    { zone: 'America/Los_Angeles', offsetMinutes: 420 },
  ])(
    'gives the Japanese answers with TZ=$zone',
    async ({ zone, offsetMinutes }) => {
      const result = await runIn(zone);
      // The process really ran in that zone (so a Date's local fields there are not Japan's)…
      expect(result.zone).toBe(zone);
      expect(result.offsetMinutes).toBe(offsetMinutes);
      // …and still answered in Japanese calendar days.
      expect(result.answers).toEqual(GOLDEN.map((c) => [c.acceptance, c.promised]));
      expect(result.holiday).toBe(false);
      expect(result.deadline).toBe('2027-05-10T15:00:00.000Z');
    },
    scaledTimeout(60_000),
  );
});
