// The rules behind a result's summary and every conversion's confirmation, as pure functions:
// what a bulk conversion covers (undecided cards only), which tiers collapse, which prizes are named.
import type { PrizeItem, PrizeStatus } from '#modules/draw';
import { isTopTier } from '#modules/draw/browser';

/** What these rules read of a prize (a draw's result or the prize box). */
export type SummaryPrize = Pick<
  PrizeItem,
  'prizeId' | 'tierId' | 'tierLabel' | 'tierRank' | 'effect' | 'cardName' | 'conversionValue' | 'isLastOne'
> & {
  status: PrizeStatus;
};

/** Effects that count as a hit: shown open in a large result, highlighted in the reveal grid. */
const HIT_EFFECTS = new Set<PrizeItem['effect']>(['lastone', 'rainbow', 'gold']);

/** A result with more cards than this collapses its low tiers into counts. */
export const OPEN_ALL_UP_TO = 10;
/** In a large result, a hit tier with more cards than this collapses too. */
export const OPEN_HIT_TIER_UP_TO = 12;

/** Sort key: ラストワン賞 first, then the pack's tier order. */
const rankOf = (p: Pick<SummaryPrize, 'isLastOne' | 'tierRank'>) =>
  p.isLastOne ? Number.NEGATIVE_INFINITY : p.tierRank;

export const isHit = (p: Pick<SummaryPrize, 'effect'>) => HIT_EFFECTS.has(p.effect);

/** The prizes a bulk conversion covers: the undecided ones, never those kept for shipping. */
export const undecidedOf = <P extends SummaryPrize>(prizes: readonly P[]) =>
  prizes.filter((p) => p.status === 'pending');

export interface TierGroup<P extends SummaryPrize> {
  tierId: string;
  label: string;
  effect: PrizeItem['effect'];
  prizes: P[];
  /** Conversion value of every card of the tier. */
  value: number;
  /** Shown open at first; otherwise a count that opens. */
  open: boolean;
}

/**
 * The cards by tier, best first. Up to OPEN_ALL_UP_TO cards everything is open; above it only hit
 * tiers of at most OPEN_HIT_TIER_UP_TO cards are, so a 100連 reads in a few screens.
 * @example groupByTier(items).map((g) => `${g.label}×${g.prizes.length}`) // ['S賞×1', 'A賞×2', 'B賞×17', 'C賞×80']
 */
export function groupByTier<P extends SummaryPrize>(prizes: readonly P[]): TierGroup<P>[] {
  const groups = new Map<string, TierGroup<P>>();
  for (const p of prizes) {
    const group = groups.get(p.tierId) ?? {
      tierId: p.tierId,
      label: p.tierLabel,
      effect: p.effect,
      prizes: [],
      value: 0,
      open: true,
    };
    group.prizes.push(p);
    group.value += p.conversionValue;
    groups.set(p.tierId, group);
  }
  const large = prizes.length > OPEN_ALL_UP_TO;
  return [...groups.values()]
    .sort((a, b) => rankOf(a.prizes[0]!) - rankOf(b.prizes[0]!))
    .map((g) => ({ ...g, open: !large || (HIT_EFFECTS.has(g.effect) && g.prizes.length <= OPEN_HIT_TIER_UP_TO) }));
}

/** 「S賞×1・A賞×2・B賞×17・C賞×80」 */
export const tierCountLine = (groups: readonly TierGroup<SummaryPrize>[]) =>
  groups.map((g) => `${g.label}×${g.prizes.length}`).join('・');

export interface ConversionPlan<P extends SummaryPrize> {
  prizes: P[];
  count: number;
  total: number;
  /** The prizes named in the highlighted line, best first. */
  highlights: P[];
}

/**
 * What a conversion of these prizes would do, as its confirmation says it. The highlighted line names
 * the top-tier prizes by the draw module's rule (`isTopTier`: S賞 or better by rank or effect, or worth
 * at least `highlightCoins`), the same rule that puts a win in the winners feed.
 * @example conversionPlan(undecidedOf(items), 10000) // { count: 99, total: 7060, highlights: [sPrize] }
 */
export function conversionPlan<P extends SummaryPrize>(
  prizes: readonly P[],
  highlightCoins: number,
): ConversionPlan<P> {
  const highlights = prizes
    .filter((p) => isTopTier(p, highlightCoins))
    .sort((a, b) => rankOf(a) - rankOf(b) || b.conversionValue - a.conversionValue);
  return {
    prizes: [...prizes],
    count: prizes.length,
    total: prizes.reduce((sum, p) => sum + p.conversionValue, 0),
    highlights,
  };
}
