// The rules behind a result's summary and every conversion's confirmation, as pure functions:
// what a bulk conversion covers (undecided cards only), which tiers collapse, which prizes are named.
import type { PrizeItem, PrizeStatus } from '#modules/draw';
import { isSOrBetter, isTopTier } from '#modules/draw/browser';

/** What these rules read of a prize (a draw's result or the prize box). */
export type SummaryPrize = Pick<
  PrizeItem,
  'prizeId' | 'tierId' | 'tierLabel' | 'tierRank' | 'effect' | 'cardName' | 'conversionValue' | 'isLastOne'
> & {
  status: PrizeStatus;
  /** How many of its pack's regular tiers stand below the prize's (0: the pack's lowest); unknown on old data. */
  tiersBelow?: number;
};

/**
 * Which cards a conversion names one by one (decision 057): every tier above the pack's lowest
 * `aboveLowestTiers` (CONVERT_CONFIRM_NAMED_ABOVE_LOWEST_TIERS), every card worth `minCoins`
 * (CONVERT_CONFIRM_NAMED_MIN_COINS), and every top tier (S賞 or better, or PRIZE_HIGHLIGHT_COINS).
 */
export interface NamingRule {
  highlightCoins: number;
  minCoins: number;
  aboveLowestTiers: number;
}

/**
 * A rare card: S賞 or better, or a tier above the pack's lowest `aboveLowestTiers` (A賞 and better in
 * S・A・B・C). 保管 is its first choice, and a conversion names it.
 * @example isRareTier({ tierRank: 2, isLastOne: false, effect: 'gold', tiersBelow: 2 }, 2) === true
 */
export const isRareTier = (
  p: Pick<SummaryPrize, 'tierRank' | 'isLastOne' | 'effect' | 'tiersBelow'>,
  aboveLowestTiers: number,
) => isSOrBetter(p) || (p.tiersBelow ?? 0) >= aboveLowestTiers;

/** Named in a conversion's confirmation by the rule (see NamingRule). */
export const isNamedInConversion = (p: SummaryPrize, rule: NamingRule) =>
  isTopTier(p, rule.highlightCoins) || isRareTier(p, rule.aboveLowestTiers) || p.conversionValue >= rule.minCoins;

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
  rule: number | NamingRule,
): ConversionPlan<P> {
  const named = (p: P) => (typeof rule === 'number' ? isTopTier(p, rule) : isNamedInConversion(p, rule));
  const highlights = prizes
    .filter(named)
    .sort((a, b) => rankOf(a) - rankOf(b) || b.conversionValue - a.conversionValue);
  return {
    prizes: [...prizes],
    count: prizes.length,
    total: prizes.reduce((sum, p) => sum + p.conversionValue, 0),
    highlights,
  };
}

/** One choice of a bulk conversion: the undecided cards of one tier name (C賞 of every pack together). */
export interface TierChoice<P extends SummaryPrize> {
  label: string;
  effect: PrizeItem['effect'];
  prizes: P[];
  total: number;
  /** Every card of it is its pack's lowest tier: chosen at first (「C賞のみ」). */
  lowest: boolean;
}

/**
 * The tiers a bulk conversion offers, best first, by tier name. Only the packs' lowest tiers start
 * chosen; nothing else is converted unless the member ticks it (decision 057).
 * @example tierChoices(undecided).filter((t) => t.lowest).map((t) => t.label) // ['C賞']
 */
export function tierChoices<P extends SummaryPrize>(prizes: readonly P[]): TierChoice<P>[] {
  const byLabel = new Map<string, TierChoice<P> & { best: number }>();
  for (const p of prizes) {
    const choice = byLabel.get(p.tierLabel) ?? {
      label: p.tierLabel,
      effect: p.effect,
      prizes: [],
      total: 0,
      lowest: true,
      best: Number.POSITIVE_INFINITY,
    };
    choice.prizes.push(p);
    choice.total += p.conversionValue;
    choice.lowest &&= p.tiersBelow === 0 && !isSOrBetter(p);
    choice.best = Math.min(choice.best, isSOrBetter(p) ? -1000 : -(p.tiersBelow ?? 0));
    byLabel.set(p.tierLabel, choice);
  }
  return [...byLabel.values()]
    .sort((a, b) => a.best - b.best || b.total / b.prizes.length - a.total / a.prizes.length)
    .map(({ best: _best, ...choice }) => choice);
}
