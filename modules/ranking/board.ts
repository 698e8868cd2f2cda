// Reading a board: one index range read plus one indexed count.
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';
import { rankingScores, type RankingBoardName } from './schema';
import { type RankingPeriod, RANKING_SIZE } from './periods';

/** One member's line on a board. Members level on (score, tiebreak) share a place. */
export interface RankingEntry {
  place: number;
  memberId: string;
  /** goodluck: the best hit's multiple of its draw's price in hundredths (×12.5 → 1250); exp: exp; level: levels gained. */
  score: number;
  /** level: exp gained in the month (breaks ties); 0 elsewhere. */
  tiebreak: number;
  /** goodluck: the hit behind the score; null elsewhere. */
  hit: { gachaId: string; tierId: string; conversionValue: number; pricePerDraw: number } | null;
}

export interface RankingBoard {
  board: RankingBoardName;
  period: RankingPeriod;
  entries: RankingEntry[];
  /** The asking member's line, also outside the top 100; null without a score in the period. */
  me: RankingEntry | null;
}

type ScoreRow = typeof rankingScores.$inferSelect;

function entryOf(row: ScoreRow, place: number): RankingEntry {
  return {
    place,
    memberId: row.memberId,
    score: Number(row.score),
    tiebreak: Number(row.tiebreak),
    hit:
      row.hitTierId && row.hitGachaId
        ? {
            gachaId: row.hitGachaId,
            tierId: row.hitTierId,
            conversionValue: row.hitValue ?? 0,
            pricePerDraw: row.hitPrice ?? 0,
          }
        : null,
  };
}

/**
 * A board's top 100 and the member's own place (1 + members strictly ahead: an indexed count), in three
 * index reads on ranking_scores_board_idx.
 * @example const { entries, me } = await rankingBoard(db, 'exp', boardPeriod('exp', 'current', new Date()), member.id)
 */
export async function rankingBoard(
  db: Database,
  board: RankingBoardName,
  period: RankingPeriod,
  memberId: string | null,
): Promise<RankingBoard> {
  const inPeriod = and(eq(rankingScores.board, board), eq(rankingScores.periodStart, period.start));
  const [top, [mine]] = await Promise.all([
    db
      .select()
      .from(rankingScores)
      .where(inPeriod)
      .orderBy(
        desc(rankingScores.score),
        desc(rankingScores.tiebreak),
        asc(rankingScores.reachedAt),
        asc(rankingScores.memberId),
      )
      .limit(RANKING_SIZE),
    memberId
      ? db
          .select()
          .from(rankingScores)
          .where(and(inPeriod, eq(rankingScores.memberId, memberId)))
      : Promise.resolve([] as ScoreRow[]),
  ]);
  // Within the top list, everyone ahead of a line is listed before it: its place is the first index of its (score, tiebreak) + 1.
  const entries: RankingEntry[] = [];
  top.forEach((row, i) => {
    const previous = entries[i - 1];
    const tied = previous && previous.score === Number(row.score) && previous.tiebreak === Number(row.tiebreak);
    entries.push(entryOf(row, tied ? previous.place : i + 1));
  });
  let me: RankingEntry | null = null;
  if (mine) {
    const listed = entries.find((e) => e.memberId === mine.memberId);
    if (listed) me = listed;
    else {
      const [ahead] = await queryRows<{ n: number | string }>(
        db,
        // Two range counts on the board's index (index-only once vacuumed): a row comparison on its
        // descending columns would not bound the scan and reads the whole period instead.
        sql`select (select count(*) from ranking_scores
                     where board = ${board} and period_start = ${period.start}::date and score > ${mine.score}::bigint)
                 + (select count(*) from ranking_scores
                     where board = ${board} and period_start = ${period.start}::date and score = ${mine.score}::bigint
                       and tiebreak > ${mine.tiebreak}::bigint) as n`,
      );
      me = entryOf(mine, Number(ahead?.n ?? 0) + 1);
    }
  }
  return { board, period, entries, me };
}
