// The ranking boards as the pages and the API show them (decision 037): the period's top 100 and the
// member's own place from modules/ranking, with public nicknames (never an email or an id) and the hit's
// card. One shape for /ranking/* and GET /api/v1/rankings/{board}.
import type { Database } from '#db/client';
import {
  boardPeriod,
  rankingBoard,
  rankingsFoldedTo,
  type RankingBoardName,
  type RankingEntry,
} from '#modules/ranking';
import { describeTiers } from '#modules/gacha';
import { publicNicknames, sponsoredDuring, sponsorshipSpans } from '#modules/identity';
import { toShopZone } from '#modules/kernel/dates/zone';

/** The URL of each board and its period word. */
export const BOARD_PATHS: Record<RankingBoardName, string> = {
  goodluck: '/ranking/daily/goodluck',
  exp: '/ranking/weekly/exp',
  level: '/ranking/monthly/level',
};

/** One line as shown: a nickname, never an email or a member id. */
export interface BoardLine {
  place: number;
  name: string;
  /** goodluck: hundredths of the multiple; exp: exp; level: levels gained. */
  score: number;
  /** level: exp gained this month (ties); 0 elsewhere. */
  tiebreak: number;
  mine: boolean;
  /** A sponsored account (streamer, affiliate) at any time in the board's period: the line shows 「PR」 (decision 083). */
  sponsored: boolean;
  hit: { label: string; cardName: string; packTitle: string; conversionValue: number; pricePerDraw: number } | null;
}

export interface BoardView {
  board: RankingBoardName;
  period: 'current' | 'previous';
  /** '11月24日', '11月23日〜11月29日', '2026年11月'. */
  periodLabel: string;
  from: Date;
  to: Date;
  lines: BoardLine[];
  me: BoardLine | null;
  /** Draws up to this instant are counted (the fold's watermark); null before the first fold. */
  countedTo: Date | null;
}

const md = (date: Date) => {
  const zoned = toShopZone(date)!;
  return `${zoned.getMonth() + 1}月${zoned.getDate()}日`;
};

function labelOf(board: RankingBoardName, from: Date, to: Date) {
  if (board === 'goodluck') return md(from);
  const last = new Date(to.getTime() - 1);
  if (board === 'exp') return `${md(from)}〜${md(last)}`;
  const zoned = toShopZone(from)!;
  return `${zoned.getFullYear()}年${zoned.getMonth() + 1}月`;
}

/**
 * @example const view = await boardView(db, 'exp', 'previous', member.id)
 */
export async function boardView(
  db: Database,
  board: RankingBoardName,
  which: 'current' | 'previous',
  memberId: string,
  now = new Date(),
): Promise<BoardView> {
  const period = boardPeriod(board, which, now);
  const [result, countedTo] = await Promise.all([rankingBoard(db, board, period, memberId), rankingsFoldedTo(db)]);
  const all = result.me ? [...result.entries, result.me] : result.entries;
  const [names, spans, tiers] = await Promise.all([
    publicNicknames(
      db,
      all.map((e) => e.memberId),
    ),
    sponsorshipSpans(
      db,
      all.map((e) => e.memberId),
    ),
    describeTiers(
      db,
      all.flatMap((e) => (e.hit ? [e.hit.tierId] : [])),
    ),
  ]);
  const toLine = (entry: RankingEntry): BoardLine => {
    const tier = entry.hit ? tiers.get(entry.hit.tierId) : undefined;
    return {
      place: entry.place,
      name: names.get(entry.memberId) ?? '会員',
      score: entry.score,
      tiebreak: entry.tiebreak,
      mine: entry.memberId === memberId,
      sponsored: sponsoredDuring(spans.get(entry.memberId), period.from, period.to),
      hit:
        tier && entry.hit
          ? {
              label: tier.label,
              cardName: tier.cardName,
              packTitle: tier.packTitle,
              conversionValue: entry.hit.conversionValue,
              pricePerDraw: entry.hit.pricePerDraw,
            }
          : null,
    };
  };
  return {
    board,
    period: which,
    periodLabel: labelOf(board, period.from, period.to),
    from: period.from,
    to: period.to,
    lines: result.entries.map(toLine),
    me: result.me ? toLine(result.me) : null,
    countedTo,
  };
}
