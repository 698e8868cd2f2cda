// The draw module's browser door: the pure rule that names a top-tier prize, so the result page's and
// the prize box's confirmations decide it as the winners feed does. Nothing here reads a database.
export { BEST_TIER_RANK, TOP_TIER_EFFECTS, isSOrBetter, isTopTier, type TopTierFacts } from './top-tier';
