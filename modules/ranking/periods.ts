// The boards and their Japan-time periods (a day, a week, a month).
import type { RankingBoardName } from './schema';

/** The boards, in the order the pages list them. */
export const RANKING_BOARDS = ['goodluck', 'exp', 'level'] as const satisfies readonly RankingBoardName[];

/** A board shows at most this many members. */
export const RANKING_SIZE = 100;

/** A period of a board: [from, to) in UTC instants between Japan-time midnights, and its first day. */
export interface RankingPeriod {
  from: Date;
  to: Date;
  /** The period's first day in Japan, 'YYYY-MM-DD' (the scores' period_start). */
  start: string;
}

const PERIOD_OF: Record<RankingBoardName, 'day' | 'week' | 'month'> = { goodluck: 'day', exp: 'week', level: 'month' };

/** Japan keeps UTC+9 all year (no summer time since 1951): periods are plain arithmetic, which the fold does per draw. */
const JST_OFFSET_MS = 9 * 3_600_000;
const DAY_MS = 86_400_000;

const dayKey = (jst: Date) => jst.toISOString().slice(0, 10);

/**
 * The Japan-time day, week (Monday 00:00 to the next Monday 00:00) or month that contains `now`.
 * @example jstPeriod('day', new Date('2026-11-23T15:00:00Z')).start === '2026-11-24'
 */
export function jstPeriod(kind: 'day' | 'week' | 'month', now: Date): RankingPeriod {
  // `jst` carries Japan's wall clock in its UTC fields.
  const jst = new Date(now.getTime() + JST_OFFSET_MS);
  let from: number;
  let to: number;
  if (kind === 'month') {
    from = Date.UTC(jst.getUTCFullYear(), jst.getUTCMonth(), 1);
    to = Date.UTC(jst.getUTCFullYear(), jst.getUTCMonth() + 1, 1);
  } else {
    const midnight = Math.floor(jst.getTime() / DAY_MS) * DAY_MS;
    // getUTCDay: 0 = Sunday; Monday starts the week.
    from = kind === 'day' ? midnight : midnight - ((jst.getUTCDay() + 6) % 7) * DAY_MS;
    to = from + (kind === 'day' ? DAY_MS : 7 * DAY_MS);
  }
  return { from: new Date(from - JST_OFFSET_MS), to: new Date(to - JST_OFFSET_MS), start: dayKey(new Date(from)) };
}

/**
 * A board's current period, or the one before it.
 * @example boardPeriod('exp', 'previous', now).to.getTime() === boardPeriod('exp', 'current', now).from.getTime()
 */
export function boardPeriod(board: RankingBoardName, which: 'current' | 'previous', now: Date): RankingPeriod {
  const current = jstPeriod(PERIOD_OF[board], now);
  return which === 'current' ? current : jstPeriod(PERIOD_OF[board], new Date(current.from.getTime() - 1));
}
