// The login bonus (docs/decisions/033): free coins once per Japan-time day per member, more for
// consecutive days by a streak table. The day is decided here (Asia/Tokyo), never by the client; the
// unique (member_id, jst_day) row and the wallet grant are written in one transaction, so concurrent
// claims from any number of instances credit once. The door only re-exports (issue 30 item 1): the
// refusals, rules, Japan-time days and the streak table (rules.ts), the state and claims (claims.ts).
export {
  LOGIN_BONUS_REFUSAL_CODES,
  LOGIN_BONUS_REASON,
  jstDayOf,
  previousJstDay,
  nextJstDayStart,
  coinsForStreakDay,
  tableDayOf,
  isJstDay,
  type LoginBonusRefusalCode,
  type LoginBonusRules,
} from './rules';
export {
  loginBonusStateOf,
  claimLoginBonus,
  listLoginBonusClaims,
  type LoginBonusState,
  type LoginBonusClaim,
  type LoginBonusLogEntry,
} from './claims';
export { bonusSettings } from './settings';
export { LOGIN_BONUS_REFUSAL_WORDS } from './refusal-words';
