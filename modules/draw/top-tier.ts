// The rule that names a prize (docs/decisions/009 and 036), pure so that both doors carry it: a top
// tier is 「S賞 or better」 — by its rank in the pack or by its effect — or worth PRIZE_HIGHLIGHT_COINS.
// The bulk conversion's highlighted line (the browser) and the winners feed (the server) read this one rule.
import type { TierCard } from '#modules/gacha';

/** Effects that count as 「S賞 or better」 wherever the tier stands in its pack. */
export const TOP_TIER_EFFECTS: readonly TierCard['effect'][] = ['lastone', 'rainbow'];

/** The rank of a pack's best tier (gacha_tiers.rank: 1 = best; the ラストワン賞 is 0). */
export const BEST_TIER_RANK = 1;

/** What the rule reads of a tier (a prize of it, or the tier itself). */
export interface TopTierFacts {
  tierRank: number;
  isLastOne: boolean;
  effect: TierCard['effect'];
  conversionValue: number;
}

/**
 * 「S賞 or better」: the ラストワン賞, the pack's best tier (rank 1, whatever effect the editor gave it)
 * or an S賞-class effect (a pack's 「S賞」 below an 「SS賞」). An extra prize at rank 0 that is not the
 * ラストワン賞 (a キリ番賞 as the fixtures rank it) is top only by its effect or its value.
 * @example isSOrBetter({ tierRank: 1, isLastOne: false, effect: 'gold' }) === true
 */
export function isSOrBetter(tier: Pick<TopTierFacts, 'tierRank' | 'isLastOne' | 'effect'>): boolean {
  return tier.isLastOne || tier.tierRank === BEST_TIER_RANK || TOP_TIER_EFFECTS.includes(tier.effect);
}

/**
 * A top tier: 「S賞 or better」 (isSOrBetter) or worth at least PRIZE_HIGHLIGHT_COINS. Named in the
 * highlighted line before a conversion, recorded in the winners feed.
 * @example isTopTier({ tierRank: 3, isLastOne: false, effect: 'silver', conversionValue: 12000 }, 10000) === true
 */
export function isTopTier(tier: TopTierFacts, highlightCoins: number): boolean {
  return isSOrBetter(tier) || tier.conversionValue >= highlightCoins;
}
