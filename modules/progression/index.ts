// Experience, level and rank (docs/decisions/037). Exp accrues at 1 per coin spent on draws (inside the
// draw's transaction, which also sends the level-up mails); the level comes from cumulative exp by the
// level table; the rank comes from paid coins bought in the previous calendar month in Japan time, as
// the monthly job records it. The door only re-exports (issue 30 item 1): levels (levels.ts), the rank
// table and a member's rank (ranks.ts), the monthly job (monthly-ranks.ts), what /myrank and /mylevel
// show (progress.ts).
export {
  defaultLevelThresholds,
  defaultLevelRewards,
  levelStepsOf,
  syncLevelTable,
  levelTable,
  levelOf,
  getMemberLevel,
  type LevelRules,
  type LevelStep,
  type LevelStanding,
  type MemberLevel,
} from './levels';
export {
  recordMonthlyRanks,
  rankHistory,
  rankUpRewardsTable,
  type RankRules,
  type MonthlyRankRun,
} from './monthly-ranks';
export {
  RANKS,
  rankBonusCoins,
  rankForPurchases,
  rankName,
  jstMonths,
  currentRank,
  membersAtRankOrAbove,
  rankByNumber,
  monthKey,
  type Rank,
} from './ranks';
export { getMemberProgress, getExp, type MemberProgress } from './progress';
export { progressionSettings } from './settings';
