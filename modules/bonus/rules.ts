// The login bonus's refusals and settings, the Japan-time day (decided here, never by the client), and
// the streak table.

export const LOGIN_BONUS_REFUSAL_CODES = [
  'UNAUTHENTICATED',
  'LOGIN_BONUS_DISABLED',
  'LOGIN_BONUS_ALREADY_CLAIMED',
  'LOGIN_BONUS_STAFF',
  'LOGIN_BONUS_NOT_AVAILABLE',
] as const;
export type LoginBonusRefusalCode = (typeof LOGIN_BONUS_REFUSAL_CODES)[number];

/** The wallet's reason for the grant (LEDGER_REASON_LABELS: ログインボーナス). */
export const LOGIN_BONUS_REASON = 'login_bonus';

/** The shop's settings (server/config.ts LOGIN_BONUS_STREAK_COINS, LOGIN_BONUS_AFTER_TABLE, FREE_COIN_EXPIRY_DAYS). */
export interface LoginBonusRules {
  /** Coins for day 1, 2, … of a streak; empty: the bonus is off. */
  streakCoins: readonly number[];
  /** Past the table's last day: start the table again ('repeat') or keep its last amount ('hold'). */
  afterTable: 'repeat' | 'hold';
  /** How long the granted free coins last. */
  freeCoinDays: number;
}

const JST_OFFSET_MS = 9 * 60 * 60 * 1000; // Japan has no daylight saving time.
const DAY_MS = 24 * 60 * 60 * 1000;

/** The Japan-time day of an instant. @example jstDayOf(new Date('2026-12-31T15:00:00Z')) // '2027-01-01' */
export const jstDayOf = (now: Date): string => new Date(now.getTime() + JST_OFFSET_MS).toISOString().slice(0, 10);

/** The day before, as 'YYYY-MM-DD'. @example previousJstDay('2027-01-01') // '2026-12-31' */
export const previousJstDay = (day: string): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

/** When the next Japan-time day starts. @example nextJstDayStart(new Date('2026-11-24T10:00:00Z')) // 2026-11-24T15:00:00Z */
export const nextJstDayStart = (now: Date): Date =>
  new Date(Date.parse(`${jstDayOf(now)}T00:00:00Z`) + DAY_MS - JST_OFFSET_MS);

/** Coins for a streak day (1-based). @example coinsForStreakDay({ streakCoins: [10, 20], afterTable: 'repeat', … }, 3) // 10 */
export function coinsForStreakDay(
  rules: Pick<LoginBonusRules, 'streakCoins' | 'afterTable'>,
  streakDay: number,
): number {
  const table = rules.streakCoins;
  if (table.length === 0) return 0;
  const index = rules.afterTable === 'hold' ? Math.min(streakDay, table.length) - 1 : (streakDay - 1) % table.length;
  return table[index]!;
}

/** The position in the table a streak day shows (1..length): day 8 of a repeating 7-day table is 1. */
export function tableDayOf(rules: Pick<LoginBonusRules, 'streakCoins' | 'afterTable'>, streakDay: number): number {
  const length = rules.streakCoins.length;
  if (length === 0) return 0;
  return rules.afterTable === 'hold' ? Math.min(streakDay, length) : ((streakDay - 1) % length) + 1;
}

/** A 'YYYY-MM-DD' day (a page's cursor). */
export function isJstDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}
