// Test kit for the ranking boards: forget every folded score and the watermark, so that a test folds its
// own draws, whatever instants earlier tests of the file folded up to.
import type { Database } from '#db/client';
import { rankingMarks, rankingMemberExp, rankingScores } from './schema';

/** @example await resetRankingFold(db); await foldRankings(db, { settleSeconds: 0, batchRows: 1000 }, FAR_FUTURE) */
export async function resetRankingFold(db: Database): Promise<void> {
  await db.delete(rankingScores);
  await db.delete(rankingMemberExp);
  await db.delete(rankingMarks);
}
