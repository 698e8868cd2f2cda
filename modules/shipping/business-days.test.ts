// The promised shipping date: Golden Week, New Year, weekends, the cut-off hour, and the same answers on a UTC server and a Japanese one.
import { describe, expect, it } from 'vitest';
import {
  HOLIDAY_DATA_RANGE,
  HolidayDataRangeError,
  businessDaysBetween,
  isBusinessDay,
  jstDateOf,
  promisedShipDate,
  shipDeadlineInstant,
  shippingAcceptanceDate,
} from './business-days';
import { GOLDEN, NEW_YEAR_CLOSED, rules } from './testing';

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
