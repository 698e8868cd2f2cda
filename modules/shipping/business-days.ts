// The promised shipping date (発送予定日): business days in Japan time, skipping weekends, public holidays and the shop's closed days.
import { TZDate } from '@date-fns/tz';
import holidayJp from '@holiday-jp/holiday_jp';

/**
 * A calendar date in Japan, written `YYYY-MM-DD` (`'2027-05-10'`). The shop counts and promises in
 * Japanese calendar days; an instant becomes one only through `jstDateOf`.
 */
export type JstDate = string;

/** The rules of the promise; every field comes from the settings (no defaults here, so none is forgotten). */
export interface ShippingDateRules {
  /** N: how many business days after the acceptance day the parcel leaves at the latest (0 = the acceptance day itself). */
  businessDays: number;
  /** Days the shop does not ship although they are weekdays (年末年始, 夏季休業…), as `YYYY-MM-DD`. */
  closedDays: readonly JstDate[];
  /**
   * The hour (Japan time, 0–24) from which a request is accepted on the next business day: with 15, a
   * request at 14:59 on a business day is accepted that day, one at 15:00 the next business day.
   * 0 accepts every request on the next business day; 24 accepts any request of a business day on that day.
   */
  cutoffHour: number;
}

const SHOP_TIME_ZONE = 'Asia/Tokyo';
const DAY_MS = 86_400_000;
const JST_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

// The package's table of public holidays, keyed by `YYYY-MM-DD`. Looking a date string up in it is
// the package's own isHoliday(string) without its linear scan. Its isHoliday(Date) is avoided on
// purpose: it reads the Date's local-time fields, i.e. the server's zone (UTC), not Japan's.
const HOLIDAYS: Readonly<Record<string, unknown>> = holidayJp.holidays;
const HOLIDAY_YEARS = Object.keys(HOLIDAYS).map((date) => Number(date.slice(0, 4)));

/**
 * The dates the holiday table covers (whole years). Outside them a date cannot be told to be a
 * business day, so the functions here refuse it instead of guessing; a newer package moves the end.
 * @example HOLIDAY_DATA_RANGE // { first: '1970-01-01', last: '2050-12-31' }
 */
export const HOLIDAY_DATA_RANGE: Readonly<{ first: JstDate; last: JstDate }> = Object.freeze({
  first: `${Math.min(...HOLIDAY_YEARS)}-01-01`,
  last: `${Math.max(...HOLIDAY_YEARS)}-12-31`,
});

/** A date outside `HOLIDAY_DATA_RANGE` was asked about: update @holiday-jp/holiday_jp (it ships the table). */
export class HolidayDataRangeError extends RangeError {
  constructor(readonly date: JstDate) {
    super(
      `Japanese public holidays are known only from ${HOLIDAY_DATA_RANGE.first} to ${HOLIDAY_DATA_RANGE.last} ` +
        `(@holiday-jp/holiday_jp ${holidayJp.VERSION}), so whether ${date} is a business day is unknown: update the package.`,
    );
    this.name = 'HolidayDataRangeError';
  }
}

/** Year, month (1–12), day of a valid `YYYY-MM-DD`, else a RangeError (a caller's mistake, not a member's). */
function readJstDate(date: JstDate): { year: number; month: number; day: number } {
  const match = typeof date === 'string' ? JST_DATE.exec(date) : null;
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const utc = new Date(Date.UTC(year, month - 1, day));
    if (utc.getUTCFullYear() === year && utc.getUTCMonth() === month - 1 && utc.getUTCDate() === day)
      return { year, month, day };
  }
  throw new RangeError(`Not a calendar date YYYY-MM-DD: ${JSON.stringify(date)}`);
}

// Calendar arithmetic on the date alone, through UTC midnight: no zone (and so no server setting) is involved.
const pad2 = (n: number) => String(n).padStart(2, '0');
function dayNumber(date: JstDate): number {
  const { year, month, day } = readJstDate(date);
  return Date.UTC(year, month - 1, day) / DAY_MS;
}
function fromDayNumber(days: number): JstDate {
  const utc = new Date(days * DAY_MS);
  return `${utc.getUTCFullYear()}-${pad2(utc.getUTCMonth() + 1)}-${pad2(utc.getUTCDate())}`;
}

/**
 * The calendar date in Japan at an instant, whatever the server's zone.
 * @example jstDateOf(new Date('2027-06-07T15:01:00Z')) // '2027-06-08' (00:01 in Japan)
 */
export function jstDateOf(instant: Date): JstDate {
  if (Number.isNaN(instant.getTime())) throw new RangeError('Invalid Date');
  const zoned = new TZDate(instant.getTime(), SHOP_TIME_ZONE);
  return `${zoned.getFullYear()}-${pad2(zoned.getMonth() + 1)}-${pad2(zoned.getDate())}`;
}

/**
 * Whether the shop ships on that Japanese date: not Saturday or Sunday, not a public holiday
 * (振替休日 and 国民の休日 included, as the package lists them), not one of the shop's closed days.
 * Throws `HolidayDataRangeError` outside `HOLIDAY_DATA_RANGE`.
 * @example isBusinessDay('2027-04-29', []) // false (昭和の日)
 * @example isBusinessDay('2028-01-03', ['2028-01-03']) // false (a Monday, but the shop is closed)
 */
export function isBusinessDay(date: JstDate, closedDays: readonly JstDate[]): boolean {
  readJstDate(date);
  if (date < HOLIDAY_DATA_RANGE.first || date > HOLIDAY_DATA_RANGE.last) throw new HolidayDataRangeError(date);
  const weekday = new Date(dayNumber(date) * DAY_MS).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  if (Object.hasOwn(HOLIDAYS, date)) return false;
  return !closedDays.includes(date);
}

function checkRules(rules: ShippingDateRules): void {
  if (!Number.isInteger(rules.businessDays) || rules.businessDays < 0)
    throw new RangeError(`businessDays must be a whole number ≥ 0 (got ${rules.businessDays})`);
  if (!Number.isInteger(rules.cutoffHour) || rules.cutoffHour < 0 || rules.cutoffHour > 24)
    throw new RangeError(`cutoffHour must be a whole hour from 0 to 24 (got ${rules.cutoffHour})`);
  for (const closed of rules.closedDays) readJstDate(closed);
}

function nextBusinessDay(date: JstDate, closedDays: readonly JstDate[]): JstDate {
  let day = dayNumber(date);
  let candidate: JstDate;
  do candidate = fromDayNumber(++day);
  while (!isBusinessDay(candidate, closedDays));
  return candidate;
}

/**
 * The acceptance day (受付日) of a request: its Japanese date when that is a business day and the
 * request came before the cut-off hour, otherwise the next business day. The promise counts from here.
 * @example shippingAcceptanceDate(new Date('2027-06-07T14:59:00Z'), { businessDays: 5, closedDays: [], cutoffHour: 15 }) // '2027-06-08' (Mon 23:59 in Japan: after 15:00)
 */
export function shippingAcceptanceDate(requestedAt: Date, rules: ShippingDateRules): JstDate {
  checkRules(rules);
  const date = jstDateOf(requestedAt);
  const hour = new TZDate(requestedAt.getTime(), SHOP_TIME_ZONE).getHours();
  if (hour < rules.cutoffHour && isBusinessDay(date, rules.closedDays)) return date;
  return nextBusinessDay(date, rules.closedDays);
}

/**
 * 発送予定日: the `businessDays`-th business day after the acceptance day (the acceptance day itself is
 * not counted, so 5 means "within 5 business days from the day after acceptance"; 0 means the same day).
 * Answers in Japanese calendar days on any server zone. Throws `HolidayDataRangeError` past the
 * holiday table and RangeError for rules that are not whole numbers in range.
 * @example promisedShipDate(new Date('2027-04-27T01:00:00Z'), { businessDays: 5, closedDays: [], cutoffHour: 15 }) // '2027-05-10' (Golden Week skipped)
 */
export function promisedShipDate(requestedAt: Date, rules: ShippingDateRules): JstDate {
  let date = shippingAcceptanceDate(requestedAt, rules);
  for (let counted = 0; counted < rules.businessDays; counted += 1) date = nextBusinessDay(date, rules.closedDays);
  return date;
}

/**
 * Business days after `from` up to and including `to`, so that `businessDaysBetween(acceptance,
 * promised)` is N; negative when `to` is before `from` (a promise not yet due). With today's date as
 * `to` and the promised date as `from` it says how many business days a shipment is late.
 * @example businessDaysBetween('2027-04-28', '2027-05-06', []) // 2 (4/30 and 5/6)
 */
export function businessDaysBetween(from: JstDate, to: JstDate, closedDays: readonly JstDate[]): number {
  const [start, end] = [dayNumber(from), dayNumber(to)];
  if (end < start) return -businessDaysBetween(to, from, closedDays);
  let count = 0;
  for (let day = start + 1; day <= end; day += 1) if (isBusinessDay(fromDayNumber(day), closedDays)) count += 1;
  return count;
}

/**
 * When a promise on that date is broken: the first instant after the Japanese day (24:00 JST). A
 * request not shipped at or after this instant is late and its compensation is due.
 * @example shipDeadlineInstant('2027-05-10').toISOString() // '2027-05-10T15:00:00.000Z'
 */
export function shipDeadlineInstant(date: JstDate): Date {
  const { year, month, day } = readJstDate(date);
  return new Date(new TZDate(year, month - 1, day + 1, 0, 0, 0, 0, SHOP_TIME_ZONE).getTime());
}
