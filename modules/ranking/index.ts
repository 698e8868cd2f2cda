// The ranking boards (docs/decisions/037): daily goodluck, weekly exp and monthly level, in Japan-time
// periods. A job folds the completed draws into per-period scores (ranking_scores) from a watermark, so
// the draw itself does no ranking work and a board is one index range read plus one indexed count. The
// door only re-exports (issue 30 item 1): the boards and their periods (periods.ts), reading a board
// (board.ts), the fold (fold.ts).
export type { RankingBoardName } from './schema';
export { RANKING_BOARDS, RANKING_SIZE, jstPeriod, boardPeriod, type RankingPeriod } from './periods';
export { rankingBoard, type RankingEntry, type RankingBoard } from './board';
export { foldRankings, rankingsFoldedTo, type RankingFoldRules } from './fold';
