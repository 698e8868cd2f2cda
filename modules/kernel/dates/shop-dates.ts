// Shop date helpers: every date is shown in Japanese, in Asia/Tokyo time, whatever the server's own time zone.
import { formatCountdownMs } from './countdown';

/**
 * The one time zone the shop shows and counts periods in. The server runs in UTC, so plain
 * `Date` getters (and date-fns on a plain `Date`) would give UTC wall-clock values; every
 * helper here reads the wall clock of this zone instead (Intl here, a `TZDate` in ./zone).
 * @example new Intl.DateTimeFormat('ja-JP', { timeZone: SHOP_TIME_ZONE })
 */
export const SHOP_TIME_ZONE = 'Asia/Tokyo';

/**
 * What the helpers accept: a `Date`, an ISO 8601 string, or epoch milliseconds.
 * @example const input: ShopDateInput = '2026-11-22T00:04:05+09:00';
 */
export type ShopDateInput = Date | string | number;

/**
 * How the date parts are joined: `2026-11-22`, `2026/11/22` or `2026年11月22日`.
 * @example const separator: DateSeparator = 'ja';
 */
export type DateSeparator = 'hyphen' | 'slash' | 'ja';

/**
 * The named formats `formatShopDate` knows.
 * @example const name: DateFormatName = 'ymdhm';
 */
export type DateFormatName = 'iso' | 'timestamp' | 'ymdhm' | 'ymd' | 'ym' | 'md' | 'd';

// The joiners per separator. All parts are zero-padded in every variant (`01月05日` too), so columns
// line up and the variants differ only in their joiners. Built from Tokyo's wall clock (no date-fns
// `format`, its locale nor TZDate in the browser: the pack page's JavaScript stays small, issue 17).
const JOINERS: Record<DateSeparator, { date: [string, string, string]; time: [string, string, string] }> = {
  hyphen: { date: ['-', '-', ''], time: [':', ':', ''] },
  slash: { date: ['/', '/', ''], time: [':', ':', ''] },
  ja: { date: ['年', '月', '日'], time: ['時', '分', '秒'] },
};
const JA_WEEKDAYS = ['日', '月', '火', '水', '木', '金', '土'] as const;

/** Wall-clock parts of an instant in Tokyo (from the platform's time-zone data, Intl, before 1952). */
interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

/** 1952-01-01T00:00+09:00: from here on Tokyo's clock is UTC+9 all year (the last summer time ended in 1951). */
const FIXED_OFFSET_SINCE = Date.UTC(1951, 11, 31, 15);
/** The last instant whose shifted wall clock a `Date` can still hold. */
const LAST_SHIFTABLE = 8.64e15 - 9 * 3600_000;
const WEEKDAY_INDEX: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
let tokyoFormat: Intl.DateTimeFormat | undefined;

/**
 * The instant's Tokyo wall clock: the fixed UTC+9 since 1952, Intl's zone data before (the summers of
 * 1948–1951). No date library: the pages that show dates stay small (issue 17).
 */
function wallOf(time: number): Wall {
  // Japan has kept UTC+9 without summer time since 1952: the wall clock is the shifted UTC one. No Intl
  // then, whose first formatter costs a page ~50 ms of start-up on a phone (issue 32 item 4).
  if (time >= FIXED_OFFSET_SINCE && time <= LAST_SHIFTABLE) {
    const shifted = new Date(time + 9 * HOUR);
    return {
      year: shifted.getUTCFullYear(),
      month: shifted.getUTCMonth() + 1,
      day: shifted.getUTCDate(),
      hour: shifted.getUTCHours(),
      minute: shifted.getUTCMinutes(),
      second: shifted.getUTCSeconds(),
      weekday: shifted.getUTCDay(),
    };
  }
  tokyoFormat ??= new Intl.DateTimeFormat('en-US', {
    timeZone: SHOP_TIME_ZONE,
    hourCycle: 'h23',
    era: 'short',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    weekday: 'short',
  });
  const wall: Wall = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, weekday: 0 };
  let beforeChrist = false;
  for (const part of tokyoFormat.formatToParts(time)) {
    if (part.type === 'era') beforeChrist = part.value.startsWith('B');
    else if (part.type === 'weekday') wall.weekday = WEEKDAY_INDEX[part.value] ?? 0;
    else if (part.type in wall) wall[part.type as keyof Wall] = Number(part.value);
  }
  if (beforeChrist) wall.year = 1 - wall.year;
  return wall;
}

/** Epoch ms of a wall clock read as UTC (years 0–99 stay themselves). */
function utcOfWall(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, 0);
  return utc.getTime();
}

/** The instant at which Tokyo's clock shows this wall time. */
function tokyoWallToTime(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  ms: number,
): number {
  const asUtc = utcOfWall(year, month, day, hour, minute, second);
  let time = asUtc - 9 * HOUR;
  // Tokyo is UTC+9 but for the summers of 1948–1951: one correction finds those hours.
  for (let step = 0; step < 2; step++) {
    const w = wallOf(time);
    const drift = utcOfWall(w.year, w.month, w.day, w.hour, w.minute, w.second) - asUtc;
    if (drift === 0) break;
    time -= drift;
  }
  return time + ms;
}

/** The instant's parts, zero-padded as date-fns' `yyyy`, `MM`, `dd`, `HH`, `mm`, `ss`, `SSS` write them. */
function partsOf(time: number, wall: Wall) {
  return {
    y: wall.year < 0 ? `-${String(-wall.year).padStart(4, '0')}` : String(wall.year).padStart(4, '0'),
    M: pad2(wall.month),
    d: pad2(wall.day),
    H: pad2(wall.hour),
    m: pad2(wall.minute),
    s: pad2(wall.second),
    S: String(((time % 1000) + 1000) % 1000).padStart(3, '0'),
  };
}

/** `+09:00`: the zone's offset at that instant (never `Z`). */
function offsetOf(time: number, wall: Wall): string {
  const wholeSeconds = time - (((time % 1000) + 1000) % 1000);
  const minutes = Math.round(
    (utcOfWall(wall.year, wall.month, wall.day, wall.hour, wall.minute, wall.second) - wholeSeconds) / MINUTE,
  );
  const sign = minutes < 0 ? '-' : '+';
  return `${sign}${pad2(Math.floor(Math.abs(minutes) / 60))}:${pad2(Math.abs(minutes) % 60)}`;
}

function formatTime(time: number, formatName: DateFormatName, separator: DateSeparator): string {
  const wall = wallOf(time);
  const p = partsOf(time, wall);
  if (formatName === 'iso') return `${p.y}-${p.M}-${p.d}T${p.H}:${p.m}:${p.s}.${p.S}${offsetOf(time, wall)}`;
  const joiners = JOINERS[separator];
  if (!joiners) return '';
  const [dy, dm, dd] = joiners.date;
  const [th, tm, ts] = joiners.time;
  switch (formatName) {
    case 'timestamp':
      return `${p.y}${dy}${p.M}${dm}${p.d}${dd} ${p.H}${th}${p.m}${tm}${p.s}${ts}`;
    case 'ymdhm':
      return `${p.y}${dy}${p.M}${dm}${p.d}${dd} ${p.H}${th}${p.m}${separator === 'ja' ? tm : ''}`;
    case 'ymd':
      return `${p.y}${dy}${p.M}${dm}${p.d}${dd}`;
    case 'ym':
      return `${p.y}${dy}${p.M}${separator === 'ja' ? dm : ''}`;
    case 'md':
      return `${p.M}${dm}${p.d}${dd}`;
    case 'd':
      return `${p.d}${dd}`;
    default:
      return '';
  }
}

// ECMAScript's Date range is ±8.64e15 ms; outside it a Date is invalid.
const MAX_TIME = 8.64e15;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// YYYY-MM-DD, optionally followed by T or a space, hh:mm, optional :ss and fraction, optional offset.
const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one; UTC so the process zone cannot matter.
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Parses an ISO string into epoch ms, or NaN.
 * `new Date(string)` is not used directly because it reads offset-less date-times in the
 * process zone (UTC on the server, something else in a browser or on a dev machine) and
 * date-only strings as UTC. Here a string without an offset is read as Tokyo wall-clock
 * time, so `'2026-11-22'` means midnight of that day in the shop, on every machine.
 */
function parseIsoString(text: string): number {
  const m = ISO_RE.exec(text.trim());
  if (!m) return Number.NaN;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4] ?? 0);
  const minute = Number(m[5] ?? 0);
  const second = Number(m[6] ?? 0);
  // Only milliseconds are kept; further fraction digits are cut off, not rounded.
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return Number.NaN;
  if (hour > 23 || minute > 59 || second > 59) return Number.NaN;

  const offset = m[8];
  if (offset === undefined) return tokyoWallToTime(year, month, day, hour, minute, second, ms);
  let offsetMinutes = 0;
  if (offset.toUpperCase() !== 'Z') {
    const digits = offset.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || '0');
    if (oh > 23 || om > 59) return Number.NaN;
    offsetMinutes = (offset.startsWith('-') ? -1 : 1) * (oh * 60 + om);
  }
  // setUTCFullYear instead of Date.UTC, which maps years 0–99 to 1900–1999.
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, ms);
  return utc.getTime() - offsetMinutes * MINUTE;
}

/** Epoch ms for any accepted input, or NaN when it is not a valid instant. */
export function toTime(input: ShopDateInput | null | undefined): number {
  let time: number;
  if (input instanceof Date) time = input.getTime();
  else if (typeof input === 'number') time = input;
  else if (typeof input === 'string') time = parseIsoString(input);
  else return Number.NaN;
  return Number.isFinite(time) && Math.abs(time) <= MAX_TIME ? time : Number.NaN;
}

/**
 * Formats an instant in Tokyo time. Invalid input gives `''` (never throws, never "Invalid Date").
 * `iso` ignores the separator.
 * @example formatShopDate('2026-11-21T15:04:05.123Z', 'timestamp', 'ja') // '2026年11月22日 00時04分05秒'
 */
export function formatShopDate(
  input: ShopDateInput,
  formatName: DateFormatName,
  separator: DateSeparator = 'hyphen',
): string {
  const time = toTime(input);
  return Number.isNaN(time) ? '' : formatTime(time, formatName, separator);
}

/**
 * ISO 8601 with milliseconds and the +09:00 offset (same for every separator).
 * @example formatIso(Date.UTC(2026, 10, 21, 15, 4, 5, 123)) // '2026-11-22T00:04:05.123+09:00'
 */
export function formatIso(input: ShopDateInput, separator: DateSeparator = 'hyphen'): string {
  return formatShopDate(input, 'iso', separator);
}

/**
 * Date and time with seconds.
 * @example formatTimestamp('2026-11-21T15:04:05Z', 'slash') // '2026/11/22 00:04:05'
 */
export function formatTimestamp(input: ShopDateInput, separator: DateSeparator = 'hyphen'): string {
  return formatShopDate(input, 'timestamp', separator);
}

/**
 * Date with hours and minutes.
 * @example formatYmdHm('2026-11-21T15:04:05Z', 'ja') // '2026年11月22日 00時04分'
 */
export function formatYmdHm(input: ShopDateInput, separator: DateSeparator = 'hyphen'): string {
  return formatShopDate(input, 'ymdhm', separator);
}

/**
 * Year, month and day.
 * @example formatYmd('2026-12-31T15:00:00Z') // '2027-01-01'
 */
export function formatYmd(input: ShopDateInput, separator: DateSeparator = 'hyphen'): string {
  return formatShopDate(input, 'ymd', separator);
}

/**
 * Year and month.
 * @example formatYm('2026-11-21T15:04:05Z', 'ja') // '2026年11月'
 */
export function formatYm(input: ShopDateInput, separator: DateSeparator = 'hyphen'): string {
  return formatShopDate(input, 'ym', separator);
}

/**
 * Month and day.
 * @example formatMd('2026-11-21T15:04:05Z', 'slash') // '11/22'
 */
export function formatMd(input: ShopDateInput, separator: DateSeparator = 'hyphen'): string {
  return formatShopDate(input, 'md', separator);
}

/**
 * Day of the month, zero-padded.
 * @example formatDay('2026-11-21T15:04:05Z', 'ja') // '22日'
 */
export function formatDay(input: ShopDateInput, separator: DateSeparator = 'hyphen'): string {
  return formatShopDate(input, 'd', separator);
}

/**
 * Japanese date with the short Japanese weekday, for page headings and notices.
 * @example formatShopDateWithWeekday('2026-11-21T15:04:05Z') // '2026年11月22日(日)'
 */
export function formatShopDateWithWeekday(input: ShopDateInput): string {
  const time = toTime(input);
  return Number.isNaN(time) ? '' : `${formatTime(time, 'ymd', 'ja')}(${JA_WEEKDAYS[wallOf(time).weekday]})`;
}

// The shop's two date styles (issue 29 item 11, decision 060): members read 「12月7日（月）」 and
// 「12月7日（月）15:30」 (the year only when it is not this year in Tokyo), staff read 「2026/11/29 06:59」.
// Pages call these; the named formats above stay for the specification's explicit formats (receipts,
// CSV, API text).

function memberDayOf(time: number, now: number): string {
  const wall = wallOf(time);
  const year = wall.year === wallOf(now).year ? '' : `${wall.year}年`;
  return `${year}${wall.month}月${wall.day}日（${JA_WEEKDAYS[wall.weekday]}）`;
}

/**
 * A member's date: month, day and weekday in Tokyo, the year only when it is not the current one.
 * @example formatMemberDate('2026-12-07T03:00:00Z', Date.parse('2026-11-29T00:00:00Z')) // '12月7日（月）'
 */
export function formatMemberDate(input: ShopDateInput, now: ShopDateInput = Date.now()): string {
  const time = toTime(input);
  return Number.isNaN(time) ? '' : memberDayOf(time, toTime(now));
}

/**
 * A member's date with the time (24-hour, Tokyo).
 * @example formatMemberDateTime('2026-12-07T06:30:00Z', Date.parse('2026-11-29T00:00:00Z')) // '12月7日（月）15:30'
 */
export function formatMemberDateTime(input: ShopDateInput, now: ShopDateInput = Date.now()): string {
  const time = toTime(input);
  if (Number.isNaN(time)) return '';
  const wall = wallOf(time);
  return `${memberDayOf(time, toTime(now))}${pad2(wall.hour)}:${pad2(wall.minute)}`;
}

/**
 * Staff's date and time: every part, slashes, 24-hour Tokyo time (lists line up, years never guessed).
 * @example formatStaffDateTime('2026-11-28T21:59:00Z') // '2026/11/29 06:59'
 */
export function formatStaffDateTime(input: ShopDateInput): string {
  return formatShopDate(input, 'ymdhm', 'slash');
}

/**
 * Staff's date alone.
 * @example formatStaffDate('2026-11-28T21:59:00Z') // '2026/11/29'
 */
export function formatStaffDate(input: ShopDateInput): string {
  return formatShopDate(input, 'ymd', 'slash');
}

/** Countdowns stay neutral until this many days remain, then warn (issue 29 item 11). */
export const DEADLINE_WARNING_DAYS = 3;

/**
 * Whether a deadline is in its last days (at most `DEADLINE_WARNING_DAYS` left, or passed): only then is a
 * countdown shown as a warning; 「自動交換まで13日」 right after a 14-day draw is plain information.
 * @example isDeadlineNear('2026-12-02T00:00:00Z', Date.parse('2026-11-29T00:00:00Z')) // true
 */
export function isDeadlineNear(until: ShopDateInput, now: ShopDateInput = Date.now()): boolean {
  const left = toTime(until) - toTime(now);
  return !Number.isNaN(left) && left <= DEADLINE_WARNING_DAYS * 86_400_000;
}

/**
 * A deadline and the moment to measure from (defaults to now).
 * @example const target: CountdownTarget = { until: '2026-11-22T00:00:00+09:00', now: Date.now() };
 */
export interface CountdownTarget {
  until: ShopDateInput;
  now?: Date | number;
}

/** Milliseconds from `now` to `until`, or NaN when either is invalid. */
function remainingMs(until: ShopDateInput, now: Date | number | undefined): number {
  return toTime(until) - toTime(now ?? Date.now());
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * Countdown text. `clock`: `m:ss` under one hour, `h:mm:ss` from one hour up (hours are not
 * folded into days: `26:03:09`). `ja`: `4分05秒` / `1時間00分00秒`.
 * Remaining time is rounded UP to whole seconds, so a running timer never shows `0:00` while
 * time remains (999 ms → `0:01`) and reaches `''` exactly when time runs out.
 * Returns `''` when the remaining time is ≤ 0 or an input is invalid.
 * @example formatCountdown(3_600_000) // '1:00:00'
 * @example formatCountdown({ until: '2026-11-22T00:04:05+09:00', now: Date.parse('2026-11-22T00:00:00+09:00') }, 'ja') // '4分05秒'
 */
export function formatCountdown(untilOrRemaining: CountdownTarget | number, style: 'clock' | 'ja' = 'clock'): string {
  const remaining =
    typeof untilOrRemaining === 'number' ? untilOrRemaining : remainingMs(untilOrRemaining.until, untilOrRemaining.now);
  return formatCountdownMs(remaining, style);
}

/**
 * Coarse time left for deadlines in lists: `残り3日` (≥ 1 day), `残り5時間` (≥ 1 hour),
 * `残り12分` (≥ 1 minute), `残り1分未満`, or `''` once passed (or when an input is invalid).
 * Units are rounded DOWN (3 days 23 hours → `残り3日`), so it never promises more than is left.
 * @example formatRemainingShort('2026-11-25T12:00:00+09:00', Date.parse('2026-11-22T00:00:00+09:00')) // '残り3日'
 */
export function formatRemainingShort(until: ShopDateInput, now?: Date | number): string {
  const remaining = remainingMs(until, now);
  if (!Number.isFinite(remaining) || remaining <= 0) return '';
  if (remaining >= DAY) return `残り${Math.floor(remaining / DAY)}日`;
  if (remaining >= HOUR) return `残り${Math.floor(remaining / HOUR)}時間`;
  if (remaining >= MINUTE) return `残り${Math.floor(remaining / MINUTE)}分`;
  return '残り1分未満';
}

// `D HH:MM:SS` (any number of day digits) or `HH:MM:SS`; hours may be one or two digits.
const TIME_LIMIT_RE = /^(?:(\d+) +)?(\d{1,2}):(\d{2}):(\d{2})$/;

/**
 * Parses a time-limit input relative to `now`: `D HH:MM:SS` (days ≥ 0, HH 0–23) or
 * `HH:MM:SS` (HH 0–99), minutes and seconds 00–59. Full-width digits, colons and spaces are
 * accepted (NFKC), surrounding spaces are trimmed. Returns `now` + the duration, or null when
 * the text is malformed or the result is outside the Date range.
 * @example parseTimeLimit('1 02:00:00', Date.parse('2026-11-22T00:00:00+09:00'))?.toISOString() // '2026-11-22T17:00:00.000Z' (23 Nov 02:00 JST)
 */
export function parseTimeLimit(text: string, now: Date | number = Date.now()): Date | null {
  if (typeof text !== 'string') return null;
  const m = TIME_LIMIT_RE.exec(text.normalize('NFKC').trim());
  if (!m) return null;
  const days = m[1] === undefined ? 0 : Number(m[1]);
  const hours = Number(m[2]);
  const minutes = Number(m[3]);
  const seconds = Number(m[4]);
  if (m[1] !== undefined && hours > 23) return null;
  if (minutes > 59 || seconds > 59) return null;
  const base = toTime(now);
  const result = base + days * DAY + hours * HOUR + minutes * MINUTE + seconds * SECOND;
  if (!Number.isFinite(result) || Math.abs(result) > MAX_TIME) return null;
  return new Date(result);
}

/**
 * Canonical time-limit text for a duration, the inverse of `parseTimeLimit`: `D HH:MM:SS`, or
 * `HH:MM:SS` when under one day. Sub-second parts are dropped (rounded down); a negative or
 * non-finite duration gives `''`.
 * @example formatTimeLimit(26 * 3_600_000 + 5_000) // '1 02:00:05'
 */
export function formatTimeLimit(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  const total = Math.floor(ms / SECOND);
  const days = Math.floor(total / 86_400);
  const rest = total % 86_400;
  const clock = `${pad2(Math.floor(rest / 3600))}:${pad2(Math.floor((rest % 3600) / 60))}:${pad2(rest % 60)}`;
  return days > 0 ? `${days} ${clock}` : clock;
}
