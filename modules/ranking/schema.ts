// The ranking boards' scores per period (docs/decisions/037): folded from the completed draws by a job,
// so a board is one index range read (top 100) and a member's place one indexed count.
import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** 'goodluck' (daily), 'exp' (weekly), 'level' (monthly). */
export type RankingBoardName = 'goodluck' | 'exp' | 'level';

export const rankingScores = pgTable(
  'ranking_scores',
  {
    board: text('board').$type<RankingBoardName>().notNull(),
    /** The period's first day in Japan time: the day, the Monday, or the 1st of the month. */
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    memberId: text('member_id').notNull(),
    /** goodluck: best hit's multiple in hundredths (×12.5 → 1250); exp: exp gained; level: levels gained. */
    score: bigint('score', { mode: 'number' }).notNull(),
    /** Breaks ties into places (level: exp gained this month); 0 on the boards where ties share a place. */
    tiebreak: bigint('tiebreak', { mode: 'number' }).notNull().default(0),
    /** Orders a tie on the page: whoever reached the score first comes first. */
    reachedAt: timestamp('reached_at', { withTimezone: true }).notNull(),
    /** level: the member's cumulative exp before the month's first draw (levels gained = level(now) − level(then)). */
    expBefore: bigint('exp_before', { mode: 'number' }),
    /** goodluck: the hit behind the score. */
    hitGachaId: text('hit_gacha_id'),
    hitTierId: text('hit_tier_id'),
    hitValue: integer('hit_value'),
    hitPrice: integer('hit_price'),
  },
  (t) => [
    primaryKey({ columns: [t.board, t.periodStart, t.memberId] }),
    index('ranking_scores_board_idx').on(t.board, t.periodStart, t.score.desc(), t.tiebreak.desc(), t.reachedAt),
  ],
);

/** Each member's exp as folded so far (the sum of their folded draws): the level board's starting point. */
export const rankingMemberExp = pgTable('ranking_member_exp', {
  memberId: text('member_id').primaryKey(),
  exp: bigint('exp', { mode: 'number' }).notNull(),
});

/** The fold's watermark: completed draws created before it are in the scores. */
export const rankingMarks = pgTable('ranking_marks', {
  name: text('name').primaryKey(),
  foldedTo: timestamp('folded_to', { withTimezone: true })
    .notNull()
    .default(sql`'-infinity'`),
});
